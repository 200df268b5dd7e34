package org.divvy.protocol;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.SlicedCopy;

/**
 * The header every Divvy frame starts with, and the base of the per-type flyweights.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |    Version    |     Type      |             Flags             |
 *  +---------------+---------------+-------------------------------+
 *  |                           Sender Id                           |
 *  +---------------------------------------------------------------+
 *  |                       Membership Epoch                        |
 *  +---------------------------------------------------------------+
 *  |                 Frame Length (header included)                |
 *  +---------------------------------------------------------------+
 *  |                         Body ...                             ...
 * </pre>
 *
 * <p>All fields are little-endian (the byte order of the machines Divvy runs on, so no swapping).
 * {@code Sender Id} is {@link #UNASSIGNED_ID} until the registry has assigned one (a JOIN). The
 * {@code Frame Length} must equal the length of the received frame.
 *
 * <p>Variable-length fields in bodies are a little-endian {@code int32} byte count followed by that many
 * bytes (strings as UTF-8). They follow the fixed fields, and are written in layout order.
 *
 * <p>A flyweight is owned by one thread and re-wrapped per frame; it allocates nothing.
 */
public class HeaderFlyweight {
    /**
     * The protocol version this code writes and accepts: 2 since STEAL_REQUEST lost its thief id (the
     * header's sender is the thief), so nodes of version 1 are told apart and counted, not misread.
     */
    public static final int CURRENT_VERSION = 2;
    /** The sender id of a node the registry has not assigned an id yet. */
    public static final int UNASSIGNED_ID = -1;

    public static final int VERSION_OFFSET = 0;
    public static final int TYPE_OFFSET = 1;
    public static final int FLAGS_OFFSET = 2;
    public static final int SENDER_ID_OFFSET = 4;
    public static final int EPOCH_OFFSET = 8;
    public static final int FRAME_LENGTH_OFFSET = 12;
    /** Bytes of the header; the body starts here. */
    public static final int HEADER_LENGTH = 16;

    /** The byte order of every field. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    /** Bytes of the length prefix of a variable-length field. */
    public static final int VAR_LENGTH_PREFIX = 4;

    protected final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);

    /**
     * Views {@code length} bytes of {@code source} from {@code offset}: a received frame, or the space
     * a frame is written into.
     */
    public HeaderFlyweight wrap(final DirectBuffer source, final int offset, final int length) {
        buffer.wrap(source, offset, length);
        return this;
    }

    /** The wrapped bytes. */
    public UnsafeBuffer buffer() {
        return buffer;
    }

    /** Writes a header of {@code type} with the current version, no flags, and {@code frameLength} of just the header. */
    public HeaderFlyweight headerDefaults(final int type) {
        version(CURRENT_VERSION).type(type).flags(0).senderId(UNASSIGNED_ID).epoch(0).frameLength(HEADER_LENGTH);
        return this;
    }

    public int version() {
        return buffer.getByte(VERSION_OFFSET) & 0xFF;
    }

    public HeaderFlyweight version(final int version) {
        buffer.putByte(VERSION_OFFSET, (byte)version);
        return this;
    }

    public int type() {
        return buffer.getByte(TYPE_OFFSET) & 0xFF;
    }

    public HeaderFlyweight type(final int type) {
        buffer.putByte(TYPE_OFFSET, (byte)type);
        return this;
    }

    public int flags() {
        return buffer.getShort(FLAGS_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    public HeaderFlyweight flags(final int flags) {
        buffer.putShort(FLAGS_OFFSET, (short)flags, BYTE_ORDER);
        return this;
    }

    public int senderId() {
        return buffer.getInt(SENDER_ID_OFFSET, BYTE_ORDER);
    }

    public HeaderFlyweight senderId(final int senderId) {
        buffer.putInt(SENDER_ID_OFFSET, senderId, BYTE_ORDER);
        return this;
    }

    public int epoch() {
        return buffer.getInt(EPOCH_OFFSET, BYTE_ORDER);
    }

    public HeaderFlyweight epoch(final int epoch) {
        buffer.putInt(EPOCH_OFFSET, epoch, BYTE_ORDER);
        return this;
    }

    public int frameLength() {
        return buffer.getInt(FRAME_LENGTH_OFFSET, BYTE_ORDER);
    }

    public HeaderFlyweight frameLength(final int frameLength) {
        buffer.putInt(FRAME_LENGTH_OFFSET, frameLength, BYTE_ORDER);
        return this;
    }

    /**
     * Where the variable-length field at {@code at} ends, or {@code -1} if its prefix or its bytes reach
     * past {@code limit} or its length is negative. Used by validation before any getter runs.
     */
    protected final int varFieldEnd(final int at, final int limit) {
        if (at < 0 || limit - at < VAR_LENGTH_PREFIX) {
            return -1;
        }
        final int length = buffer.getInt(at, BYTE_ORDER);
        if (length < 0 || length > limit - at - VAR_LENGTH_PREFIX) {
            return -1;
        }
        return at + VAR_LENGTH_PREFIX + length;
    }

    /** The byte count of the variable-length field at {@code at} (already validated). */
    protected final int varLength(final int at) {
        return buffer.getInt(at, BYTE_ORDER);
    }

    /** Where the (validated) variable-length field at {@code at} ends. */
    protected final int skipVar(final int at) {
        return at + VAR_LENGTH_PREFIX + buffer.getInt(at, BYTE_ORDER);
    }

    /** Reads the (validated) string field at {@code at}. */
    protected final String getVarString(final int at) {
        return buffer.getStringWithoutLengthUtf8(at + VAR_LENGTH_PREFIX, varLength(at));
    }

    /** The length {@link #putVarString} writes for {@code value} (null as ""), without its prefix. */
    protected static int utf8Length(final String value) {
        return value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Writes {@code value} (null as empty) at {@code at}; returns where it ends. */
    protected final int putVarString(final int at, final String value) {
        final int length = buffer.putStringWithoutLengthUtf8(at + VAR_LENGTH_PREFIX, value == null ? "" : value);
        buffer.putInt(at, length, BYTE_ORDER);
        return at + VAR_LENGTH_PREFIX + length;
    }

    /** Writes {@code length} bytes of {@code src} from {@code srcOffset} at {@code at}; returns where they end. */
    protected final int putVarBytes(final int at, final DirectBuffer src, final int srcOffset, final int length) {
        buffer.putInt(at, length, BYTE_ORDER);
        if (length > 0) {
            SlicedCopy.copy(buffer, at + VAR_LENGTH_PREFIX, src, srcOffset, length); // a root or value of 100s of MB
        }
        return at + VAR_LENGTH_PREFIX + length;
    }

    /**
     * Checks the body's variable-length fields against the frame length; the fixed part is already
     * checked by {@link FrameValidator}. Types with variable fields override this.
     *
     * @return whether the body is well formed.
     */
    public boolean isBodyWellFormed(final int frameLength) {
        return true;
    }
}
