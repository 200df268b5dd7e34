package org.divvy.results;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.Members;
import org.divvy.scheduling.Scheduler;

/**
 * The parts of a one-worker node that the results mechanisms' close tests step by hand: members of site A, the off-heap
 * memory whose frames a close must give back, the codec thread and the scheduler. {@link #close} stops them as a node
 * does, the codec thread first.
 */
final class ClosingNodeParts implements AutoCloseable {
    final List<Throwable> errors = new CopyOnWriteArrayList<>();
    final Members members = new Members("A");
    final OffHeapMemory offHeap;
    final CodecThread codec;
    final Scheduler scheduler;

    /** Parts named after {@code name} (their threads' names). */
    ClosingNodeParts(final String name) {
        offHeap = new OffHeapMemory(name, errors::add);
        codec = new CodecThread(name + "-codec", errors::add);
        scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), name);
    }

    /** Makes this node {@code self} among alive members {@code ids} (itself included), each at a loopback endpoint. */
    void members(final int self, final int... ids) {
        members.selfId(self);
        for (final int id : ids) {
            members.update(new Member(id, "A", "127.0.0.1:" + (40_000 + id), MemberState.ALIVE));
        }
    }

    @Override
    public void close() {
        codec.close();
        scheduler.close();
        offHeap.close();
    }
}
