package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A codec task's output that comes back after its node closed is given back, once, and never kept. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CodecInboxTest {
    @Test
    void shouldHandItemsToTheDutyWhileOpen() {
        final List<Object> givenBack = new ArrayList<>();
        final CodecInbox<Object> inbox = new CodecInbox<>(givenBack::add);
        final Object first = new Object();
        final Object second = new Object();
        inbox.add(first);
        inbox.add(second);
        assertSame(first, inbox.poll());
        assertSame(second, inbox.poll());
        assertNull(inbox.poll());
        assertEquals(List.of(), givenBack);
    }

    @Test
    void shouldGiveBackWhatTheDutyDidNotTakeAndWhatComesAfterTheClose() {
        final List<Object> givenBack = new CopyOnWriteArrayList<>();
        final CodecInbox<Object> inbox = new CodecInbox<>(givenBack::add);
        final Object waiting = new Object();
        inbox.add(waiting);
        inbox.close();
        assertEquals(List.of(waiting), givenBack);

        final Object late = new Object(); // an encode that outlasted the codec thread's close
        inbox.add(late);
        assertEquals(List.of(waiting, late), givenBack);
        assertNull(inbox.poll(), "nothing is kept once closed");
        inbox.close();
        assertEquals(2, givenBack.size(), "a second close gives nothing back twice");
    }

    /** The codec thread's add racing the agent's close: every item is given back exactly once, none left inside. */
    @Test
    void shouldGiveBackEveryItemExactlyOnceWhenAnAddRacesTheClose() throws Exception {
        final int rounds = 10_000;
        final AtomicIntegerArray givenBack = new AtomicIntegerArray(rounds);
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final CyclicBarrier start = new CyclicBarrier(2);
        for (int round = 0; round < rounds; round++) {
            final int item = round;
            final CodecInbox<Integer> inbox = new CodecInbox<>(i -> givenBack.incrementAndGet(i));
            final Thread codec = new Thread(() -> {
                try {
                    start.await();
                    inbox.add(item);
                } catch (final Exception e) {
                    errors.add(e);
                }
            });
            codec.start();
            start.await();
            inbox.close();
            codec.join();
            assertNull(inbox.poll(), "round " + round + ": an item stayed in the closed inbox");
            assertEquals(1, givenBack.get(round), "round " + round + ": given back once");
        }
        assertEquals(List.of(), errors);
    }
}
