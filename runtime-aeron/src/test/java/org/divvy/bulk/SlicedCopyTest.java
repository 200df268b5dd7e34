package org.divvy.bulk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Copies in slices give the bytes a single copy gives, at offsets that cross slice boundaries. */
@Timeout(30)
class SlicedCopyTest {
    private static final int LENGTH = 3 * SlicedCopy.SLICE_BYTES + 12_345; // three whole slices and a part

    @Test
    void shouldCopyEveryByteAcrossSliceBoundariesBetweenBuffers() {
        final byte[] source = randomBytes(LENGTH + 7);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[LENGTH + 20]);
        SlicedCopy.copy(dst, 13, new UnsafeBuffer(source), 7, LENGTH);
        final byte[] expected = new byte[LENGTH + 20];
        System.arraycopy(source, 7, expected, 13, LENGTH);
        assertArrayEquals(expected, dst.byteArray());
    }

    @Test
    void shouldCopyEveryByteFromAndIntoArrays() {
        final byte[] source = randomBytes(LENGTH);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[LENGTH + 1]);
        SlicedCopy.copy(buffer, 1, source, 0, LENGTH);
        final byte[] back = new byte[LENGTH + 3];
        SlicedCopy.copy(back, 3, buffer, 1, LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            assertEquals(source[i], back[i + 3], "byte " + i);
        }
        assertEquals(0, back[0]);
    }

    /** As the buffers' own copies do: a negative length is refused, never taken as nothing to copy. */
    @Test
    void shouldRefuseANegativeLength() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4]);
        assertThrows(IndexOutOfBoundsException.class, () -> SlicedCopy.copy(buffer, 0, new byte[4], 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> SlicedCopy.copy(buffer, 0, buffer, 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> SlicedCopy.copy(new byte[4], 0, buffer, 0, -1));
    }

    @Test
    void shouldCopyNothingForLengthZero() {
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[4]);
        SlicedCopy.copy(dst, 4, new byte[0], 0, 0);
        assertArrayEquals(new byte[4], dst.byteArray());
    }

    private static byte[] randomBytes(final int length) {
        final byte[] bytes = new byte[length];
        new SplittableRandom(7).nextBytes(bytes);
        return bytes;
    }
}
