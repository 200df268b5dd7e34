package org.divvy.codegen;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads values written by {@link WireWriter} from a frame, checking every read against the frame's end.
 *
 * <p>Nothing read from the wire is trusted: a read past the end, a length below {@code -1}, a length
 * whose elements could not fit in the bytes left, a presence byte other than 0 or 1, an enum ordinal
 * out of range or nesting deeper than {@link #MAX_DEPTH} throws {@link WireDecodeException}. So a
 * corrupted length of 2^31 fails before anything is allocated, and decoding allocates at most what the
 * frame could hold.
 *
 * <p>One reader is owned by one thread and re-wrapped per frame.
 */
public final class WireReader {
    /** How deep values may nest (arrays in records in lists ...) before the frame is rejected. */
    public static final int MAX_DEPTH = 256;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int position;
    private int limit;
    private int depth;

    public WireReader() {
    }

    public WireReader(final byte[] bytes) {
        wrap(bytes);
    }

    /** Reads {@code bytes} whole. */
    public WireReader wrap(final byte[] bytes) {
        buffer.wrap(bytes);
        position = 0;
        limit = bytes.length;
        depth = 0;
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
        depth = 0;
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
        buffer.getBytes(advance(length, "bytes"), dst, offset, length);
    }

    /** Enters a nested value; pair with {@link #exit()}. Bounds the recursion a hostile frame can cause. */
    public void enter() {
        if (++depth > MAX_DEPTH) {
            throw new WireDecodeException("values nest deeper than " + MAX_DEPTH + " at offset " + position);
        }
    }

    /** Leaves a nested value entered with {@link #enter()}. */
    public void exit() {
        depth--;
    }

}
