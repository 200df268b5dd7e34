package org.divvy.agent;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TransportSettings;

/** One node stepped by the test thread: its agent, a worker proxy and a recording listener. */
final class TestNode implements AutoCloseable {
    static final long HEARTBEAT_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(50);
    static final long HEARTBEAT_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(1000);

    final RecordingListener listener = new RecordingListener();
    final NetworkAgent agent;
    final NetworkProxy proxy;
    boolean closed;

    TestNode(final String aeronDir, final String site, final String joinEndpoint, final long joinTimeoutNs, final int ringBytes) {
        final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(ringBytes + RingBufferDescriptor.TRAILER_LENGTH)));
        agent = new NetworkAgent(
            TransportSettings.builder().aeronDirectoryName(aeronDir).termLengthBytes(64 * 1024).build(),
            MembershipSettings.builder().site(site).joinEndpoint(joinEndpoint)
                .heartbeatIntervalNs(HEARTBEAT_INTERVAL_NS).heartbeatTimeoutNs(HEARTBEAT_TIMEOUT_NS)
                .joinTimeoutNs(joinTimeoutNs).joinRetryIntervalNs(TimeUnit.MILLISECONDS.toNanos(100)).build(),
            new SystemNanoClock(), ring, listener, Throwable::printStackTrace);
        proxy = new NetworkProxy(ring);
        agent.onStart();
    }

    TestNode(final String aeronDir, final String site, final String joinEndpoint) {
        this(aeronDir, site, joinEndpoint, TimeUnit.SECONDS.toNanos(10), 64 * 1024);
    }

    int doWork() {
        return closed ? 0 : agent.doWork();
    }

    int selfId() {
        return agent.membership().selfId();
    }

    /** A crash: the transport goes away without a LEAVE. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            agent.onClose();
        }
    }
}
