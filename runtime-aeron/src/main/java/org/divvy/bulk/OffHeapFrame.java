package org.divvy.bulk;

import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A big message's bytes outside the Java heap ({@link OffHeapMemory}), with counted owners. It is made with one
 * reference, its allocator's; whoever keeps it beyond the call that handed it over takes one of its own
 * ({@link #retain()}), and every reference is given back once ({@link #release()}); the last release frees the
 * memory. After that the buffer reads as empty (capacity 0), so a holder that gave its reference back and reads
 * anyway gets an {@code IndexOutOfBoundsException}, not freed memory. A release more than retains is refused
 * with an {@link IllegalStateException}, as is a retain of a freed frame.
 *
 * <p>Views ({@code new UnsafeBuffer(frame, at, length)}) own nothing: they are valid while their holder keeps a
 * reference to the frame. Any thread.
 */
public final class OffHeapFrame extends UnsafeBuffer {
    private static final byte[] EMPTY = new byte[0];

    private final OffHeapMemory memory;
    private final long address;
    private final int length;
    /** Bytes allocated after the frame, outside its capacity (see {@link #spanWithTail}). */
    private final int tail;
    private final AtomicInteger references = new AtomicInteger(1);

    OffHeapFrame(final OffHeapMemory memory, final long address, final int length, final int tail) {
        super(address, length);
        this.memory = memory;
        this.address = address;
        this.length = length;
        this.tail = tail;
    }

    /** Bytes allocated: the frame and its tail. */
    long allocated() {
        return (long) length + tail;
    }

    /**
     * A view of the frame and the tail allocated after it ({@link OffHeapMemory#allocate(int, int)}): where a self link
     * keeps a frame's authentication trailer, so the frame itself is a buffer of exactly its length that a handler can
     * keep. Valid while a reference is held, as any view.
     */
    public UnsafeBuffer spanWithTail() {
        return new UnsafeBuffer(address, length + tail);
    }

    long address() {
        return address;
    }

    /** The frame's length, as allocated (its capacity until it is freed). */
    public int length() {
        return length;
    }

    /** References held now; 0 once freed. */
    public int references() {
        return references.get();
    }

    /** Takes one more reference; returns this. */
    public OffHeapFrame retain() {
        while (true) {
            final int held = references.get();
            if (held <= 0) {
                throw new IllegalStateException("retain of an off-heap frame of " + length + " bytes that was freed");
            }
            if (references.compareAndSet(held, held + 1)) {
                return this;
            }
        }
    }

    /** Gives one reference back; the last one frees the memory. */
    public void release() {
        final int held = references.decrementAndGet();
        if (held == 0) {
            wrap(EMPTY);
            memory.free(this);
        } else if (held < 0) {
            references.incrementAndGet();
            throw new IllegalStateException("an off-heap frame of " + length + " bytes was released more often than " +
                "it was retained");
        }
    }

    /** {@link #retain()} if {@code buffer} is an off-heap frame; returns {@code buffer}. */
    public static DirectBuffer retainIfOffHeap(final DirectBuffer buffer) {
        if (buffer instanceof OffHeapFrame) {
            ((OffHeapFrame) buffer).retain();
        }
        return buffer;
    }

    /** {@link #release()} if {@code buffer} is an off-heap frame; nothing for any other buffer (or null). */
    public static void releaseIfOffHeap(final DirectBuffer buffer) {
        if (buffer instanceof OffHeapFrame) {
            ((OffHeapFrame) buffer).release();
        }
    }
}
