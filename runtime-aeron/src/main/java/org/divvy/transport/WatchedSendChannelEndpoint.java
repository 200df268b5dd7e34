package org.divvy.transport;

import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.media.SendChannelEndpoint;
import io.aeron.driver.media.UdpChannel;

/**
 * The embedded driver's endpoint for a publication to a peer, whose socket, once open, is watched by the agent's
 * {@link DatagramWait}: a peer's status message (the window that lets a new stream connect and an old one go on) and
 * its NAKs reach this socket, not the receive endpoint's, and must not wait out a deep-idle park either.
 */
final class WatchedSendChannelEndpoint extends SendChannelEndpoint {
    private final DatagramWait datagramWait;

    WatchedSendChannelEndpoint(final UdpChannel udpChannel, final AtomicCounter statusIndicator,
        final MediaDriver.Context context, final DatagramWait datagramWait) {
        super(udpChannel, statusIndicator, context);
        this.datagramWait = datagramWait;
    }

    @Override
    public void openDatagramChannel(final AtomicCounter statusIndicator) {
        super.openDatagramChannel(statusIndicator);
        DatagramWait.watch(datagramWait, receiveDatagramChannel);
    }

    @Override
    public void close() {
        super.close();
        DatagramWait.unwatchClosed(datagramWait);
    }
}
