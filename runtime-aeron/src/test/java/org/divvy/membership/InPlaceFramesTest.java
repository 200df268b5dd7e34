package org.divvy.membership;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A ROOT and a RUN_RESULT written around bytes already in place (the node encodes a root's arguments and a value
 * straight into the frame, not copied there: 200 MB for the 50M-int mergesort) are byte for byte the frames the
 * copying writers make, with names and texts outside ASCII too.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class InPlaceFramesTest {
    private static final byte[] BODY = {1, 2, 3, 4, 5, 6, 7, 8, 9};

    @Test
    void shouldWriteARootAroundArgumentsInPlaceAsTheCopyingWriterDoes() {
        final String typeName = "org.example.Straße#sort";
        final UnsafeBuffer copied = new UnsafeBuffer(new byte[(int)RootFlyweight.lengthBound(typeName, BODY.length)]);
        final RootFlyweight copying = new RootFlyweight();
        copying.wrap(copied, 0, copied.capacity());
        copying.headerDefaults(RootFlyweight.TYPE);
        copying.root(5L << 32 | 9, 3, 2, typeName, new UnsafeBuffer(BODY), 0, BODY.length);

        final int at = RootFlyweight.argumentsOffset(typeName);
        final UnsafeBuffer inPlace = new UnsafeBuffer(new byte[at + BODY.length]);
        inPlace.putBytes(at, BODY);
        final RootFlyweight around = new RootFlyweight();
        around.wrap(inPlace, 0, inPlace.capacity());
        around.headerDefaults(RootFlyweight.TYPE);
        around.rootAround(5L << 32 | 9, 3, 2, typeName, BODY.length);

        assertEquals(copying.frameLength(), around.frameLength());
        assertEquals(inPlace.capacity(), around.frameLength(), "the in-place frame is exactly its length");
        // exact: the registry sizes a kept root's frame with it when it gives the root to a new master, so a root the
        // master checked by its exact size against maxMessageBytes must not need more room then
        assertEquals(around.frameLength(), RootFlyweight.lengthBound(typeName, BODY.length));
        assertEquals(at, around.argumentsOffset());
        assertArrayEquals(Arrays.copyOf(copied.byteArray(), copying.frameLength()), inPlace.byteArray());
    }

    @Test
    void shouldWriteARunResultAroundItsValueInPlaceAsTheCopyingWriterDoes() {
        final String statistics = "spawned 3 · stolen 1";
        final String text = "sorted 9 ints, min 1, max 9";
        final UnsafeBuffer copied = new UnsafeBuffer(new byte[(int)RunResultFlyweight.lengthBound(statistics, text, BODY.length)]);
        final RunResultFlyweight copying = new RunResultFlyweight();
        copying.wrap(copied, 0, copied.capacity());
        copying.headerDefaults(RunResultFlyweight.TYPE);
        copying.result(7L << 32 | 1, -1, 0, RunResultFlyweight.OUTCOME_VALUE, statistics, text, new UnsafeBuffer(BODY), 0,
            BODY.length);

        final int at = RunResultFlyweight.resultOffset(statistics, text);
        final UnsafeBuffer inPlace = new UnsafeBuffer(new byte[at + BODY.length]);
        inPlace.putBytes(at, BODY);
        final RunResultFlyweight around = new RunResultFlyweight();
        around.wrap(inPlace, 0, inPlace.capacity());
        around.headerDefaults(RunResultFlyweight.TYPE);
        around.resultAround(7L << 32 | 1, -1, 0, RunResultFlyweight.OUTCOME_VALUE, statistics, text, BODY.length);

        assertEquals(inPlace.capacity(), around.frameLength());
        assertEquals(around.frameLength(), RunResultFlyweight.lengthBound(statistics, text, BODY.length), "exact, as a root's");
        assertEquals(at, around.resultOffset());
        assertEquals(statistics, around.statistics());
        assertEquals(text, around.text());
        assertArrayEquals(Arrays.copyOf(copied.byteArray(), copying.frameLength()), inPlace.byteArray());
    }
}
