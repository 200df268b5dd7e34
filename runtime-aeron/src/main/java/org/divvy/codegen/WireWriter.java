package org.divvy.codegen;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Appends values to a growable buffer in Divvy's body encoding; the counterpart of {@link WireReader}.
 * Generated codecs call it; users never do.
 *
 * <p>Encoding, little-endian throughout: fixed-width primitives ({@code boolean} and {@code byte} 1
 * byte, {@code short}/{@code char} 2, {@code int}/{@code float} 4, {@code long}/{@code double} 8); a
 * length as an {@code int} where {@value #NULL_LENGTH} means null; a string as its UTF-8 length then its
 * bytes; a nullable object as a presence byte (0 absent, 1 present) then its fields.
 *
 * <p>One writer is owned by one thread and reused: {@link #reset()} rewinds it without allocating.
 */
public final class WireWriter {
    /** The length written for a null array, string or collection. */
    public static final int NULL_LENGTH = -1;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final ExpandableArrayBuffer buffer;
    /** False for a {@link #sizer()}: it counts bytes and stores none. */
    private final boolean stores;
    private int position;
    private int limit = Integer.MAX_VALUE;

    public WireWriter() {
        this(256);
    }

    public WireWriter(final int initialCapacity) {
        this(initialCapacity, true);
    }

    private WireWriter(final int initialCapacity, final boolean stores) {
        buffer = new ExpandableArrayBuffer(initialCapacity);
        this.stores = stores;
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

    /** Rewinds to the start, keeping the buffer. */
    public WireWriter reset() {
        position = 0;
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

    /** A copy of the bytes written; for tests and slow paths. */
    public byte[] toByteArray() {
        final byte[] bytes = new byte[position];
        buffer.getBytes(0, bytes);
        return bytes;
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
            buffer.putBytes(position, bytes, offset, length);
        }
        position += length;
        return this;
    }
}
