package org.divvy.sharing;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

import org.agrona.collections.IntArrayList;
import org.divvy.agent.MemberDirectory;

/**
 * Alive nodes known to hold a replica of an object held here: they sent writes to it, asked for it, or sent it. A fetch
 * asks them when the job's source is gone or does not answer. Bounded: objects held here only (the caller checks),
 * {@link #PER_OBJECT} nodes each, the dead forgotten when the member list changes. Agent thread.
 */
final class ReplicaHolders {
    /** Holders remembered per object: enough to ask a few others when the source fails; then any member is asked. */
    static final int PER_OBJECT = 8;

    private final MemberDirectory members;
    private final Map<Long, IntArrayList> holders = new HashMap<>();
    /** The member list's epoch the holders were last pruned at. */
    private int epoch;

    ReplicaHolders(final MemberDirectory members) {
        this.members = members;
    }

    /** Remembers {@code nodeId} as a holder of {@code objectId}, an object held or being fetched here. */
    void add(final long objectId, final int nodeId) {
        final IntArrayList nodes = holders.computeIfAbsent(objectId, k -> new IntArrayList(PER_OBJECT, -1));
        if (nodes.size() < PER_OBJECT && !nodes.containsInt(nodeId)) {
            nodes.addInt(nodeId);
        }
    }

    /** The known holders of {@code objectId}, or null. */
    IntArrayList of(final long objectId) {
        return holders.get(objectId);
    }

    /** Forgets the dead and the departed once the member list changed. */
    void onTick() {
        if (members.epoch() == epoch) {
            return;
        }
        epoch = members.epoch();
        for (final Iterator<IntArrayList> it = holders.values().iterator(); it.hasNext(); ) {
            final IntArrayList nodes = it.next();
            for (int i = nodes.size() - 1; i >= 0; i--) {
                if (members.aliveEndpoint(nodes.getInt(i)) == null) {
                    nodes.fastUnorderedRemove(i);
                }
            }
            if (nodes.isEmpty()) {
                it.remove();
            }
        }
    }

    /** Objects with a holder remembered. */
    int objectCount() {
        return holders.size();
    }
}
