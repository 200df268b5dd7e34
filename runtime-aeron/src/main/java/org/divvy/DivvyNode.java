package org.divvy;

import java.util.Objects;

import org.divvy.scheduling.Scheduler;

/**
 * A running Divvy node: its worker threads (and later its network agent). Start one, run root tasks
 * on it one after another, close it.
 *
 * <pre>{@code
 * try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(4).build())) {
 *     RunResult<Long> r = node.run(() -> new Fib().fib(40));
 *     System.out.println(r.value() + "\n" + r.statistics());
 * }
 * }</pre>
 */
public final class DivvyNode implements AutoCloseable {
    private final NodeConfig config;
    private final Scheduler scheduler;

    private DivvyNode(final NodeConfig config) {
        this.config = config;
        // the identity hash only tells the threads of several nodes in one JVM apart
        this.scheduler = new Scheduler(config, "divvy-" + Integer.toHexString(System.identityHashCode(this)));
    }

    /** Starts a node with {@code config}: its workers are running (and idle) when this returns. */
    public static DivvyNode start(final NodeConfig config) {
        Objects.requireNonNull(config, "config");
        final DivvyNode node = new DivvyNode(config);
        node.scheduler.start();
        return node;
    }

    /**
     * Runs {@code task} as the root invocation on a worker thread and blocks until it completes; spawns
     * made inside it run on all workers. Returns the value, elapsed time and statistics. Rethrows the
     * root's exception: unchecked exceptions and errors as they are, checked ones wrapped in
     * {@link SpawnFailedException}. Runs on one node are serialised.
     */
    public <T> RunResult<T> run(final RootTask<T> task) {
        return scheduler.run(task);
    }

    /** The configuration this node runs with. */
    public NodeConfig config() {
        return config;
    }

    /** Stops the workers and waits for their threads to end. */
    @Override
    public void close() {
        scheduler.close();
    }
}
