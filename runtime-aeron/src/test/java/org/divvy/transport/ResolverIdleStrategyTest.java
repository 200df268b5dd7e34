package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The resolver thread's idle strategy with a ten-minute longest park: {@code expectWork()} ends a park that has backed
 * off to it (the test's timeout would catch one that ran its course), and the thread then parks only briefly for a while.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResolverIdleStrategyTest {
    @Test
    void expectedWorkEndsALongParkAndKeepsTheThreadReady() throws Exception {
        // every park of this one is ten minutes long unless it is hot: for 2 s from its start and from each announcement
        final long hotNs = TimeUnit.SECONDS.toNanos(2);
        final ResolverIdleStrategy strategy = new ResolverIdleStrategy(TimeUnit.MINUTES.toNanos(10), TimeUnit.MINUTES.toNanos(10),
            hotNs);
        final CountDownLatch inLongPark = new CountDownLatch(1);
        final CountDownLatch woke = new CountDownLatch(1);
        final Thread resolver = new Thread(() -> {
            while (strategy.isHot()) {
                strategy.idle(0); // hot from the start: short parks
            }
            inLongPark.countDown();
            strategy.idle(0); // no longer hot: parks ten minutes unless woken
            woke.countDown();
        }, "resolver");
        resolver.setDaemon(true);
        resolver.start();
        assertTrue(inLongPark.await(20, TimeUnit.SECONDS), "the start's hot window ended");
        Thread.sleep(300); // the thread is (very likely) in the ten-minute park by now; if not, the park ends at once
        assertEquals(1, woke.getCount(), "still parked");
        strategy.expectWork();
        assertTrue(woke.await(20, TimeUnit.SECONDS), "expectWork ended the park");
        assertEquals(1, strategy.expected());
        strategy.expectWork();
        assertTrue(strategy.isHot(), "announced work makes the thread park briefly");
        strategy.idle(0); // hot: a short park, not the ten-minute one (the test's timeout would catch that)
        resolver.join(TimeUnit.SECONDS.toMillis(5));
    }
}
