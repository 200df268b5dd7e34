package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.divvy.DivvyNode;
import org.divvy.Spawn;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(20)
class StampTest {
    @Test
    void shouldPrintIndicesAndRoot() {
        assertEquals("root", Stamp.ROOT.toString());
        assertEquals("0.2.1", Stamp.ROOT.child(0).child(2).child(1).toString());
        assertEquals("300.70000.2147483647", Stamp.ROOT.child(300).child(70000).child(Integer.MAX_VALUE).toString());
        assertEquals(3, Stamp.ROOT.child(300).child(0).child(5).depth());
    }

    /** Result copies' keeper drops a subtree by walking the stamps after its root in this order (multi-byte indices too). */
    @Test
    void shouldKnowItsAncestorsAndKeepEachSubtreeContiguousInEncodedOrder() {
        final Stamp a = Stamp.ROOT.child(300).child(5);
        assertTrue(a.isAncestorOrSelf(a) && a.isAncestorOrSelf(a.child(0).child(200)) && Stamp.ROOT.isAncestorOrSelf(a));
        assertTrue(!a.child(0).isAncestorOrSelf(a) && !Stamp.ROOT.child(3).isAncestorOrSelf(Stamp.ROOT.child(300)));
        final List<Stamp> stamps = new ArrayList<>(List.of(Stamp.ROOT.child(300), a.child(200), Stamp.ROOT.child(301), a,
            Stamp.ROOT.child(300).child(4).child(1), a.child(1).child(128), Stamp.ROOT.child(2), a.child(127)));
        stamps.sort(Stamp.ENCODED_ORDER);
        final int first = stamps.indexOf(a);
        for (int i = 0; i < stamps.size(); i++) {
            final boolean inSubtree = a.isAncestorOrSelf(stamps.get(i));
            assertEquals(inSubtree, i >= first && i < first + 4, stamps + ": " + a + "'s subtree, contiguous from it");
        }
    }

    @Test
    void shouldRoundTripThroughBytes() {
        final Stamp stamp = Stamp.ROOT.child(0).child(128).child(Integer.MAX_VALUE).child(7);
        assertEquals(stamp, Stamp.fromByteArray(stamp.toByteArray()));
        assertEquals(0, Stamp.ROOT.toByteArray().length);
        assertSame(Stamp.ROOT, Stamp.fromByteArray(new byte[0]));
    }

    @Test
    void shouldRejectMalformedStampBytes() {
        final IllegalArgumentException endsInside = assertThrows(IllegalArgumentException.class,
            () -> Stamp.fromByteArray(new byte[] {(byte)0x81, (byte)0x82}));
        assertEquals("stamp ends inside a child index", endsInside.getMessage());
        final IllegalArgumentException tooWide = assertThrows(IllegalArgumentException.class,
            () -> Stamp.fromByteArray(new byte[] {(byte)0xFF, (byte)0xFF, (byte)0xFF, (byte)0xFF, (byte)0xFF, 0x01}));
        assertEquals("stamp has a child index wider than 31 bits", tooWide.getMessage());
    }

    @Test
    void shouldOrderDepthFirstAndCompareByValue() {
        final Stamp a = Stamp.ROOT.child(0);
        final Stamp b = Stamp.ROOT.child(0).child(5);
        final Stamp c = Stamp.ROOT.child(1);
        final Stamp d = Stamp.ROOT.child(200);
        assertTrue(Stamp.ROOT.compareTo(a) < 0);
        assertTrue(a.compareTo(b) < 0);
        assertTrue(b.compareTo(c) < 0);
        assertTrue(c.compareTo(d) < 0);
        assertEquals(Stamp.ROOT.child(0).child(5), b);
        assertEquals(Stamp.ROOT.child(0).child(5).hashCode(), b.hashCode());
        assertNotEquals(a, b);
    }

    @Test
    void shouldDeriveSameStampsInEveryRun() {
        final List<Stamp> first = leafStamps(2);
        final List<Stamp> second = leafStamps(2);
        final List<Stamp> sequential = leafStamps(1);
        assertEquals(Fib.fibSequential(15 + 1), first.size(), "one leaf per fib(1) and fib(0) call");
        assertEquals(first, second);
        assertEquals(first, sequential);
        assertEquals(first.size(), first.stream().distinct().count(), "stamps are unique");
    }

    @Test
    void shouldKeepTheLaterChildrensStampsWhenASpawnIsSkipped() {
        final ConcurrentLinkedQueue<Stamp> stamps = new ConcurrentLinkedQueue<>();
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final long sum = node.run(() -> {
                final Spawn<Long> first = TaskJob.spawn("child", () -> recordStamp(stamps, 1));
                CurrentFrame.skipSpawn(); // a pruned child: its index is taken, and sync waits for nothing there
                final Spawn<Long> third = TaskJob.spawn("child", () -> recordStamp(stamps, 3));
                CurrentFrame.skipSpawn();
                CurrentFrame.skipSpawn();
                final Spawn<Long> sixth = TaskJob.spawn("child", () -> recordStamp(stamps, 6));
                Spawns.sync();
                return first.get() + third.get() + sixth.get();
            }).value();
            assertEquals(10, sum);
            // a job whose only "children" were skipped ends without a sync, and its parent's sync returns
            assertEquals(0L, node.run(() -> {
                final Spawn<Long> onlySkips = TaskJob.spawn("skipper", () -> {
                    CurrentFrame.skipSpawn();
                    CurrentFrame.skipSpawn();
                    return 0L;
                });
                Spawns.sync();
                return onlySkips.get();
            }).value());
        }
        final List<Stamp> sorted = new ArrayList<>(stamps);
        Collections.sort(sorted);
        assertEquals(List.of(Stamp.ROOT.child(0), Stamp.ROOT.child(2), Stamp.ROOT.child(5)), sorted,
            "each child keeps the index it has when every spawn is made");
    }

    private static long recordStamp(final ConcurrentLinkedQueue<Stamp> stamps, final long value) {
        stamps.add(((Worker)Thread.currentThread()).current.stamp());
        return value;
    }

    /** Stamps of every leaf of a fib(15) tree, sorted. */
    private static List<Stamp> leafStamps(final int workers) {
        final ConcurrentLinkedQueue<Stamp> stamps = new ConcurrentLinkedQueue<>();
        try (DivvyNode node = SpawnSyncTest.node(workers)) {
            node.run(() -> {
                fibRecordingLeaves(15, stamps);
                return null;
            });
        }
        final List<Stamp> sorted = new ArrayList<>(stamps);
        Collections.sort(sorted);
        return sorted;
    }

    private static long fibRecordingLeaves(final int n, final ConcurrentLinkedQueue<Stamp> stamps) {
        final Task self = ((Worker)Thread.currentThread()).current;
        if (n < 2) {
            stamps.add(self.stamp());
            return n;
        }
        final Spawn<Long> a = TaskJob.spawn("fib", () -> fibRecordingLeaves(n - 1, stamps));
        final Spawn<Long> b = TaskJob.spawn("fib", () -> fibRecordingLeaves(n - 2, stamps));
        Spawns.sync();
        return a.get() + b.get();
    }
}
