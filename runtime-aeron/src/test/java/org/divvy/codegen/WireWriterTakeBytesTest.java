package org.divvy.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link WireWriter#takeBytes()}: the writer's own array when a sizer measured it exactly, else a copy. */
@Timeout(10)
class WireWriterTakeBytesTest {
    @Test
    void shouldGiveItsOwnArrayWhenItHoldsExactlyTheBytesASizerMeasured() {
        final WireWriter sizer = WireWriter.sizer();
        write(sizer);
        final WireWriter writer = new WireWriter(sizer.length());
        write(writer);
        final byte[] taken = writer.takeBytes();
        assertSame(writer.buffer().byteArray(), taken, "no copy of a message written to its exact size");
        assertArrayEquals(expected(), taken);
    }

    @Test
    void shouldGiveACopyOfExactlyTheBytesWrittenOtherwise() {
        final WireWriter writer = new WireWriter(256);
        write(writer);
        final byte[] taken = writer.takeBytes();
        assertNotSame(writer.buffer().byteArray(), taken);
        assertArrayEquals(expected(), taken);
    }

    private static void write(final WireWriter writer) {
        writer.writeInt(3).writeString("ab").writeBytes(new byte[] {9, 8, 7}, 0, 3);
    }

    private static byte[] expected() {
        final WireWriter writer = new WireWriter(64);
        write(writer);
        return writer.toByteArray();
    }
}
