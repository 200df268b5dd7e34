package org.divvy.stealing;

import org.divvy.codegen.WireDecodeException;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.scheduling.Stamp;

/** A job's stamp in STEAL_REPLY: its bytes ({@link Stamp#toByteArray}) as a length-prefixed byte string. */
final class StampCodec {
    private StampCodec() {
    }

    /** Writes {@code stamp} as a length-prefixed byte string. */
    static void encode(final Stamp stamp, final WireWriter writer) {
        final byte[] bytes = stamp.toByteArray();
        writer.writeLength(bytes.length);
        writer.writeBytes(bytes, 0, bytes.length);
    }

    /** Reads a stamp written by {@link #encode}, checking its length and that every varint is well formed. */
    static Stamp decode(final WireReader reader) {
        final int length = reader.readLength(1);
        if (length < 0) {
            throw new WireDecodeException("stamp length=" + length + ", must be >= 0");
        }
        if (length > Stamp.MAX_ENCODED_LENGTH) {
            throw new WireDecodeException("stamp length=" + length + ", must be <= " + Stamp.MAX_ENCODED_LENGTH);
        }
        final byte[] bytes = new byte[length];
        reader.readBytes(bytes, 0, length);
        try {
            return Stamp.fromByteArray(bytes);
        } catch (final IllegalArgumentException e) {
            throw new WireDecodeException(e.getMessage());
        }
    }
}
