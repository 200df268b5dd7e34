package org.divvy.perf.lanwan;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.stealing.StealRequestFlyweight;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;

/**
 * Raw Aeron ping-pong with the settings a Divvy node uses: an embedded media driver in INVOKER mode and
 * a client conductor invoked from one agent thread with the network agent's idle strategy, messages the
 * size of a steal request. The pinger records round trips; the echoer sends every message back.
 */
final class RawPingPong implements Agent, FragmentHandler, AutoCloseable {
    /** Same as the network agent's idle strategy while awake ({@code org.divvy.agent.NodeIdleStrategy}: spin 10, yield 10, park 1 µs doubling to 1 ms). */
    static BackoffIdleStrategy nodeIdleStrategy() {
        return new BackoffIdleStrategy(10, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
    }

    static final int MESSAGE_BYTES = StealRequestFlyweight.FRAME_LENGTH;
    private static final int STREAM_ID = 0xD2;
    /**
     * A ping without a reply after this long is given up and sent again (not recorded): the echoer drops a
     * reply while its publication back is not connected yet, which happens at start-up.
     */
    private static final long RESEND_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final boolean pinger;
    private final MediaDriver driver;
    private final Aeron aeron;
    private final Subscription subscription;
    private final ExclusivePublication publication;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_BYTES));
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private final AgentRunner runner;
    private volatile int warmup;
    private volatile int target;
    private volatile int completed;
    private volatile long resends;
    private boolean outstanding;
    private long sentNs;

    /** {@code termLengthBytes}: the Divvy node's, so both sides buffer alike. */
    RawPingPong(final String ownEndpoint, final String peerEndpoint, final boolean pinger, final int termLengthBytes) {
        this.pinger = pinger;
        final MediaDriver.Context driverContext = new MediaDriver.Context().threadingMode(ThreadingMode.INVOKER)
            .dirDeleteOnStart(true).dirDeleteOnShutdown(true)
            .publicationTermBufferLength(termLengthBytes).ipcTermBufferLength(termLengthBytes);
        driver = MediaDriver.launchEmbedded(driverContext);
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())
            .useConductorAgentInvoker(true).driverAgentInvoker(driver.sharedAgentInvoker()));
        subscription = aeron.addSubscription("aeron:udp?endpoint=" + ownEndpoint, STREAM_ID);
        publication = aeron.addExclusivePublication("aeron:udp?endpoint=" + peerEndpoint + "|term-length=" + termLengthBytes, STREAM_ID);
        runner = new AgentRunner(nodeIdleStrategy(), Throwable::printStackTrace, null, this);
        AgentRunner.startOnThread(runner);
    }

    /** The first {@code count} round trips are not recorded. Call before the first block. */
    void warmup(final int count) {
        warmup = count;
    }

    /** Pinger: runs {@code count} more round trips and blocks until they are done or the deadline passes. */
    void runBlock(final int count, final long timeoutMs) {
        final int goal = completed + count;
        target = goal;
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (completed < goal) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("raw ping-pong: " + completed + " of " + goal +
                    " round trips within " + timeoutMs + " ms (publication connected: " + publication.isConnected() + ")");
            }
            sleepMs(1);
        }
    }

    /** Pings given up after {@link #RESEND_AFTER_NS} without a reply and sent again. */
    long resends() {
        return resends;
    }

    /** Read between blocks only. */
    Histogram histogram() {
        return histogram;
    }

    @Override
    public int doWork() {
        int work = driver.sharedAgentInvoker().invoke();
        work += aeron.conductorAgentInvoker().invoke();
        work += subscription.poll(this, 16);
        if (pinger && outstanding && System.nanoTime() - sentNs > RESEND_AFTER_NS) {
            outstanding = false;
            resends++;
        }
        // Both directions connected (our subscription has the echoer's image) before the first ping.
        if (pinger && !outstanding && completed < target && publication.isConnected() && subscription.imageCount() > 0) {
            sentNs = System.nanoTime();
            message.putLong(0, sentNs);
            if (publication.offer(message, 0, MESSAGE_BYTES) > 0) {
                outstanding = true;
                work++;
            }
        }
        return work;
    }

    @Override
    public void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
        if (!pinger) {
            while (publication.offer(buffer, offset, length) < 0 && publication.isConnected()) {
                aeron.conductorAgentInvoker().invoke();
                driver.sharedAgentInvoker().invoke();
            }
            return;
        }
        if (outstanding && buffer.getLong(offset) == sentNs) {
            final long rttNs = System.nanoTime() - sentNs;
            outstanding = false;
            if (completed >= warmup) {
                histogram.recordValue(rttNs);
            }
            completed++;
        }
    }

    @Override
    public String roleName() {
        return pinger ? "raw-ping" : "raw-echo";
    }

    @Override
    public void close() {
        CloseHelper.quietCloseAll(runner, aeron, driver);
    }

    static void sleepMs(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
