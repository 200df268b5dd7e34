package org.divvy.codegen;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.bulk.SlicedCopy;

/**
 * Appends values to a growable buffer in Divvy's body encoding; the counterpart of {@link WireReader}.
 * Generated codecs call it; users never do.
 *
 * <p>Encoding, little-endian throughout: fixed-width primitives ({@code boolean} and {@code byte} 1
 * byte, {@code short}/{@code char} 2, {@code int}/{@code float} 4, {@code long}/{@code double} 8); a
 * length as an {@code int} where {@value #NULL_LENGTH} means null; a string as its UTF-8 length then its
 * bytes; a nullable object as a presence byte (0 absent, 1 present) then its fields.
 *
 * <p>Values of a type that can share objects or form a cycle (a mutable type that reaches itself: a
 * {@code @Wire} node class, a list of nodes ...) start with a reference tag instead: {@link #TAG_NULL},
 * {@link #TAG_NEW} then the value (it gets the next index of this message's object table), or
 * {@link #TAG_BACK} then the {@code int} index of the object written earlier in the same message.
 * Values of types that reach themselves are written by their {@link NestedCodec} on this writer's work
 * stack ({@link #writeNested}), never by recursion, so depth costs heap, not thread stack.
 *
 * <p>One writer is owned by one thread and reused: {@link #reset()} rewinds it without allocating.
 */
public final class WireWriter {
    /** The length written for a null array, string or collection. */
    public static final int NULL_LENGTH = -1;
    /** Reference tag: null. */
    public static final byte TAG_NULL = 0;
    /** Reference tag: a new object follows; it gets the next index of the message's object table. */
    public static final byte TAG_NEW = 1;
    /** Reference tag: the object at the {@code int} index that follows, written earlier in the message. */
    public static final byte TAG_BACK = 2;

    private static final int INITIAL_FRAMES = 16;
    private static final int KEEP_FRAMES = 1 << 16;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /** An {@link ExpandableArrayBuffer}, or a fixed buffer of the exact size a sizer measured ({@link #into}). */
    private final MutableDirectBuffer buffer;
    /** False for a {@link #sizer()}: it counts bytes and stores none. */
    private final boolean stores;
    private int position;
    private int limit = Integer.MAX_VALUE;

    // The work stack of nested writes: one frame per value being written by a NestedCodec.
    private NestedCodec<?>[] frameCodecs = new NestedCodec<?>[INITIAL_FRAMES];
    private Object[] frameValues = new Object[INITIAL_FRAMES];
    private Object[] frameCursors = new Object[INITIAL_FRAMES];
    private Object[] frameHelds = new Object[INITIAL_FRAMES];
    private int[] frameSteps = new int[INITIAL_FRAMES];
    private int depth;
    private final IdentityTable written = new IdentityTable();

    /** The node's shared-object table, when this writer encodes jobs for other nodes; null otherwise. */
    private SharedObjectContext sharedObjects;

    public WireWriter() {
        this(256);
    }

