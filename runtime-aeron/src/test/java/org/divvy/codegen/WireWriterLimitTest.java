package org.divvy.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An encode that cannot be sent stops at the limit instead of encoding (and allocating) the whole value. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WireWriterLimitTest {
    @Test
    void shouldStopAtTheLimitWithoutGrowingPastIt() {
        final WireWriter writer = new WireWriter(256).limit(1024 * 1024);
        final WireLimitException e = assertThrows(WireLimitException.class, () -> {
            for (int i = 0; i < 25_000_000; i++) { // 100 MB of ints, as a big job's array would be
                writer.writeInt(i);
            }
        });
        assertEquals(1024 * 1024, writer.length(), "everything up to the limit, nothing beyond");
        assertTrue(writer.buffer().capacity() < 4 * 1024 * 1024, "no buffer for the whole value: " + writer.buffer().capacity());
        assertEquals(1024 * 1024, e.limitBytes());
        assertEquals(0, e.getStackTrace().length, "a size verdict, not a bug: no stack trace");
    }

    @Test
    void shouldCheckEveryKindOfWriteAndStartAgainAfterReset() {
        final WireWriter writer = new WireWriter().limit(8);
        writer.writeLong(1);
        assertThrows(WireLimitException.class, () -> writer.writeBoolean(true));
        assertThrows(WireLimitException.class, () -> writer.writeBytes(new byte[1], 0, 1));
        writer.reset();
        assertThrows(WireLimitException.class, () -> writer.writeString("123456789"));
        writer.reset();
        writer.writeInt(1).writeShort((short)2).writeChar('c');
        assertEquals(8, writer.length());
    }
}
