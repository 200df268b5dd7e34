package org.divvy.bulk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Off-heap frames are counted while they live, freed by their last release, and never freed twice. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OffHeapMemoryTest {
    private final List<Throwable> errors = new ArrayList<>();

    @Test
    void shouldCountAFrameUntilItsLastReferenceIsGivenBack() {
        try (OffHeapMemory memory = new OffHeapMemory("test", errors::add)) {
            final OffHeapFrame frame = memory.allocate(100_000);
            frame.putInt(99_996, 42);
            assertEquals(100_000, memory.liveBytes());
            assertEquals(1, memory.liveFrames());
            frame.retain();
            frame.release();
            assertEquals(100_000, memory.liveBytes(), "one reference is still held");
            assertEquals(42, frame.getInt(99_996));
            frame.release();
            assertEquals(0, memory.liveBytes());
            assertEquals(0, memory.liveFrames());
            assertEquals(0, frame.references());
            assertEquals(0, frame.capacity(), "a freed frame reads as empty");
            assertThrows(IndexOutOfBoundsException.class, () -> frame.getInt(0));
            assertTrue(errors.isEmpty(), errors::toString);
        }
    }

    @Test
    void shouldRefuseASecondReleaseAndARetainAfterTheFree() {
        try (OffHeapMemory memory = new OffHeapMemory("test", errors::add)) {
            final OffHeapFrame frame = memory.allocate(64);
            frame.release();
            final IllegalStateException twice = assertThrows(IllegalStateException.class, frame::release);
            assertEquals("an off-heap frame of 64 bytes was released more often than it was retained", twice.getMessage());
            assertThrows(IllegalStateException.class, frame::retain);
            assertEquals(0, memory.liveBytes(), "freed once, counted once");
            assertEquals(0, memory.liveFrames());
        }
    }

    @Test
    void shouldFreeABigFrameOnItsOwnThreadInSlices() {
        try (OffHeapMemory memory = new OffHeapMemory("test", errors::add)) {
            final int length = 3 * OffHeapMemory.FREE_SLICE_BYTES + 12_345;
            final OffHeapFrame frame = memory.allocate(length);
            SlicedCopy.copy(frame, 0, new UnsafeBuffer(new byte[length]), 0, length); // touch every page
            frame.release();
            Await.within(Duration.ofSeconds(10)).until(() -> memory.liveBytes() == 0, "the freeing thread gives the frame back");
            assertEquals(0, memory.liveFrames());
            assertEquals(1, memory.allocatedFrames());
            assertTrue(errors.isEmpty(), errors::toString);
        }
    }

    @Test
    void shouldFreeWhatWaitsForTheFreeingThreadWhenClosed() {
        final OffHeapMemory memory = new OffHeapMemory("test", errors::add);
        for (int i = 0; i < 4; i++) {
            memory.allocate(2 * OffHeapMemory.FREE_ON_CALLER_MAX_BYTES).release();
        }
        memory.close();
        assertEquals(0, memory.liveBytes());
        final OffHeapFrame late = memory.allocate(2 * OffHeapMemory.FREE_ON_CALLER_MAX_BYTES);
        late.release(); // after close: freed on this thread
        assertEquals(0, memory.liveBytes());
        assertTrue(errors.isEmpty(), errors::toString);
    }
}
