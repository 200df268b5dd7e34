package org.divvy.bulk;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Copies bytes in slices of {@link #SLICE_BYTES}, so that a thread copying a large message reaches a safepoint
 * between slices. A copy of hundreds of MB in one {@code putBytes} (C2 turns it into one call of a copy stub)
 * held every safepoint of its JVM, and with it the network agent, for as long as it took: up to hundreds of ms
 * under the 50M-int mergesort (perf/README.md, "The network agent under big messages").
 *
 * <p>Why the loop polls: its stride ({@code Math.min(SLICE_BYTES, length - done)}) is not a constant, so C2
 * does not make it a counted loop, and a loop that is not counted keeps its safepoint poll on the back edge (a
 * counted loop of a few hundred iterations would have none: C2 strip-mines counted loops, polling once per
 * thousand iterations). {@code perf}'s {@code SafepointReach} measures it: the longest time to reach a safepoint
 * while a thread copies 256 MB, in one step against in slices.
 */
public final class SlicedCopy {
    /**
     * 1 MiB: a slice takes 0.1 to 0.3 ms to copy (a few ms when its pages are faulted in on first touch), and the
     * poll per slice costs nothing measurable.
     */
    public static final int SLICE_BYTES = 1 << 20;

    private SlicedCopy() {
    }

    /** A negative length is a caller's bug; the buffers' own copies threw on it, and so does this. */
    private static void requireLength(final int length) {
        if (length < 0) {
            throw new IndexOutOfBoundsException("negative length " + length);
        }
    }

    /** {@code dst[dstAt, dstAt + length) = src[srcAt, srcAt + length)}, in slices. */
    public static void copy(final MutableDirectBuffer dst, final int dstAt, final DirectBuffer src, final int srcAt,
        final int length) {
        requireLength(length);
        int done = 0;
        while (done < length) {
            final int n = Math.min(SLICE_BYTES, length - done);
            dst.putBytes(dstAt + done, src, srcAt + done, n);
            done += n;
        }
    }

    /** {@code dst[dstAt, dstAt + length) = src[srcAt, srcAt + length)}, in slices. */
    public static void copy(final MutableDirectBuffer dst, final int dstAt, final byte[] src, final int srcAt,
        final int length) {
        requireLength(length);
        int done = 0;
        while (done < length) {
            final int n = Math.min(SLICE_BYTES, length - done);
            dst.putBytes(dstAt + done, src, srcAt + done, n);
            done += n;
        }
    }

    /** {@code dst[dstAt, dstAt + length) = src[srcAt, srcAt + length)}, in slices. */
    public static void copy(final byte[] dst, final int dstAt, final DirectBuffer src, final int srcAt,
        final int length) {
        requireLength(length);
        int done = 0;
        while (done < length) {
            final int n = Math.min(SLICE_BYTES, length - done);
            src.getBytes(srcAt + done, dst, dstAt + done, n);
            done += n;
        }
    }
}
