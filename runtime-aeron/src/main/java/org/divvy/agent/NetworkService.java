package org.divvy.agent;

import java.util.concurrent.locks.LockSupport;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;
import org.divvy.transport.DatagramWait;

/**
 * Runs a {@link NetworkAgent} on its own thread with a {@link NodeIdleStrategy}: awake it parks at most
 * {@code maxParkNs} between duty cycles, so steal round trips stay fast while a computation runs; in
 * {@link DeepIdle deep idle} it parks {@code deepParkNs} per quiet cycle. Measured on the 2-core
 * development machine, two idle nodes as two processes: before deep idle the agent thread cost ~8.5% of a
 * core (1000 duty cycles/s, each stepping the embedded driver and client conductor, plus ~60 steal
 * requests/s); see perf/README.md (IdleCost) for the numbers after.
 *
 * <p>Created and closed by one thread (the node's owner).
 */
public final class NetworkService implements AutoCloseable {
    private final NetworkAgent agent;
    private final AgentRunner runner;
    private final NodeIdleStrategy idleStrategy;

    private NetworkService(final NetworkAgent agent, final NodeIdleStrategy idleStrategy, final ErrorHandler errorHandler) {
        this.agent = agent;
        this.runner = new AgentRunner(idleStrategy, errorHandler, null, agent);
        this.idleStrategy = idleStrategy;
    }

    /** Starts the agent's thread; the agent's {@code onStart} runs on it first. */
    public static NetworkService start(final NetworkAgent agent, final NodeIdleStrategy idleStrategy,
        final ErrorHandler errorHandler) {
        final NetworkService service = new NetworkService(agent, idleStrategy, errorHandler);
        AgentRunner.startOnThread(service.runner);
        return service;
    }

    /** The agent, for its counters; its state belongs to the agent thread. */
    public NetworkAgent agent() {
        return agent;
    }

    /**
     * Ends the agent thread's current idle park now (any thread): for a request that must not wait out
     * a deep-idle park, such as a run's start.
     */
    public void wake() {
        final DatagramWait datagramWait = idleStrategy.datagramWait();
        if (datagramWait != null) {
            datagramWait.wake();
        }
        final Thread thread = runner.thread();
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }

    /** Whether the agent thread is still running. */
    public boolean isRunning() {
        final Thread thread = runner.thread();
        return !runner.isClosed() && thread != null && thread.isAlive();
    }

    /**
     * Stops the agent thread, which closes the transport (the embedded driver deletes its directory).
     * Without a graceful leave before it, peers see a crash: they declare the node dead after the
     * heartbeat timeout. Idempotent.
     */
    @Override
    public void close() {
        idleStrategy.stopParking(); // then wake it: a deep-idle park (long with a datagram wait) would delay the stop
        wake();
        runner.close();
    }
}
