package org.divvy.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link WireWriter#into}: a message encoded straight into a frame of the size a sizer measured, off the heap. */
@Timeout(10)
class WireWriterIntoTest {
    private static void write(final WireWriter writer) {
        writer.writeInt(3).writeString("ab").writeBytes(new byte[] {9, 8, 7}, 0, 3).writeLong(-5L);
    }

    @Test
    void shouldWriteTheSameBytesIntoAnOffHeapFrameOfTheMeasuredSize() {
        final WireWriter sizer = WireWriter.sizer();
        write(sizer);
        final WireWriter onHeap = new WireWriter(sizer.length());
        write(onHeap);
        try (OffHeapMemory memory = new OffHeapMemory("test", e -> { })) {
            final OffHeapFrame frame = memory.allocate(sizer.length());
            final WireWriter writer = WireWriter.into(frame);
            write(writer);
            assertEquals(sizer.length(), writer.length());
            assertArrayEquals(onHeap.takeBytes(), writer.takeBytes(), "a copy: an off-heap frame has no array of its own");
            assertThrows(IndexOutOfBoundsException.class, () -> writer.writeByte((byte)1), "a fixed buffer never grows");
            frame.release();
            assertEquals(0, memory.liveBytes());
        }
    }
}