    /** Lets jobs written here carry shared objects: each is attached to {@code context}'s node, which ships its writes. */
    public WireWriter sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
        return this;
    }

    /** See {@link #sharedObjects(SharedObjectContext)}; null when none is set. */
    public SharedObjectContext sharedObjects() {
        return sharedObjects;
    }

    public WireWriter(final int initialCapacity) {
        this(initialCapacity, true);
    }

    private WireWriter(final int initialCapacity, final boolean stores) {
        buffer = new ExpandableArrayBuffer(initialCapacity);
        this.stores = stores;
    }

    /**
     * A writer into {@code fixed}, which must hold everything written (its size measured by a {@link #sizer()} pass):
     * it never grows, and a write past its end throws. For a large message encoded straight into a frame of its own
     * (off the heap: {@code bulk.OffHeapFrame}).
     */
    public static WireWriter into(final MutableDirectBuffer fixed) {
        return new WireWriter(fixed);
    }

    private WireWriter(final MutableDirectBuffer fixed) {
        buffer = fixed;
        stores = true;
    }

    /**
     * A writer that stores nothing and only counts: an encode run through it first gives the exact size of
     * a large message (and passes its limit cheaply), so the real encode allocates its buffer once instead of
     * growing it (a 100 MB value grown by halves left 200 MB of copies and garbage behind).
     */
    public static WireWriter sizer() {
        return new WireWriter(0, false);
    }

    /**
     * Makes every later write fail with {@link WireLimitException} once more than {@code maxBytes} would have
     * been written since the last reset: an encode that cannot be sent anyway stops at the bound instead of
     * encoding (and allocating) the whole value. Without a limit there is none.
     */
    public WireWriter limit(final int maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes=" + maxBytes + ", must be >= 0");
        }
        limit = maxBytes;
        return this;
    }

    private void require(final int bytes) {
        if (bytes > limit - position) {
            throw new WireLimitException(limit);
        }
    }

    /** Rewinds to the start, keeping the buffer; forgets the objects written (back-references start again). */
    public WireWriter reset() {
        position = 0;
        written.clear();
        if (depth > 0) { // an encode that failed half-way
            clearFrames(0);
        }
        if (frameCodecs.length > KEEP_FRAMES) { // one huge graph does not keep its stack's memory
            frameCodecs = new NestedCodec<?>[INITIAL_FRAMES];
            frameValues = new Object[INITIAL_FRAMES];
            frameCursors = new Object[INITIAL_FRAMES];
            frameHelds = new Object[INITIAL_FRAMES];
            frameSteps = new int[INITIAL_FRAMES];
        }
        return this;
    }

    /**
     * Advances over {@code bytes} the caller fills in later through {@link #buffer()} (a frame's header
     * and a length prefix, written once what follows is known); counts against the limit.
     */
    public WireWriter skip(final int bytes) {
        require(bytes);
        if (stores) {
            buffer.checkLimit(position + bytes);
        }
        position += bytes;
        return this;
    }

    /** Writes {@code value} at {@code at}, before the position (a length prefix skipped earlier); the position stays. */
    public WireWriter putIntAt(final int at, final int value) {
        if (at < 0 || at > position - 4) {
            throw new IndexOutOfBoundsException("at=" + at + ", must be in [0, " + (position - 4) + "]");
        }
        if (stores) {
            buffer.putInt(at, value, ORDER);
        }
        return this;
    }

    /** The number of bytes written since the last reset. */
    public int length() {
        return position;
    }

    /** The buffer holding bytes {@code [0, length())}. */
    public MutableDirectBuffer buffer() {
        return buffer;
    }

    /** A copy of the bytes written (in slices: see {@link SlicedCopy}). */
    public byte[] toByteArray() {
        final byte[] bytes = new byte[position];
        SlicedCopy.copy(bytes, 0, buffer, 0, position);
        return bytes;
    }

    /**
     * The bytes written, as an array of exactly their length: this writer's own array when it holds exactly them
     * (a writer made with the length a {@link #sizer()} measured), so a message of hundreds of MB is neither
     * allocated nor copied again; else a copy. The writer must not be written to afterwards.
     */
    public byte[] takeBytes() {
        final byte[] own = buffer.byteArray();
        return own != null && own.length == position ? own : toByteArray();
    }

    public WireWriter writeBoolean(final boolean value) {
        require(1);
        if (stores) {
            buffer.putByte(position, value ? (byte)1 : (byte)0);
        }
        position += 1;
        return this;
    }

    public WireWriter writeByte(final byte value) {
        require(1);
        if (stores) {
            buffer.putByte(position, value);
        }
        position += 1;
        return this;
    }

    public WireWriter writeShort(final short value) {
        require(2);
        if (stores) {
            buffer.putShort(position, value, ORDER);
        }
        position += 2;
        return this;
    }

    public WireWriter writeChar(final char value) {
        require(2);
        if (stores) {
            buffer.putChar(position, value, ORDER);
        }
        position += 2;
        return this;
    }

    public WireWriter writeInt(final int value) {
        require(4);
        if (stores) {
            buffer.putInt(position, value, ORDER);
        }
        position += 4;
        return this;
    }

    public WireWriter writeLong(final long value) {
        require(8);
        if (stores) {
            buffer.putLong(position, value, ORDER);
        }
        position += 8;
        return this;
    }

    public WireWriter writeFloat(final float value) {
        require(4);
        if (stores) {
            buffer.putFloat(position, value, ORDER);
        }
        position += 4;
        return this;
    }

    public WireWriter writeDouble(final double value) {
        require(8);
        if (stores) {
            buffer.putDouble(position, value, ORDER);
        }
        position += 8;
        return this;
    }

    /** Writes the length of an array or collection that follows, or {@link #NULL_LENGTH} for null. */
    public WireWriter writeLength(final int length) {
        return writeInt(length);
    }

    /** Writes the presence byte of a nullable object: false for null. */
    public WireWriter writePresence(final boolean present) {
        return writeBoolean(present);
    }

    /** Writes a nullable string as its UTF-8 length and bytes. */
    public WireWriter writeString(final String value) {
        if (value == null) {
            return writeInt(NULL_LENGTH);
        }
        final byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeInt(utf8.length);
        require(utf8.length);
        if (stores) {
            buffer.putBytes(position, utf8);
        }
        position += utf8.length;
        return this;
    }

    /** Writes raw bytes (no length); for callers that wrote the length themselves. */
    public WireWriter writeBytes(final byte[] bytes, final int offset, final int length) {
        require(length);
        if (stores) {
            SlicedCopy.copy(buffer, position, bytes, offset, length);
        }
        position += length;
        return this;
    }

    /**
     * Writes {@code value} with {@code codec}: its nested values of recursive types are pushed on this
     * writer's work stack and written in the same loop, so depth costs heap, not the thread's stack. A step
     * may call this again for a value of another recursive type (a non-recursive part between two); that
     * nests only as deep as the declared types do.
     */
    @SuppressWarnings("unchecked")
    public <T> void writeNested(final NestedCodec<T> codec, final T value) {
        final int base = depth;
        push(codec, value);
        while (depth > base) {
            final int top = depth - 1;
            final int next = ((NestedCodec<Object>)frameCodecs[top]).writeStep(this, frameValues[top], frameSteps[top]);
            if (next == NestedCodec.DONE) {
                if (depth != top + 1) {
                    throw new IllegalStateException(frameCodecs[top] + " pushed a value and returned DONE");
                }
                clearFrames(top);
            } else {
                frameSteps[top] = next;
            }
        }
    }

    /** From a step: writes {@code value} with {@code codec} next, then resumes the calling step. */
    public <T> void push(final NestedCodec<T> codec, final T value) {
        if (depth == frameCodecs.length) {
            growFrames();
        }
        frameCodecs[depth] = codec;
        frameValues[depth] = value;
        frameSteps[depth] = 0;
        depth++;
    }

    /** The cursor of the running step's frame (an iterator over a collection being written). */
    public Object frameCursor() {
        return frameCursors[depth - 1];
    }

    public void frameCursor(final Object cursor) {
        frameCursors[depth - 1] = cursor;
    }

    /** An object the running step's frame holds between steps (the map entry whose key was pushed). */
    public Object frameHeld() {
        return frameHelds[depth - 1];
    }

    public void frameHeld(final Object held) {
        frameHelds[depth - 1] = held;
    }

    /** Frames on the work stack now; for tests. */
    public int depth() {
        return depth;
    }

    /**
     * Writes the reference tag of {@code value}, a value of a type that can share or form a cycle: returns
     * true when that is all (null, or a back-reference to an object already written in this message),
     * false when the caller writes the new object's contents next.
     */
    public boolean writeReference(final Object value) {
        if (value == null) {
            writeByte(TAG_NULL);
            return true;
        }
        final int index = written.indexOf(value);
        if (index >= 0) {
            require(5);
            writeByte(TAG_BACK);
            writeInt(index);
            return true;
        }
        writeByte(TAG_NEW);
        written.add(value);
        return false;
    }

    private void growFrames() {
        final int capacity = frameCodecs.length * 2;
        frameCodecs = java.util.Arrays.copyOf(frameCodecs, capacity);
        frameValues = java.util.Arrays.copyOf(frameValues, capacity);
        frameCursors = java.util.Arrays.copyOf(frameCursors, capacity);
        frameHelds = java.util.Arrays.copyOf(frameHelds, capacity);
        frameSteps = java.util.Arrays.copyOf(frameSteps, capacity);
    }

    /** Pops frames down to {@code newDepth}, dropping their references. */
    private void clearFrames(final int newDepth) {
        for (int i = newDepth; i < depth; i++) {
            frameCodecs[i] = null;
            frameValues[i] = null;
            frameCursors[i] = null;
            frameHelds[i] = null;
        }
        depth = newDepth;
    }
}
