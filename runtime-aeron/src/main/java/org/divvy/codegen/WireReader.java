package org.divvy.codegen;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.SlicedCopy;

/**
 * Reads values written by {@link WireWriter} from a frame, checking every read against the frame's end.
 *
 * <p>Nothing read from the wire is trusted: a read past the end, a length below {@code -1}, a length
 * whose elements could not fit in the bytes left, a presence byte other than 0 or 1, an enum ordinal
 * out of range, or a back-reference to no earlier object or to one of another type throws
 * {@link WireDecodeException}. So a corrupted length of 2^31 fails before anything is allocated, and
 * decoding allocates at most in proportion to what the frame holds.
 *
 * <p>Depth has no limit and needs none: values of types that reach themselves are read by their
 * {@link NestedCodec} on this reader's work stack ({@link #readNested}), never by recursion, and every
 * frame on it has consumed at least one byte (a presence byte, a reference tag or a length), so the stack
 * is bounded by the frame's size, which the transport bounds; other types nest only as deep as their
 * declarations.
 *
 * <p>One reader is owned by one thread and re-wrapped per frame.
 */
public final class WireReader {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int INITIAL_FRAMES = 16;
    private static final int KEEP_FRAMES = 1 << 16;

    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int position;
    private int limit;

    // The work stack of nested reads: one frame per value being read by a NestedCodec.
    private NestedCodec<?>[] frameCodecs = new NestedCodec<?>[INITIAL_FRAMES];
    private Object[] frameValues = new Object[INITIAL_FRAMES];
    private Object[] frameHelds = new Object[INITIAL_FRAMES];
    private int[] frameSteps = new int[INITIAL_FRAMES];
    private int[] frameLengths = new int[INITIAL_FRAMES];
    private int[] frameCounts = new int[INITIAL_FRAMES];
    private int depth;

    // The objects of this message that back-references may name, in the order they were read, and their types.
    private Object[] objects = new Object[0];
    private String[] objectTypes = new String[0];
    private int objectCount;

    /** The node's shared-object table, when this reader decodes jobs from other nodes; null otherwise. */
    private SharedObjectContext sharedObjects;
    private int sharedSourceNodeId = -1;

    public WireReader() {
    }

    /**
     * Lets jobs read here carry shared objects: each resolves through {@code context} to this node's
     * replica, fetched from {@code sourceNodeId} (the node the job came from) if it has none.
     */
    public WireReader sharedObjects(final SharedObjectContext context, final int sourceNodeId) {
        sharedObjects = context;
        sharedSourceNodeId = sourceNodeId;
        return this;
    }

    /** See {@link #sharedObjects(SharedObjectContext, int)}; null when shared objects cannot be resolved here. */
    public SharedObjectContext sharedObjects() {
        return sharedObjects;
    }

    /** The node the message being read came from, as set with {@link #sharedObjects(SharedObjectContext, int)}. */
    public int sharedSourceNodeId() {
        return sharedSourceNodeId;
    }

    public WireReader(final byte[] bytes) {
        wrap(bytes);
    }

    /** Reads {@code bytes} whole. */
    public WireReader wrap(final byte[] bytes) {
        buffer.wrap(bytes);
        position = 0;
        limit = bytes.length;
        forgetMessage();
        return this;
    }

    /** Reads {@code length} bytes of {@code source} from {@code offset}. */
    public WireReader wrap(final DirectBuffer source, final int offset, final int length) {
        if (offset < 0 || length < 0 || offset + length > source.capacity()) {
            throw new WireDecodeException(
                "frame [" + offset + ", " + offset + "+" + length + ") lies outside its buffer of " + source.capacity() + " bytes");
        }
        buffer.wrap(source, offset, length);
        position = 0;
        limit = length;
        forgetMessage();
        return this;
    }

    /** Bytes not read yet. */
    public int remaining() {
        return limit - position;
    }

    /** The read position, from the start of the frame. */
    public int position() {
        return position;
    }

    /** Throws unless every byte of the frame was read: trailing bytes mean a codec mismatch. */
    public void expectEnd() {
        if (position != limit) {
            throw new WireDecodeException((limit - position) + " unexpected trailing bytes at offset " + position);
        }
    }

    private int advance(final int bytes, final String what) {
        if (limit - position < bytes) {
            throw new WireDecodeException(
                "truncated frame: " + what + " needs " + bytes + " bytes at offset " + position + ", " + (limit - position) + " left");
        }
        final int at = position;
        position += bytes;
        return at;
    }

