package org.divvy.agent;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.divvy.DivvyException;
import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TransportSettings;

/**
 * Runs a {@link NetworkAgent} on its own thread with a {@link NodeIdleStrategy}: awake it parks up to
 * {@link #DEFAULT_MAX_PARK_NS} (1 ms) between duty cycles, so steal round trips stay fast while a
 * computation runs; after {@link #DEFAULT_DEEP_IDLE_AFTER_NS} with nothing to do it enters
 * {@link DeepIdle deep idle} and parks {@link #DEFAULT_DEEP_IDLE_PARK_NS} (100 ms) per cycle. Measured on
 * the 2-core development machine, two idle nodes as two processes: before deep idle the agent thread
 * cost ~8.5% of a core (1000 duty cycles/s, each stepping the embedded driver and client conductor, plus
 * ~60 steal requests/s); see perf/README.md (IdleCost) for the numbers after. Hands out
 * {@link NetworkProxy}s to workers.
 * {@link #close()} leaves gracefully, waits briefly for the LEAVE to go out, stops the thread, and
 * closes the transport (the embedded driver deletes its directory).
 *
 * <p>Created and closed by one thread; proxies belong to the workers that asked for them.
 */
public final class NetworkService implements AutoCloseable {
    /** Command ring capacity by default: 4 MiB, so one command (a stolen job) may be up to 512 KiB. */
    public static final int DEFAULT_COMMAND_RING_BYTES = 4 * 1024 * 1024;
    /** Longest park between duty cycles while awake (1 ms): a steal request waits at most this for the agent. */
    public static final long DEFAULT_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Quiet time before deep idle starts (1 s): longer than any pause between phases of one computation. */
    public static final long DEFAULT_DEEP_IDLE_AFTER_NS = TimeUnit.SECONDS.toNanos(1);
    /**
     * Park per duty cycle in deep idle (100 ms, the default heartbeat interval): 10 cycles/s; heartbeats
     * (2 s timeout) go out at most one interval late. The cost is the wake-ups, not the traffic: on the loaded
     * 2-core development machine one deep cycle (wake, driver, client conductor, 3 socket calls) costs
     * ~0.2-0.4 ms of CPU; the agent thread measured ~0.9% of a core with 20 ms parks, ~0.55% with 50 ms,
     * ~0.4% with 100 ms.
     */
    public static final long DEFAULT_DEEP_IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long LEAVE_FLUSH_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final ManyToOneRingBuffer commands;
    private final NetworkAgent agent;
    private final AgentRunner runner;
    private final NetworkProxy closingProxy;
    private final int maxMessageBytes;

    private NetworkService(
        final TransportSettings transportSettings, final MembershipSettings membershipSettings,
        final int commandRingBytes, final RemoteWorkListener listener, final ErrorHandler errorHandler,
        final long deepIdleAfterNs, final long deepIdleParkNs) {
        if (commandRingBytes < 64 * 1024 || Integer.bitCount(commandRingBytes) != 1) {
            throw new DivvyException("commandRingBytes=" + commandRingBytes + ", must be a power of two >= 65536");
        }
        commands = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(commandRingBytes + RingBufferDescriptor.TRAILER_LENGTH)));
        final DeepIdle deepIdle = new DeepIdle(deepIdleAfterNs);
        final NodeIdleStrategy idleStrategy = new NodeIdleStrategy(deepIdle, DEFAULT_MAX_PARK_NS, deepIdleParkNs);
        agent = new NetworkAgent(
            transportSettings, membershipSettings, new SystemNanoClock(), commands, listener, errorHandler, deepIdle);
        runner = new AgentRunner(idleStrategy, errorHandler, null, agent);
        closingProxy = new NetworkProxy(commands);
        maxMessageBytes = transportSettings.maxMessageBytes();
    }

    /** Starts the transport and the agent thread; the node starts joining at once. */
    public static NetworkService start(
        final TransportSettings transportSettings, final MembershipSettings membershipSettings,
        final int commandRingBytes, final RemoteWorkListener listener, final ErrorHandler errorHandler) {
        return start(transportSettings, membershipSettings, commandRingBytes, listener, errorHandler,
            DEFAULT_DEEP_IDLE_AFTER_NS, DEFAULT_DEEP_IDLE_PARK_NS);
    }

    /**
     * As above, with the deep idle timings: quiet time before deep idle ({@code >= 1}) and the park per
     * duty cycle in it ({@code >= } {@link #DEFAULT_MAX_PARK_NS}).
     */
    public static NetworkService start(
        final TransportSettings transportSettings, final MembershipSettings membershipSettings,
        final int commandRingBytes, final RemoteWorkListener listener, final ErrorHandler errorHandler,
        final long deepIdleAfterNs, final long deepIdleParkNs) {
        final NetworkService service = new NetworkService(transportSettings, membershipSettings, commandRingBytes,
            listener, errorHandler, deepIdleAfterNs, deepIdleParkNs);
        AgentRunner.startOnThread(service.runner);
        return service;
    }

    /** A proxy for one worker thread. */
    public NetworkProxy newProxy() {
        return new NetworkProxy(commands);
    }

    /**
     * A proxy for use on the agent thread only (inside {@link RemoteWorkListener} calls): it hands each
     * frame to the agent at once, so frames up to the transport's largest message fit.
     */
    public NetworkProxy newAgentThreadProxy() {
        return new NetworkProxy(agent, maxMessageBytes);
    }

    /** The agent, for its counters and endpoint; its state belongs to the agent thread. */
    public NetworkAgent agent() {
        return agent;
    }

    /**
     * Ends the agent thread's current idle park now (any thread): for a request that must not wait out
     * a deep-idle park of up to {@link #DEFAULT_DEEP_IDLE_PARK_NS}, such as a run's start.
     */
    public void wakeAgent() {
        final Thread thread = runner.thread();
        if (thread != null) {
            java.util.concurrent.locks.LockSupport.unpark(thread);
        }
    }

    /** Whether the agent thread is still running. */
    public boolean isRunning() {
        return !runner.isClosed() && runner.thread() != null && runner.thread().isAlive();
    }

    /** Leaves gracefully (bounded wait), then stops the agent thread and closes the transport. */
    @Override
    public void close() {
        if (runner.isClosed()) {
            return;
        }
        final long deadlineNs = System.nanoTime() + LEAVE_FLUSH_NS;
        boolean requested = closingProxy.leave();
        while (!agent.hasLeft() && System.nanoTime() - deadlineNs < 0) {
            if (!requested) {
                requested = closingProxy.leave();
            }
            parkBriefly();
        }
        // Give the driver a few duty cycles to put the LEAVE on the wire before it shuts down.
        final long flushUntilNs = System.nanoTime() + LEAVE_FLUSH_NS / 4;
        while (System.nanoTime() - flushUntilNs < 0) {
            parkBriefly();
        }
        runner.close();
    }

    /**
     * Stops the agent thread and closes the transport without leaving: to peers this node crashed
     * (they declare it dead after the heartbeat timeout). For tests of failure handling.
     */
    public void crash() {
        runner.close();
    }

    private static void parkBriefly() {
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
}
