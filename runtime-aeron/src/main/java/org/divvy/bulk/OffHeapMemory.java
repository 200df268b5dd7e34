package org.divvy.bulk;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.agrona.UnsafeApi;
import org.divvy.threads.QueueThread;

/**
 * One node's memory for big messages, outside the Java heap: {@link OffHeapFrame}s, malloc'd and freed explicitly.
 * A {@code new byte[200 MB]} is zeroed by the JVM in one step, in the VM with no safepoint poll, while the kernel
 * faults its fresh pages in: every safepoint of the process, and so the network agent, waited for it (116–538 ms
 * with G1 under the 50M-int mergesort, seconds at 1 GiB; perf/README.md). Malloc'd memory of that size is a fresh
 * mapping the JVM does not touch: its pages come zeroed from the kernel when first written, by a copy in slices
 * ({@link SlicedCopy}) that polls for safepoints between them, and no collection ever copies or scans it.
 *
 * <p>Ownership is counted ({@link OffHeapFrame#retain()}, {@link OffHeapFrame#release()}); the last release frees
 * the memory. A free of more than {@link #FREE_ON_CALLER_MAX_BYTES} is done on this memory's own thread
 * ({@code divvy-free-…}, a {@link QueueThread} started with the first such free), in slices of {@link #FREE_SLICE_BYTES}: giving back
 * 200 MB of touched pages took 12 ms in one {@code free} (measured on this 2-core machine), inside the VM, where no
 * safepoint can come; shrinking the mapping 8 MiB at a time took at most 0.6 ms a step.
 *
 * <p>{@link #liveBytes()} and {@link #liveFrames()} count what is allocated and not freed yet: once the messages of
 * a node are done, both are 0 (tests check it: no leak, and nothing freed twice, which {@link OffHeapFrame#release()}
 * refuses). The bounds on big messages are the node's settings, as before ({@code maxReassemblyBytes},
 * {@code maxOutboundBytesPerPeer}, {@code maxMessageBytes}); this memory counts, it does not bound.
 *
 * <p>Any thread may allocate, retain and release.
 */
public final class OffHeapMemory implements AutoCloseable {
    /** Frees up to this size (1 MiB) happen on the releasing thread: a few microseconds. */
    public static final int FREE_ON_CALLER_MAX_BYTES = 1 << 20;
    /** A big free gives back the mapping's tail this many bytes (8 MiB) at a time: at most 0.6 ms a step, measured. */
    public static final int FREE_SLICE_BYTES = 8 << 20;

    private static final long CLOSE_WAIT_MS = 5_000;

    private final Consumer<Throwable> errorHandler;
    private final AtomicLong liveBytes = new AtomicLong();
    private final AtomicLong liveFrames = new AtomicLong();
    private final AtomicLong allocatedFrames = new AtomicLong();
    /** Frees big frames; started with the first. */
    private final QueueThread<OffHeapFrame> freer;

    /**
     * @param name         what the freeing thread is called after ({@code divvy-free-NAME}).
     * @param errorHandler receives what a free throws (it should not); must not throw.
     */
    public OffHeapMemory(final String name, final Consumer<Throwable> errorHandler) {
        this.errorHandler = errorHandler;
        this.freer = new QueueThread<>(() -> "divvy-free-" + name, CLOSE_WAIT_MS, this::freeNow);
    }

    /**
     * A frame of {@code length} bytes (not zeroed: its first owner writes all of it), with one reference, the
     * caller's.
     *
     * @throws OutOfMemoryError if the machine has no memory for it.
     */
    public OffHeapFrame allocate(final int length) {
        return allocate(length, 0);
    }

    /** As {@link #allocate(int)}, with {@code tailBytes} more after the frame, outside its capacity ({@link OffHeapFrame#spanWithTail}). */
    public OffHeapFrame allocate(final int length, final int tailBytes) {
        if (length < 0 || tailBytes < 0) {
            throw new IllegalArgumentException("length=" + length + ", tailBytes=" + tailBytes + ", must be >= 0");
        }
        final long bytes = (long) length + tailBytes;
        final long address = UnsafeApi.allocateMemory(Math.max(1, bytes));
        liveBytes.addAndGet(bytes);
        liveFrames.incrementAndGet();
        allocatedFrames.incrementAndGet();
        return new OffHeapFrame(this, address, length, tailBytes);
    }

    /** Bytes allocated and not freed yet (a free handed to the freeing thread counts until it is done). */
    public long liveBytes() {
        return liveBytes.get();
    }

    /** Frames allocated and not freed yet. */
    public long liveFrames() {
        return liveFrames.get();
    }

    /** Frames allocated since this memory was made. */
    public long allocatedFrames() {
        return allocatedFrames.get();
    }

    /** Called by a frame's last release. */
    void free(final OffHeapFrame frame) {
        if (frame.allocated() <= FREE_ON_CALLER_MAX_BYTES || !freer.offer(frame)) {
            freeNow(frame); // small, or this memory is closed: freed on the releasing thread
        }
    }

    private void freeNow(final OffHeapFrame frame) {
        try {
            long address = frame.address();
            long size = Math.max(1, frame.allocated());
            // Shrinking a malloc'd mapping gives its tail back in place; each step is a call of its own, so a
            // safepoint can come between them.
            while (size > FREE_SLICE_BYTES) {
                size -= FREE_SLICE_BYTES;
                address = UnsafeApi.reallocateMemory(address, size);
            }
            UnsafeApi.freeMemory(address);
        } catch (final Throwable t) {
            errorHandler.accept(t);
        } finally {
            liveBytes.addAndGet(-frame.allocated());
            liveFrames.decrementAndGet();
        }
    }

    /**
     * Frees what is waiting for the freeing thread and stops it; frames released later are freed on the releasing
     * thread. Frames still held stay allocated (their owners release them).
     */
    @Override
    public void close() {
        freer.close(this::freeNow);
    }
}