    public boolean readBoolean() {
        final byte b = buffer.getByte(advance(1, "boolean"));
        if (b != 0 && b != 1) {
            throw new WireDecodeException("boolean byte " + b + " at offset " + (position - 1) + ", must be 0 or 1");
        }
        return b == 1;
    }

    public byte readByte() {
        return buffer.getByte(advance(1, "byte"));
    }

    public short readShort() {
        return buffer.getShort(advance(2, "short"), ORDER);
    }

    public char readChar() {
        return buffer.getChar(advance(2, "char"), ORDER);
    }

    public int readInt() {
        return buffer.getInt(advance(4, "int"), ORDER);
    }

    public long readLong() {
        return buffer.getLong(advance(8, "long"), ORDER);
    }

    public float readFloat() {
        return buffer.getFloat(advance(4, "float"), ORDER);
    }

    public double readDouble() {
        return buffer.getDouble(advance(8, "double"), ORDER);
    }

    /**
     * Reads the length of an array or collection whose elements each take at least
     * {@code minBytesPerElement} bytes (at least 1 is assumed, so even empty-encoded elements are
     * bounded). Returns {@link WireWriter#NULL_LENGTH} for null.
     */
    public int readLength(final int minBytesPerElement) {
        final int length = readInt();
        if (length == WireWriter.NULL_LENGTH) {
            return length;
        }
        if (length < 0) {
            throw new WireDecodeException("length " + length + " at offset " + (position - 4) + ", must be >= -1");
        }
        final long needed = (long)length * Math.max(1, minBytesPerElement);
        if (needed > remaining()) {
            throw new WireDecodeException("length " + length + " at offset " + (position - 4) + " needs at least " + needed +
                " bytes, the frame has " + remaining() + " left");
        }
        return length;
    }

    /** Reads a presence byte: whether a nullable object follows. */
    public boolean readPresence() {
        return readBoolean();
    }

    /** Reads an enum ordinal and checks it against the enum's {@code constantCount}. */
    public int readOrdinal(final int constantCount) {
        final int ordinal = readInt();
        if (ordinal < 0 || ordinal >= constantCount) {
            throw new WireDecodeException("enum ordinal " + ordinal + " at offset " + (position - 4) + ", must be in [0, " + constantCount + ")");
        }
        return ordinal;
    }

    /** Reads a nullable string. */
    public String readString() {
        final int length = readLength(1);
        if (length == WireWriter.NULL_LENGTH) {
            return null;
        }
        final int at = advance(length, "string");
        return buffer.getStringWithoutLengthUtf8(at, length);
    }

    /** Copies {@code length} raw bytes into {@code dst}. */
    public void readBytes(final byte[] dst, final int offset, final int length) {
        SlicedCopy.copy(dst, offset, buffer, advance(length, "bytes"), length);
    }

    /**
     * Reads a length that must not be null ({@link WireWriter#NULL_LENGTH}): the size of an array or
     * collection of a reference-tagged type, whose null is its tag.
     */
    public int readCount(final int minBytesPerElement) {
        final int count = readLength(minBytesPerElement);
        if (count == WireWriter.NULL_LENGTH) {
            throw new WireDecodeException("length -1 at offset " + (position - 4) + " after a reference tag, must be >= 0");
        }
        return count;
    }

    /**
     * Reads a value with {@code codec}: its nested values of recursive types are pushed on this reader's
     * work stack and read in the same loop, so depth costs heap, not the thread's stack.
     */
    @SuppressWarnings("unchecked")
    public <T> T readNested(final NestedCodec<T> codec) {
        final int base = depth;
        push(codec);
        Object child = null;
        while (depth > base) {
            final int top = depth - 1;
            final int next = frameCodecs[top].readStep(this, frameSteps[top], child);
            child = null;
            if (next == NestedCodec.DONE) {
                if (depth != top + 1) {
                    throw new IllegalStateException(frameCodecs[top] + " pushed a value and returned DONE");
                }
                child = frameValues[top];
                frameCodecs[top] = null;
                frameValues[top] = null;
                frameHelds[top] = null;
                depth = top;
            } else {
                frameSteps[top] = next;
            }
        }
        return (T)child;
    }

    /** From a step: reads a value with {@code codec} next, then resumes the calling step with it as {@code child}. */
    public void push(final NestedCodec<?> codec) {
        if (depth == frameCodecs.length) {
            growFrames();
        }
        frameCodecs[depth] = codec;
        frameValues[depth] = null;
        frameHelds[depth] = null;
        frameSteps[depth] = 0;
        frameLengths[depth] = 0;
        frameCounts[depth] = 0;
        depth++;
    }

