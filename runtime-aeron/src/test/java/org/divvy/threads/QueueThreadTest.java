package org.divvy.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A queue thread handles its items in order on its own thread; closed, it hands back what it did not take, once. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class QueueThreadTest {
    @Test
    void shouldHandleItemsInOrderOnItsOwnThread() throws InterruptedException {
        final List<String> handled = new CopyOnWriteArrayList<>();
        final CountDownLatch three = new CountDownLatch(3);
        final QueueThread<Integer> thread = new QueueThread<>(() -> "queue-test", 1_000, item -> {
            handled.add(Thread.currentThread().getName() + ":" + item);
            three.countDown();
        });
        assertTrue(thread.offer(1) && thread.offer(2) && thread.offer(3));
        assertTrue(three.await(10, TimeUnit.SECONDS), "handled: " + handled);
        assertEquals(List.of("queue-test:1", "queue-test:2", "queue-test:3"), handled);
        final List<Integer> leftOver = new CopyOnWriteArrayList<>();
        thread.close(leftOver::add);
        assertTrue(leftOver.isEmpty(), "nothing left: " + leftOver);
    }

    @Test
    void shouldHandBackTheItemsItDidNotTakeWhenClosedAndRefuseLaterOnes() throws InterruptedException {
        final CountDownLatch inFirst = new CountDownLatch(1);
        final CountDownLatch never = new CountDownLatch(1);
        final List<Integer> handled = new CopyOnWriteArrayList<>();
        final QueueThread<Integer> thread = new QueueThread<>(() -> "queue-test", 1_000, item -> {
            inFirst.countDown();
            try {
                never.await(); // close() interrupts it
            } catch (final InterruptedException e) {
                handled.add(item);
            }
        });
        thread.offer(1);
        assertTrue(inFirst.await(10, TimeUnit.SECONDS));
        thread.offer(2);
        thread.offer(3);
        final List<Integer> leftOver = new CopyOnWriteArrayList<>();
        thread.close(leftOver::add);
        assertEquals(List.of(1), handled, "the item in hand is finished");
        assertEquals(List.of(2, 3), leftOver, "the items not taken go back to the closer, in order");
        assertFalse(thread.offer(4), "refused once closed: the caller keeps it");
        thread.close(leftOver::add);
        assertEquals(List.of(2, 3), leftOver, "a second close hands back nothing more");
    }

    @Test
    void shouldStartNoThreadBeforeTheFirstItem() {
        final QueueThread<Integer> thread = new QueueThread<>(() -> {
            throw new AssertionError("no thread is started without an item");
        }, 1_000, item -> { });
        thread.close(item -> { });
        assertFalse(thread.offer(1));
    }
}
