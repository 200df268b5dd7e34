package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.FrameCounters;
import org.junit.jupiter.api.Test;

/**
 * The reassembler gives a large message's buffer to another thread to allocate, keeps its first chunk waiting
 * meanwhile (with its room under the bound taken), and then only copies each chunk's payload: the agent thread
 * never allocates (or zeroes) a large message's bytes itself.
 */
class ReassemblerTest {
    private static final int CHUNK_PAYLOAD = 64 * 1024;
    private static final int SESSION = 7;

    private final FrameCounters counters = new FrameCounters();
    private final List<Throwable> errors = new ArrayList<>();
    /** Allocation tasks given, run when the test says. */
    private final List<Runnable> allocations = new ArrayList<>();
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[ChunkFlyweight.PAYLOAD_OFFSET + CHUNK_PAYLOAD]);
    private final ChunkFlyweight chunk = new ChunkFlyweight();

    private static byte pattern(final long position) {
        return (byte)(position * 31 + (position >>> 13));
    }

    /** Builds chunk {@code index} of a message of {@code total} bytes (id {@code messageId}); returns its frame length. */
    private int chunkFrame(final int messageId, final int index, final int total) {
        final int count = (total + CHUNK_PAYLOAD - 1) / CHUNK_PAYLOAD;
        final int at = index * CHUNK_PAYLOAD;
        final int payload = Math.min(CHUNK_PAYLOAD, total - at);
        chunk.wrap(frame, 0, frame.capacity());
        chunk.headerDefaults(ChunkFlyweight.TYPE).frameLength(ChunkFlyweight.PAYLOAD_OFFSET + payload);
        chunk.messageId(messageId).chunkIndex(index).chunkCount(count).totalLength(total);
        for (int i = 0; i < payload; i++) {
            frame.putByte(ChunkFlyweight.PAYLOAD_OFFSET + i, pattern(at + i));
        }
        return ChunkFlyweight.PAYLOAD_OFFSET + payload;
    }

    private UnsafeBuffer offer(final Reassembler r, final int session, final int messageId, final int index, final int total) {
        return r.onChunk(session, frame, 0, chunkFrame(messageId, index, total));
    }

    private static void assertPattern(final UnsafeBuffer whole, final int total) {
        assertEquals(total, whole.capacity());
        for (int i = 0; i < total; i++) {
            if (whole.getByte(i) != pattern(i)) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void a200MbMessageIsReassembledWithoutItsBufferAllocatedOnTheCallingThread() throws Exception {
        final int total = 200_000_000;
        try (TaskThread allocator = new TaskThread(() -> "test-alloc", errors::add)) {
            final Reassembler r = new Reassembler(1L << 30, counters, errors::add, allocator, senderId -> { });
            final int count = (total + CHUNK_PAYLOAD - 1) / CHUNK_PAYLOAD;
            offer(r, SESSION, 1, 0, CHUNK_PAYLOAD); // warm up the paths (a 64 KiB message, allocated inline)
            final long before = allocatedByThisThread();
            int waits = 0;
            UnsafeBuffer result = offer(r, SESSION, 2, 0, total);
            while (result == Reassembler.LATER) { // the allocator thread is zeroing 200 MB meanwhile
                waits++;
                assertEquals(total, r.bytesInUse(), "its room is taken while it waits");
                Thread.sleep(1);
                result = offer(r, SESSION, 2, 0, total);
            }
            assertNull(result);
            for (int i = 1; i < count - 1; i++) {
                assertNull(offer(r, SESSION, 2, i, total));
            }
            final UnsafeBuffer whole = offer(r, SESSION, 2, count - 1, total);
            final long allocated = allocatedByThisThread() - before;
            assertNotNull(whole);
            assertTrue(waits > 0, "the first chunk waited for its buffer");
            assertTrue(allocated < 4 * 1024 * 1024, "the calling thread allocated " + allocated + " bytes for a " +
                total + "-byte message");
            assertPattern(whole, total);
            assertEquals(0, r.bytesInUse());
            assertEquals(0, counters.badChunk.get());
            assertTrue(errors.isEmpty(), errors::toString);
        }
    }

    @Test
    void aMessageUpToTheInlineBoundIsAllocatedAtOnce() {
        final Reassembler r = new Reassembler(1L << 30, counters, errors::add, allocations::add, senderId -> { });
        final int total = Reassembler.INLINE_ALLOCATION_BYTES;
        final int count = total / CHUNK_PAYLOAD;
        for (int i = 0; i < count - 1; i++) {
            assertNull(offer(r, SESSION, 1, i, total));
        }
        assertPattern(offer(r, SESSION, 1, count - 1, total), total);
        assertTrue(allocations.isEmpty());
    }

    @Test
    void aBufferBeingAllocatedHoldsItsRoomUnderTheBound() {
        final int total = 2 * 1024 * 1024;
        final Reassembler r = new Reassembler(3 * 1024 * 1024, counters, errors::add, allocations::add, senderId -> { });
        assertSame(Reassembler.LATER, offer(r, 1, 1, 0, total));
        assertEquals(1, allocations.size());
        assertSame(Reassembler.LATER, offer(r, 1, 1, 0, total), "not allocated yet: the first chunk waits");
        assertSame(Reassembler.LATER, offer(r, 2, 1, 0, total), "another stream's message has no room");
        assertEquals(1, allocations.size(), "and no allocation is asked for it");

        allocations.remove(0).run();
        final int count = total / CHUNK_PAYLOAD;
        for (int i = 0; i < count - 1; i++) {
            assertNull(offer(r, 1, 1, i, total));
        }
        assertPattern(offer(r, 1, 1, count - 1, total), total);
        assertEquals(0, r.bytesInUse());

        assertSame(Reassembler.LATER, offer(r, 2, 1, 0, total), "room now: its allocation is asked for");
        assertEquals(1, allocations.size());
        assertEquals(0, counters.badChunk.get());
    }

    @Test
    void aStreamThatGoesAwayWhileItsBufferIsAllocatedGivesItsRoomBackOnceTheBufferIsMade() {
        final int total = 2 * 1024 * 1024;
        final Reassembler r = new Reassembler(3 * 1024 * 1024, counters, errors::add, allocations::add, senderId -> { });
        assertSame(Reassembler.LATER, offer(r, SESSION, 1, 0, total));
        assertEquals(total, r.bytesInUse());
        r.onStreamClosed(SESSION);
        assertEquals(1, counters.badChunk.get());
        assertEquals(1, errors.size());
        // the allocator is still making its 2 MiB: on the heap all the same, so its room is still taken
        assertEquals(total, r.bytesInUse());
        assertSame(Reassembler.LATER, offer(r, 2, 1, 0, total), "no room for another 2 MiB under the 3 MiB bound yet");
        assertEquals(1, allocations.size(), "and no allocation is asked for it");

        allocations.remove(0).run(); // the late buffer is garbage now
        assertSame(Reassembler.LATER, offer(r, 2, 1, 0, total), "room now: its allocation is asked for");
        assertEquals(total, r.bytesInUse(), "only the new message's room");
        assertEquals(1, allocations.size());
        allocations.remove(0).run();
        final int count = total / CHUNK_PAYLOAD;
        for (int i = 0; i < count - 1; i++) {
            assertNull(offer(r, 2, 1, i, total));
        }
        assertPattern(offer(r, 2, 1, count - 1, total), total);
        assertEquals(0, r.bytesInUse());
    }
}
