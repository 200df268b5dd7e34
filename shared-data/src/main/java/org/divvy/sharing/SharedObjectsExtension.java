package org.divvy.sharing;

import java.util.concurrent.TimeUnit;

import org.divvy.NodeConfig;
import org.divvy.extension.ExtensionContext;
import org.divvy.extension.NodeExtension;

/**
 * The shared-data module on one node: assembled when the node's network half is (found with
 * {@code ServiceLoader}), it registers the shared-object message types, adds its duty to the agent,
 * installs the safe points and the guard check in the scheduler and resolves shared objects in jobs.
 * {@code NetworkNode.extension(SharedObjectsExtension.class)} reaches it (statistics, tests).
 */
public final class SharedObjectsExtension implements NodeExtension {
    /** How long a job waits for a replica's state before it runs on what is there, in fetch timeouts. */
    private static final int REPLICA_WAIT_TIMEOUTS = 5;

    private final SharingStatistics statistics = new SharingStatistics();
    private SharingAgent agent;
    private ReplicaTable replicas;

    /** For {@code ServiceLoader}: a new instance per node. */
    public SharedObjectsExtension() {
    }

    @Override
    public void install(final ExtensionContext context) {
        final NodeConfig config = context.config();
        final WriteOutbox outbox = new WriteOutbox(statistics, context::wakeAgent);
        replicas = new ReplicaTable(outbox, context::wakeAgent);
        final SafePoints safePoints = new SafePoints(replicas, statistics, context.errorHandler(),
            TimeUnit.MILLISECONDS.toNanos(config.guardWaitMs()), config.guardFetch(),
            TimeUnit.MILLISECONDS.toNanos(Math.max(10_000, REPLICA_WAIT_TIMEOUTS * config.replicaFetchTimeoutMs())),
            config.maxSharedInboxBytes(), context::wakeIdleWorker);
        agent = new SharingAgent(context, replicas, outbox, safePoints, statistics);
        agent.register(context);
        context.duty(agent);
        context.sharingHook(safePoints);
        context.sharedObjects(replicas);
        context.quiescentWhen(() -> outbox.isEmpty() && agent.isIdle());
    }

    /** This node's counters since it started; any thread. */
    public SharingStatistics sharingStatistics() {
        return statistics;
    }

    /** How many shared objects this node holds a replica of (its own included, once sent). */
    public int replicaCount() {
        return replicas.size();
    }

    /**
     * This node's replica of the shared object {@code object} is a replica of (found by id), or null when this
     * node has none: how a test or a tool reads what another node's replica holds.
     */
    @SuppressWarnings("unchecked")
    public <T> T replicaOf(final T object) {
        final org.divvy.codegen.ReplicaCore core = replicas.get(((org.divvy.codegen.SharedReplica)object).divvyReplica().id());
        return core == null ? null : (T)core.replica();
    }

    /** Tests: the next {@code count} SO_UPDATE messages that arrive are dropped, as if lost (guard consistency repairs it). */
    public void dropNextUpdates(final int count) {
        agent.dropNextUpdates(count);
    }

    @Override
    public String statistics() {
        return statistics.writes() + statistics.writesReceived() + statistics.replicaFetches() + statistics.replicasServed() == 0
            ? "" : statistics.toString();
    }
}
