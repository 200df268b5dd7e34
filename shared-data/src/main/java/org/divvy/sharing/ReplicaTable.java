package org.divvy.sharing;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.SharedObjectType;
import org.divvy.codegen.SharedReplica;

/**
 * This node's replicas by id, as the job codecs see them: a shared object in a job given away is
 * attached (registered here, its writes shipped through this node's outbox); one in a job that arrived
 * resolves to the replica here, or to a new empty one that the agent fetches from the job's source
 * before the job runs (replication on demand, thesis §5.3: a node that joins later gets replicas this
 * way). Thread-safe: jobs are encoded and decoded on the agent thread and, when large, on the codec thread.
 */
final class ReplicaTable implements SharedObjectContext {
    private final ConcurrentHashMap<Long, ReplicaCore> replicas = new ConcurrentHashMap<>();
    /** Replicas whose state must be fetched, for the agent; filled by any thread. */
    private final ConcurrentLinkedQueue<ReplicaCore> toFetch = new ConcurrentLinkedQueue<>();
    private final WriteOutbox outbox;
    private final Runnable wakeAgent;

    ReplicaTable(final WriteOutbox outbox, final Runnable wakeAgent) {
        this.outbox = outbox;
        this.wakeAgent = wakeAgent;
    }

    @Override
    public void attach(final ReplicaCore core) {
        replicas.putIfAbsent(core.id(), core);
        if (core.sink() == null) {
            core.attach(outbox);
        }
    }

    @Override
    public Object resolve(final long id, final SharedObjectType<?> type, final int sourceNodeId) {
        final ReplicaCore known = replicas.get(id);
        if (known != null) {
            known.sourceNodeId(sourceNodeId);
            return known.replica();
        }
        final Object replica = type.newReplica();
        final ReplicaCore core = ((SharedReplica)replica).divvyReplica();
        core.assignId(id);
        core.awaitingState(true);
        core.sourceNodeId(sourceNodeId);
        core.attach(outbox);
        final ReplicaCore raced = replicas.putIfAbsent(id, core);
        if (raced != null) {
            raced.sourceNodeId(sourceNodeId);
            return raced.replica();
        }
        fetch(core);
        return replica;
    }

    /** Asks the agent to fetch {@code core}'s state from its source (first use, or a guard that failed). */
    void fetch(final ReplicaCore core) {
        core.awaitingState(true);
        toFetch.add(core);
        wakeAgent.run();
    }

    ReplicaCore get(final long id) {
        return replicas.get(id);
    }

    /** Agent: the next replica to fetch, or null. */
    ReplicaCore pollFetch() {
        return toFetch.poll();
    }

    boolean hasFetchesQueued() {
        return !toFetch.isEmpty();
    }

    int size() {
        return replicas.size();
    }
}