    /** The value the running step's frame is building (the result once its codec returns DONE). */
    public Object frameValue() {
        return frameValues[depth - 1];
    }

    public void frameValue(final Object value) {
        frameValues[depth - 1] = value;
    }

    /** An object the running step's frame holds between steps (a map key whose value is being read). */
    public Object frameHeld() {
        return frameHelds[depth - 1];
    }

    public void frameHeld(final Object held) {
        frameHelds[depth - 1] = held;
    }

    /** The element count of the array, collection or map the running step's frame reads. */
    public int frameLength() {
        return frameLengths[depth - 1];
    }

    public void frameLength(final int length) {
        frameLengths[depth - 1] = length;
    }

    /** How many entries the running step's frame has read so far (maps). */
    public int frameCount() {
        return frameCounts[depth - 1];
    }

    public void frameCount(final int count) {
        frameCounts[depth - 1] = count;
    }

    /** Frames on the work stack now; for tests. */
    public int depth() {
        return depth;
    }

    /**
     * Reads a reference tag (see {@link WireWriter#writeReference}) for a value of type {@code typeKey}:
     * returns true when that is all, the frame's value then being null or the object read earlier in this
     * message; false when a new object follows, which the caller creates and {@link #register}s before
     * reading its contents (so references inside it to itself resolve).
     */
    public boolean readReference(final String typeKey) {
        final int at = position;
        final byte tag = readByte();
        switch (tag) {
            case WireWriter.TAG_NULL -> {
                frameValue(null);
                return true;
            }
            case WireWriter.TAG_NEW -> {
                return false;
            }
            case WireWriter.TAG_BACK -> {
                final int index = readInt();
                if (index < 0 || index >= objectCount) {
                    throw new WireDecodeException("back-reference to object " + index + " at offset " + at + ", only " +
                        objectCount + " read so far");
                }
                if (!objectTypes[index].equals(typeKey)) {
                    throw new WireDecodeException("back-reference at offset " + at + " to a " + objectTypes[index] +
                        " where a " + typeKey + " belongs");
                }
                frameValue(objects[index]);
                return true;
            }
            default -> throw new WireDecodeException("reference tag " + tag + " at offset " + at + ", must be 0, 1 or 2");
        }
    }

    /** Registers a new object read after {@link #readReference} returned false; it becomes the frame's value. */
    public void register(final Object object, final String typeKey) {
        if (objectCount == objects.length) {
            final int capacity = Math.max(16, objectCount * 2);
            objects = java.util.Arrays.copyOf(objects, capacity);
            objectTypes = java.util.Arrays.copyOf(objectTypes, capacity);
        }
        objects[objectCount] = object;
        objectTypes[objectCount] = typeKey;
        objectCount++;
        frameValue(object);
    }

    private void growFrames() {
        final int capacity = frameCodecs.length * 2;
        frameCodecs = java.util.Arrays.copyOf(frameCodecs, capacity);
        frameValues = java.util.Arrays.copyOf(frameValues, capacity);
        frameHelds = java.util.Arrays.copyOf(frameHelds, capacity);
        frameSteps = java.util.Arrays.copyOf(frameSteps, capacity);
        frameLengths = java.util.Arrays.copyOf(frameLengths, capacity);
        frameCounts = java.util.Arrays.copyOf(frameCounts, capacity);
    }

    /** A new message: no frames (a decode that failed half-way left some), no objects to refer back to. */
    private void forgetMessage() {
        if (objectCount > 0) {
            if (objects.length > KEEP_FRAMES) {
                objects = new Object[0];
                objectTypes = new String[0];
            } else {
                java.util.Arrays.fill(objects, 0, objectCount, null);
            }
            objectCount = 0;
        }
        if (depth > 0) {
            java.util.Arrays.fill(frameCodecs, 0, depth, null);
            java.util.Arrays.fill(frameValues, 0, depth, null);
            java.util.Arrays.fill(frameHelds, 0, depth, null);
            depth = 0;
        }
        if (frameCodecs.length > KEEP_FRAMES) {
            frameCodecs = new NestedCodec<?>[INITIAL_FRAMES];
            frameValues = new Object[INITIAL_FRAMES];
            frameHelds = new Object[INITIAL_FRAMES];
            frameSteps = new int[INITIAL_FRAMES];
            frameLengths = new int[INITIAL_FRAMES];
            frameCounts = new int[INITIAL_FRAMES];
        }
    }
}
