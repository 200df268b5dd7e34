package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.protocol.FrameCounters;
import org.divvy.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reassembler puts a large message in off-heap memory ({@link OffHeapMemory}: malloc'd, never zeroed by the JVM)
 * as its first chunk arrives, copies each chunk's payload, and hands the whole message over with its one reference;
 * a message dropped on the way is freed at once. The calling thread allocates nothing on the heap for it.
 */
class ReassemblerTest {
    private static final int CHUNK_PAYLOAD = 64 * 1024;
    private static final int SESSION = 7;

    private final FrameCounters counters = new FrameCounters();
    private final List<Throwable> errors = new ArrayList<>();
    private final List<Integer> cutOff = new ArrayList<>();
    private final OffHeapMemory memory = new OffHeapMemory("test", errors::add);
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[ChunkFlyweight.PAYLOAD_OFFSET + CHUNK_PAYLOAD]);
    private final ChunkFlyweight chunk = new ChunkFlyweight();

    @AfterEach
    void closeMemory() {
        memory.close();
    }

    private static byte pattern(final long position) {
        return (byte)(position * 31 + (position >>> 13));
    }

    /** Builds chunk {@code index} of a message of {@code total} bytes (id {@code messageId}); returns its frame length. */
    private int chunkFrame(final int messageId, final int index, final int total) {
        final int count = (total + CHUNK_PAYLOAD - 1) / CHUNK_PAYLOAD;
        final int at = index * CHUNK_PAYLOAD;
        final int payload = Math.min(CHUNK_PAYLOAD, total - at);
        chunk.wrap(frame, 0, frame.capacity());
        chunk.headerDefaults(ChunkFlyweight.TYPE).senderId(3).frameLength(ChunkFlyweight.PAYLOAD_OFFSET + payload);
        chunk.messageId(messageId).chunkIndex(index).chunkCount(count).totalLength(total);
        for (int i = 0; i < payload; i++) {
            frame.putByte(ChunkFlyweight.PAYLOAD_OFFSET + i, pattern(at + i));
        }
        return ChunkFlyweight.PAYLOAD_OFFSET + payload;
    }

    private UnsafeBuffer offer(final Reassembler r, final int session, final int messageId, final int index, final int total) {
        return r.onChunk(session, frame, 0, chunkFrame(messageId, index, total));
    }

    private Reassembler reassembler(final long maxReassemblyBytes) {
        return new Reassembler(maxReassemblyBytes, counters, errors::add, memory, cutOff::add);
    }

    /** Offers all chunks of a message but the last; returns what the last one gives. */
    private UnsafeBuffer offerAll(final Reassembler r, final int session, final int messageId, final int total) {
        final int count = (total + CHUNK_PAYLOAD - 1) / CHUNK_PAYLOAD;
        for (int i = 0; i < count - 1; i++) {
            assertNull(offer(r, session, messageId, i, total));
        }
        return offer(r, session, messageId, count - 1, total);
    }

    private static void assertPattern(final UnsafeBuffer whole, final int total) {
        assertEquals(total, whole.capacity());
        for (int i = 0; i < total; i++) {
            if (whole.getByte(i) != pattern(i)) {
                throw new AssertionError("byte " + i + " differs");
            }
        }
    }

    /** Frees above 1 MiB happen on the memory's own thread. */
    private void awaitLiveBytes(final long expected, final String what) {
        Await.within(Duration.ofSeconds(10)).until(() -> memory.liveBytes() == expected, () -> what + ": live bytes " +
            memory.liveBytes() + ", expected " + expected);
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    void a200MbMessageIsReassembledOffTheHeapAndFreedWhenItsReferenceIsGivenBack() {
        final int total = 200_000_000;
        final Reassembler r = reassembler(1L << 30);
        final UnsafeBuffer warm = offerAll(r, SESSION, 1, CHUNK_PAYLOAD + 1); // warm up the paths
        ((OffHeapFrame)warm).release();
        final long before = allocatedByThisThread();
        assertNull(offer(r, SESSION, 2, 0, total), "its buffer is there at once: nobody zeroes it");
        assertEquals(total, r.bytesInUse());
        final int count = (total + CHUNK_PAYLOAD - 1) / CHUNK_PAYLOAD;
        for (int i = 1; i < count - 1; i++) {
            assertNull(offer(r, SESSION, 2, i, total));
        }
        final UnsafeBuffer whole = offer(r, SESSION, 2, count - 1, total);
        final long allocated = allocatedByThisThread() - before;
        assertInstanceOf(OffHeapFrame.class, whole);
        assertTrue(allocated < 4 * 1024 * 1024, "the calling thread allocated " + allocated + " heap bytes for a " +
            total + "-byte message");
        assertPattern(whole, total);
        assertEquals(0, r.bytesInUse());
        assertEquals(total, memory.liveBytes(), "the caller holds it");
        ((OffHeapFrame)whole).release();
        awaitLiveBytes(0, "the message is freed");
        assertEquals(0, counters.badChunk.get());
        assertTrue(errors.isEmpty(), errors::toString);
    }

    @Test
    void aFirstChunkWithoutRoomUnderTheBoundWaitsAndAllocatesNothing() {
        final int total = 2 * 1024 * 1024;
        final Reassembler r = reassembler(3 * 1024 * 1024);
        assertNull(offer(r, 1, 1, 0, total));
        assertSame(Reassembler.LATER, offer(r, 2, 1, 0, total), "another stream's message has no room");
        assertEquals(total, memory.liveBytes(), "and nothing is allocated for it");
        final int count = total / CHUNK_PAYLOAD;
        for (int i = 1; i < count - 1; i++) {
            assertNull(offer(r, 1, 1, i, total));
        }
        final UnsafeBuffer whole = offer(r, 1, 1, count - 1, total);
        assertPattern(whole, total);
        assertEquals(0, r.bytesInUse());
        assertNull(offer(r, 2, 1, 0, total), "room now");
        ((OffHeapFrame)whole).release();
        awaitLiveBytes(total, "only the second message's buffer");
        assertEquals(0, counters.badChunk.get());
    }

    @Test
    void aMessageWhoseStreamGoesAwayHalfWayIsFreedAndReportedAsALoss() {
        final int total = 2 * 1024 * 1024;
        final Reassembler r = reassembler(1L << 30);
        for (int i = 0; i < 10; i++) {
            assertNull(offer(r, SESSION, 1, i, total));
        }
        assertEquals(total, memory.liveBytes());
        r.onStreamClosed(SESSION);
        awaitLiveBytes(0, "its buffer is freed");
        assertEquals(0, r.bytesInUse());
        assertEquals(List.of(3), cutOff, "the sender's message was lost");
        assertEquals(1, counters.badChunk.get());
        assertEquals(1, errors.size());
    }

    @Test
    void aBrokenStreamOrAClosedReassemblerFreesWhatIsUnderWay() {
        final int total = 2 * 1024 * 1024;
        final Reassembler r = reassembler(1L << 30);
        assertNull(offer(r, 1, 1, 0, total));
        assertNull(offer(r, 1, 1, 2, total), "a gap: the message is dropped");
        assertEquals(1, counters.badChunk.get());
        awaitLiveBytes(0, "the dropped message is freed");
        assertNull(offer(r, 1, 2, 0, total));
        assertNull(offer(r, 2, 1, 0, total));
        assertEquals(2L * total, memory.liveBytes());
        r.close();
        awaitLiveBytes(0, "both messages under way are freed");
        assertEquals(0, r.bytesInUse());
    }
}
