package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.divvy.codegen.WireDecodeException;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.scheduling.Stamp;
import org.junit.jupiter.api.Test;

class StampCodecTest {
    @Test
    void shouldRoundTripThroughWire() {
        final Stamp stamp = Stamp.ROOT.child(0).child(128).child(Integer.MAX_VALUE).child(7);
        final WireWriter writer = new WireWriter();
        StampCodec.encode(stamp, writer);
        StampCodec.encode(Stamp.ROOT, writer);
        final WireReader reader = new WireReader(writer.toByteArray());
        assertEquals(stamp, StampCodec.decode(reader));
        assertEquals(Stamp.ROOT, StampCodec.decode(reader));
        reader.expectEnd();
    }

    @Test
    void shouldRejectMalformedStampBytes() {
        final WireWriter writer = new WireWriter();
        writer.writeLength(2).writeBytes(new byte[] {(byte)0x81, (byte)0x82}, 0, 2); // ends inside a varint
        assertThrows(WireDecodeException.class, () -> StampCodec.decode(new WireReader(writer.toByteArray())));
        final WireWriter tooWide = new WireWriter();
        tooWide.writeLength(6).writeBytes(new byte[] {(byte)0xFF, (byte)0xFF, (byte)0xFF, (byte)0xFF, (byte)0xFF, 0x01}, 0, 6);
        assertThrows(WireDecodeException.class, () -> StampCodec.decode(new WireReader(tooWide.toByteArray())));
        final WireWriter tooLong = new WireWriter();
        tooLong.writeLength(Stamp.MAX_ENCODED_LENGTH + 1).writeBytes(new byte[Stamp.MAX_ENCODED_LENGTH + 1], 0,
            Stamp.MAX_ENCODED_LENGTH + 1);
        assertThrows(WireDecodeException.class, () -> StampCodec.decode(new WireReader(tooLong.toByteArray())));
    }
}
