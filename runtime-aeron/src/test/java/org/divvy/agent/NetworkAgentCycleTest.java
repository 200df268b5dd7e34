package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;

import org.agrona.concurrent.CachedNanoClock;
import org.divvy.protocol.FrameCounters;
import org.divvy.transport.Transport;
import org.junit.jupiter.api.Test;

/**
 * The agent's cycle figures tell its own work from the time it was stopped: a cycle's wall time against the CPU
 * time its thread used. Both clocks are the test's: a duty moves them as a cycle of own work would (wall and CPU
 * alike) or as a GC pause would (wall only).
 */
class NetworkAgentCycleTest {
    private static final long MS = 1_000_000;

    private long wallNs = 1_000 * MS;
    private long cpuNs = 5 * MS;
    /** What the next cycle's duty does: wall and CPU time it adds. */
    private long nextWallNs;
    private long nextCpuNs;

    /** A transport with nothing to do. */
    private Transport transport() {
        return (Transport)Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Transport.class}, (proxy, method, args) -> {
                final Class<?> type = method.getReturnType();
                if (type == int.class) {
                    return 0;
                }
                if (type == long.class) {
                    return 0L;
                }
                if (type == boolean.class) {
                    return false;
                }
                return type == String.class ? "127.0.0.1:1" : null;
            });
    }

    private NetworkAgent agent() {
        final Duty duty = new Duty() {
            @Override
            public int doWork(final long nowNs) {
                wallNs += nextWallNs;
                cpuNs += nextCpuNs;
                return 0;
            }

            @Override
            public boolean isHousekeeping() {
                return true;
            }
        };
        return NetworkAgent.builder()
            .transport(transport())
            .clock(() -> wallNs, new CachedNanoClock())
            .threadCpuClock(() -> cpuNs)
            .dispatcher(new FrameDispatcher(new FrameCounters(), new EveryoneIsAMember(), e -> { }))
            .duty(duty)
            .deepIdle(new DeepIdle(1_000 * MS))
            .errorHandler(e -> { })
            .build();
    }

    private void cycle(final NetworkAgent agent, final long wallNs, final long cpuNs, final long gapNs) {
        nextWallNs = wallNs;
        nextCpuNs = cpuNs;
        agent.doWork();
        this.wallNs += gapNs;
    }

    @Test
    void aCycleStoppedByAPauseIsLongButNotOwnWork() {
        final NetworkAgent agent = agent();
        agent.onStart();
        cycle(agent, 0, 0, 2 * MS); // the first read of the CPU clock
        cycle(agent, 4 * MS, 4 * MS, 2 * MS); // 4 ms of own work, ending 6 ms after the start
        cycle(agent, 300 * MS, MS / 10, 2 * MS); // a 300 ms pause: the thread stood still
        cycle(agent, 2 * MS, 2 * MS, 2 * MS);
        assertEquals(300 * MS, agent.longestCycleNs());
        assertEquals(MS / 10, agent.longestCycleCpuNs());
        assertEquals(4 * MS, agent.mostCycleCpuNs());
        assertEquals(6 * MS, agent.mostCycleCpuAtNs());
    }

    @Test
    void ownWorkCountsWhateverTheWallTime() {
        final NetworkAgent agent = agent();
        cycle(agent, 0, 0, 2 * MS);
        cycle(agent, 50 * MS, 45 * MS, 2 * MS); // a long cycle of own work, partly without a core
        cycle(agent, 10 * MS, 10 * MS, 2 * MS);
        assertEquals(50 * MS, agent.longestCycleNs());
        assertEquals(45 * MS, agent.longestCycleCpuNs());
        assertEquals(45 * MS, agent.mostCycleCpuNs());
    }

    @Test
    void theFirstCycleIsMeasuredFromTheStart() {
        final NetworkAgent agent = agent();
        agent.onStart();
        cycle(agent, 60 * MS, 50 * MS, 2 * MS); // joining and loading classes
        cycle(agent, 2 * MS, 2 * MS, 2 * MS);
        assertEquals(60 * MS, agent.longestCycleNs());
        assertEquals(50 * MS, agent.longestCycleCpuNs());
        assertEquals(50 * MS, agent.mostCycleCpuNs());
    }

    @Test
    void shortCyclesReadTheCpuClockAboutOncePerMillisecond() {
        final NetworkAgent agent = agent();
        cycle(agent, 0, 0, 0);
        for (int i = 0; i < 200; i++) {
            cycle(agent, MS / 100, MS / 100, 0); // 10 µs cycles: a read spans 100 of them
        }
        assertEquals(MS, agent.mostCycleCpuNs());
    }

    @Test
    void withoutACpuClockNothingIsClaimed() {
        final NetworkAgent agent = NetworkAgent.builder()
            .transport(transport())
            .clock(() -> wallNs, new CachedNanoClock())
            .threadCpuClock(() -> -1)
            .dispatcher(new FrameDispatcher(new FrameCounters(), new EveryoneIsAMember(), e -> { }))
            .deepIdle(new DeepIdle(1_000 * MS))
            .errorHandler(e -> { })
            .build();
        agent.doWork();
        agent.doWork();
        assertEquals(-1, agent.longestCycleCpuNs());
        assertEquals(-1, agent.mostCycleCpuNs());
    }

    /** A duty that counts its runs and does {@code work} in each. */
    private static final class CountingDuty implements Duty {
        private final boolean paced;
        int runs;
        int work;

        CountingDuty(final boolean paced) {
            this.paced = paced;
        }

        @Override
        public int doWork(final long nowNs) {
            runs++;
            return work;
        }

        @Override
        public boolean isPaced() {
            return paced;
        }
    }

    @Test
    void pacedDutiesRunAtMostOncePerIntervalWhileIdleAndAfterAnyWork() {
        final CountingDuty paced = new CountingDuty(true);
        final CountingDuty everyCycle = new CountingDuty(false);
        final NetworkAgent agent = NetworkAgent.builder()
            .transport(transport())
            .clock(() -> wallNs, new CachedNanoClock())
            .threadCpuClock(() -> cpuNs)
            .dispatcher(new FrameDispatcher(new FrameCounters(), new EveryoneIsAMember(), e -> { }))
            .duty(paced)
            .duty(everyCycle)
            .deepIdle(new DeepIdle(1_000 * MS))
            .errorHandler(e -> { })
            .build();
        final long cycleNs = 2_000; // a 2 µs idle cycle, spinning
        for (int i = 0; i < 200; i++) { // 400 µs
            agent.doWork();
            wallNs += cycleNs;
        }
        assertEquals(200, everyCycle.runs, "an unpaced duty runs every cycle");
        // the first cycle (the agent starts as after work), then once per 100 µs of cycle clock: at 100, 200, 300 µs
        assertEquals(4, paced.runs, "a paced duty, while the agent spins idle");

        everyCycle.work = 1; // work in a cycle: the next cycle runs every duty
        agent.doWork();
        wallNs += cycleNs;
        everyCycle.work = 0;
        final int before = paced.runs;
        agent.doWork();
        wallNs += cycleNs;
        assertEquals(before + 1, paced.runs, "the cycle after one with work runs the paced duties");
        agent.doWork();
        assertEquals(before + 1, paced.runs, "then idle again: paced");
    }
}
