package org.divvy.transport;

import java.net.InetSocketAddress;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import io.aeron.driver.DataPacketDispatcher;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.media.ReceiveChannelEndpoint;
import io.aeron.driver.media.UdpChannel;
import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.SetupFlyweight;

/**
 * The embedded driver's receive endpoint, asking the {@link ReceiveGuard} before the driver acts on a SETUP,
 * DATA or PAD frame. RTTM frames pass as they are: the driver answers only those of an image it has. Its socket,
 * once open, is watched by the agent's {@link DatagramWait}.
 */
final class GuardedReceiveChannelEndpoint extends ReceiveChannelEndpoint {
    private final ReceiveGuard guard;
    private final CachedNanoClock receiverClock;
    private final DatagramWait datagramWait;

    GuardedReceiveChannelEndpoint(final UdpChannel udpChannel, final DataPacketDispatcher dispatcher,
        final AtomicCounter statusIndicator, final MediaDriver.Context context, final ReceiveGuard guard,
        final DatagramWait datagramWait) {
        super(udpChannel, dispatcher, statusIndicator, context);
        this.guard = guard;
        this.receiverClock = context.receiverCachedNanoClock();
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

    @Override
    public void onSetupMessage(final SetupFlyweight header, final UnsafeBuffer buffer, final int length,
        final InetSocketAddress srcAddress, final int transportIndex) {
        if (guard.admitSetup(header)) {
            super.onSetupMessage(header, buffer, length, srcAddress, transportIndex);
        }
    }

    @Override
    public int onDataPacket(final DataHeaderFlyweight header, final UnsafeBuffer buffer, final int length,
        final InetSocketAddress srcAddress, final int transportIndex) {
        if (guard.admitData(header, receiverClock.nanoTime())) {
            return super.onDataPacket(header, buffer, length, srcAddress, transportIndex);
        }
        return 0;
    }
}
