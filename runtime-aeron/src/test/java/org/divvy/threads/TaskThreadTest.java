package org.divvy.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each task either runs or, dropped because the thread closed first, runs what gives back what it holds: never both,
 * never neither (a closing node's queued decode releases its frame).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskThreadTest {
    private final List<String> done = new CopyOnWriteArrayList<>();
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();

    @Test
    void shouldRunTheDropActionOfEveryTaskNotRunWhenItClosesAndOfEveryTaskGivenAfter() throws InterruptedException {
        final TaskThread thread = new TaskThread(() -> "task-thread-test", errors::add);
        final CountDownLatch inFirst = new CountDownLatch(1);
        final CountDownLatch never = new CountDownLatch(1);
        thread.execute(() -> {
            inFirst.countDown();
            try {
                never.await();
            } catch (final InterruptedException closing) {
                done.add("ran 1");
            }
        }, () -> done.add("dropped 1"));
        assertTrue(inFirst.await(10, TimeUnit.SECONDS));
        thread.execute(() -> done.add("ran 2"), () -> done.add("dropped 2"));
        thread.execute(() -> done.add("ran 3"), () -> done.add("dropped 3"));
        thread.close();
        assertEquals(List.of("ran 1", "dropped 2", "dropped 3"), done);
        thread.execute(() -> done.add("ran 4"), () -> done.add("dropped 4"));
        assertEquals(List.of("ran 1", "dropped 2", "dropped 3", "dropped 4"), done, "given after close: dropped at once");
        assertEquals(List.of(), errors);
    }

    @Test
    void shouldReportWhatADropActionThrowsAndDropTheRest() {
        final TaskThread thread = new TaskThread(() -> "task-thread-test", errors::add);
        thread.close();
        thread.execute(() -> done.add("ran"), () -> {
            throw new IllegalStateException("drop failed");
        });
        thread.execute(() -> done.add("ran"), () -> done.add("dropped"));
        assertEquals(List.of("dropped"), done);
        assertEquals(1, errors.size());
        assertEquals("drop failed", errors.get(0).getMessage());
    }
}
