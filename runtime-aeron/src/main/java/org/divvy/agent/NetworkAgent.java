package org.divvy.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.divvy.transport.Transport;

/**
 * A node's network agent: the one thread that touches the transport. Each duty cycle reads the clock
 * once (into the {@link CachedNanoClock} the mechanisms read), steps the transport's driver, dispatches
 * received frames to the handlers mechanisms registered, sends what the handlers sent (a steal reply does not
 * wait for the duties), runs each mechanism's {@link Duty} ({@linkplain
 * Duty#isPaced paced} ones at most once per {@link #PACED_DUTY_INTERVAL_NS} while it spins idle), retries
 * outbound queues, and returns the work done so the idle strategy can back off.
 *
 * <p>It knows no mechanism's logic. Deep idle is derived, not kept by hand: a cycle is active when
 * handlers or non-housekeeping duties report work for the computation, or when the node is not
 * quiescent (its {@code quiescence} check: work queued or running, jobs out on thieves or held for
 * owners); otherwise it is quiet, and a node quiet long enough enters {@link DeepIdle deep idle}.
 *
 * <p>{@link #doWork()} never throws: errors go to the error handler and are counted. Owned by one
 * thread: an {@link org.agrona.concurrent.AgentRunner}'s, or a test's stepping it.
 */
public final class NetworkAgent implements Agent {
    static final int FRAGMENT_LIMIT = 64;
    static final int OUTBOUND_LIMIT_PER_LINK = 64;
    /**
     * The agent reads its thread's CPU time at the end of a cycle at most once per this much wall time (1 ms),
     * and after every new longest cycle: a read is a system call of 1-2 µs, too dear for every cycle.
     */
    static final long CPU_READ_INTERVAL_NS = 1_000_000;
    /**
     * How often {@linkplain Duty#isPaced paced} duties and the quiescence check run at least while the agent spins
     * idle (100 µs of the cycle clock): an idle cycle is 2-3 µs, of which they took ~0.5 µs, and a frame that arrives
     * mid-cycle waits for the rest of it. Heartbeats, detection and deep idle entry are in tens of milliseconds or
     * more; a cycle with work, or the cycle after one, runs them anyway (a cycle after a short park does not).
     */
    public static final long PACED_DUTY_INTERVAL_NS = 100_000;
    /**
     * Diagnostics, off by default: with the system property {@code divvy.agentCpuLogMs} set to N, every span of the
     * agent's CPU time above N ms is printed to standard error with when it ended ({@code perf/agent-stall.sh}).
     */
    private static final long CPU_LOG_NS = Long.getLong("divvy.agentCpuLogMs", 0) * 1_000_000;

    private final String roleName;
    private final Transport transport;
    private final NanoClock clock;
    private final CachedNanoClock cycleClock;
    private final FrameDispatcher dispatcher;
    private final Duty[] duties;
    /** Per duty, whether it is {@linkplain Duty#isPaced paced}. */
    private final boolean[] paced;
    private final BooleanSupplier quiescence;
    private final DeepIdle deepIdle;
    private final ErrorHandler errorHandler;
    private final Runnable onStart;
    /** This thread's CPU time in ns (-1: not measured). */
    private final LongSupplier threadCpuClock;
    private final AtomicLong errors = new AtomicLong();
    /** Longest duty cycle and longest gap between two awake cycles since start; written by the agent thread only. */
    private volatile long longestCycleNs;
    private volatile long longestGapNs;
    /** The CPU time of the agent thread during (and at most about 1 ms before) its longest cycle; -1: not measured. */
    private volatile long longestCycleCpuNs = -1;
    /** The most CPU time the agent thread used over one cycle and at most about 1 ms before it; -1: not measured. */
    private volatile long mostCycleCpuNs = -1;
    /** When that cycle ended, in ns since the agent started. */
    private volatile long mostCycleCpuAtNs;
    private long startNs;
    private long lastCpuReadNs;
    private long lastCpuNs = -1;
    private long lastCycleEndNs;
    private boolean lastCycleAwake;
    /** The previous cycle's work count; a cycle after one with work runs every duty (the first cycle too). */
    private int lastCycleWork = 1;
    /** When the paced duties and the quiescence check last ran (cycle clock). */
    private long pacedRunNs;
    private long quiescenceCheckNs;

    /** The node's codec thread, stopped first when the agent closes; or null. */
    private final CodecThread codec;

    private NetworkAgent(final Builder b) {
        roleName = "divvy-network-" + b.transport.endpoint();
        transport = b.transport;
        clock = b.clock;
        cycleClock = b.cycleClock;
        dispatcher = b.dispatcher;
        duties = b.duties.toArray(new Duty[0]);
        paced = new boolean[duties.length];
        for (int i = 0; i < duties.length; i++) {
            paced[i] = duties[i].isPaced();
        }
        quiescence = b.quiescence;
        deepIdle = b.deepIdle;
        errorHandler = b.errorHandler;
        onStart = b.onStart;
        threadCpuClock = b.threadCpuClock;
        codec = b.codec;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String roleName() {
        return roleName;
    }

    @Override
    public void onStart() {
        startNs = clock.nanoTime();
        cycleClock.update(startNs);
        lastCpuNs = threadCpuClock.getAsLong(); // on the agent's thread: the first cycle is measured too
        lastCpuReadNs = startNs;
        onStart.run();
    }

    @Override
    public int doWork() {
        final long nowNs = clock.nanoTime();
        cycleClock.update(nowNs);
        if (lastCycleAwake && nowNs - lastCycleEndNs > longestGapNs) {
            longestGapNs = nowNs - lastCycleEndNs; // awake, the idle strategy parks at most 1 ms: more is a stall
        }
        int work = 0;
        int computation = 0;
        try {
            work += transport.beginDriverWork();
            work += transport.poll(dispatcher, FRAGMENT_LIMIT);
            // A reply (or a thief's next request) leaves now, not after the duties: measured, perf/README.md.
            work += transport.sendHandlersFrames();
        } catch (final Throwable t) {
            onError(t);
            work++;
        }
        computation += dispatcher.takeComputationWork();
        // while spinning idle (no work in this cycle's driver step and poll nor in the last cycle), paced duties wait
        final boolean runPaced = work > 0 || lastCycleWork > 0 || nowNs - pacedRunNs >= PACED_DUTY_INTERVAL_NS;
        if (runPaced) {
            pacedRunNs = nowNs;
        }
        for (int i = 0; i < duties.length; i++) {
            final Duty duty = duties[i];
            if (paced[i] && !runPaced) {
                continue;
            }
            try {
                final int done = duty.doWork(nowNs);
                work += done;
                if (!duty.isHousekeeping()) {
                    computation += done;
                }
            } catch (final Throwable t) {
                onError(t); // one mechanism's failure must not starve the others' duties
                work++;
            }
        }
        try {
            work += transport.doOutboundWork(OUTBOUND_LIMIT_PER_LINK);
            // What this cycle sent leaves now, not after the idle strategy's wait and the next cycle's first step.
            work += transport.endDriverWork();
            if (computation > 0) {
                deepIdle.onActivity(nowNs);
            } else if (runPaced || deepIdle.isDeep() || nowNs - quiescenceCheckNs >= PACED_DUTY_INTERVAL_NS) {
                // paced too: only deep idle's entry after a second of quiet depends on it, and leaving deep idle
                // (every deep cycle checks)
                quiescenceCheckNs = nowNs;
                if (!quiescence.getAsBoolean()) {
                    deepIdle.onActivity(nowNs);
                } else {
                    deepIdle.onQuiet(nowNs);
                }
            }
        } catch (final Throwable t) {
            onError(t);
            work++;
        }
        final long endNs = clock.nanoTime();
        final boolean longest = endNs - nowNs > longestCycleNs;
        if (longest) {
            longestCycleNs = endNs - nowNs;
        }
        if (longest || endNs - lastCpuReadNs >= CPU_READ_INTERVAL_NS) {
            readCpu(endNs, endNs - nowNs, longest);
        }
        lastCycleEndNs = endNs;
        lastCycleAwake = !deepIdle.isDeep();
        lastCycleWork = work;
        return work;
    }

    /**
     * Reads the thread's CPU time: what it used since the last read is an upper bound of its own work in this cycle
     * (the last read was at most {@link #CPU_READ_INTERVAL_NS} of wall time before the previous cycle ended, so the
     * span adds at most that and the gap before this cycle, in which an awake agent parks). Time the thread was
     * stopped (a GC pause, a safepoint) or waited for a core is not CPU time: a long cycle with little CPU was not
     * the agent's own work.
     */
    private void readCpu(final long endNs, final long cycleNs, final boolean longest) {
        final long cpuNs = threadCpuClock.getAsLong();
        if (cpuNs < 0) {
            return;
        }
        if (lastCpuNs >= 0) {
            final long usedNs = cpuNs - lastCpuNs;
            if (usedNs > mostCycleCpuNs) {
                mostCycleCpuNs = usedNs;
                mostCycleCpuAtNs = endNs - startNs;
            }
            if (CPU_LOG_NS > 0 && usedNs > CPU_LOG_NS) {
                System.err.printf("%s: own CPU %.1f ms in a cycle of %.1f ms, %.3f s after start%n", roleName,
                    usedNs / 1e6, cycleNs / 1e6, (endNs - startNs) / 1e9);
            }
            if (longest) {
                longestCycleCpuNs = usedNs;
            }
        }
        lastCpuNs = cpuNs;
        lastCpuReadNs = endNs;
    }

    /**
     * The CPU time the agent thread used in its longest cycle (and at most about 1 ms before it), in ns; -1 if not
     * measured. Much less than {@link #longestCycleNs()} means that cycle was mostly the thread stopped (a GC pause,
     * a safepoint) or waiting for a core, not its own work. Any thread.
     */
    public long longestCycleCpuNs() {
        return longestCycleCpuNs;
    }

    /**
     * The most CPU time the agent thread used in one cycle (and at most about 1 ms before it) since it started, in
     * ns: an upper bound of the agent's own work per cycle, whatever stopped it; -1 if not measured. Any thread.
     */
    public long mostCycleCpuNs() {
        return mostCycleCpuNs;
    }

    /**
     * When the cycle of {@link #mostCycleCpuNs()} ended, in ns since the agent started: the first cycles (joining,
     * loading classes) are the longest own work on many nodes. Any thread.
     */
    public long mostCycleCpuAtNs() {
        return mostCycleCpuAtNs;
    }

    /**
     * The longest one duty cycle took since the agent started, in ns: how long the agent was deaf to
     * frames and late with heartbeats because of its own work (a large encode, a slow handler). Any thread.
     */
    public long longestCycleNs() {
        return longestCycleNs;
    }

    /**
     * The longest time between the end of one awake cycle and the start of the next since the agent
     * started, in ns: the idle park (at most 1 ms awake) plus any time the thread did not get a core
     * (a GC pause, a busy machine). Gaps after a deep-idle cycle, whose park is long on purpose, are left
     * out. Any thread.
     */
    public long longestGapNs() {
        return longestGapNs;
    }

    /**
     * Stops the node's network half, on the agent thread (or the thread that stepped it): the codec thread first, so
     * that what its tasks made is in their mechanisms' inboxes and what it dropped was given back (a task still running
     * after the close's 1 s wait is the exception: its output is not given back); then every duty
     * gives back what it holds ({@link Duty#onAgentClose}: off-heap frames, which a JVM of many nodes would otherwise
     * leak), and those that hold resources of their own close them; the transport last.
     */
    @Override
    public void onClose() {
        try {
            if (codec != null) {
                codec.close();
            }
            for (final Duty duty : duties) {
                try {
                    duty.onAgentClose();
                } catch (final RuntimeException e) {
                    onError(e);
                }
            }
            for (final Duty duty : duties) {
                if (duty instanceof AutoCloseable closeable) { // a duty that holds resources of its own (sockets)
                    try {
                        closeable.close();
                    } catch (final Exception e) {
                        onError(e);
                    }
                }
            }
        } finally {
            transport.close(); // whatever a duty threw (an Error too): links and the driver's directory must go
        }
    }

    /** Whether the node is in deep idle (nothing to do for a while); owning thread only. */
    public boolean isDeepIdle() {
        return deepIdle.isDeep();
    }

    /** How many times the node entered deep idle; any thread. */
    public long deepIdleEntries() {
        return deepIdle.entries();
    }

    /** Errors caught in the duty cycle or reported by the transport. */
    public long errorCount() {
        return errors.get();
    }

    /** Counts and reports an error; must be safe to call from the transport's callbacks on this thread. */
    public void onError(final Throwable t) {
        errors.incrementAndGet();
        try {
            errorHandler.onError(t);
        } catch (final Throwable ignore) {
            // The handler must not stop the agent either.
        }
    }

    /** The parts of an agent; {@link #build()} checks that each is there. */
    public static final class Builder {
        private Transport transport;
        private NanoClock clock;
        private CachedNanoClock cycleClock;
        private FrameDispatcher dispatcher;
        private final List<Duty> duties = new ArrayList<>();
        private BooleanSupplier quiescence = () -> false;
        private DeepIdle deepIdle;
        private ErrorHandler errorHandler;
        private Runnable onStart = () -> { };
        private LongSupplier threadCpuClock = ThreadCpuClock.currentThread();
        private CodecThread codec;

        private Builder() {
        }

        /** The node's codec thread: closed first when the agent closes ({@link NetworkAgent#onClose}). None by default. */
        public Builder codec(final CodecThread codec) {
            this.codec = codec;
            return this;
        }

        /** The agent thread's CPU time in ns, read on that thread (-1: not measured); by default the JVM's. */
        public Builder threadCpuClock(final LongSupplier threadCpuClock) {
            this.threadCpuClock = threadCpuClock;
            return this;
        }

        public Builder transport(final Transport transport) {
            this.transport = transport;
            return this;
        }

        /** The clock read once per cycle, and the cached copy mechanisms read during the cycle. */
        public Builder clock(final NanoClock clock, final CachedNanoClock cycleClock) {
            this.clock = clock;
            this.cycleClock = cycleClock;
            return this;
        }

        public Builder dispatcher(final FrameDispatcher dispatcher) {
            this.dispatcher = dispatcher;
            return this;
        }

        /** Adds a duty; duties run in the order added, after the cycle's frames. */
        public Builder duty(final Duty duty) {
            duties.add(Objects.requireNonNull(duty, "duty"));
            return this;
        }

        /** Whether the node has nothing in flight; asked once per cycle. Never quiescent by default. */
        public Builder quiescence(final BooleanSupplier quiescence) {
            this.quiescence = quiescence;
            return this;
        }

        public Builder deepIdle(final DeepIdle deepIdle) {
            this.deepIdle = deepIdle;
            return this;
        }

        /** Receives every error after it is counted; must not throw. */
        public Builder errorHandler(final ErrorHandler errorHandler) {
            this.errorHandler = errorHandler;
            return this;
        }

        /** Runs on the agent thread before the first cycle (membership starts joining here). */
        public Builder onStart(final Runnable onStart) {
            this.onStart = onStart;
            return this;
        }

        public NetworkAgent build() {
            Objects.requireNonNull(transport, "transport");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(cycleClock, "cycleClock");
            Objects.requireNonNull(dispatcher, "dispatcher");
            Objects.requireNonNull(quiescence, "quiescence");
            Objects.requireNonNull(deepIdle, "deepIdle");
            Objects.requireNonNull(errorHandler, "errorHandler");
            Objects.requireNonNull(onStart, "onStart");
            Objects.requireNonNull(threadCpuClock, "threadCpuClock");
            return new NetworkAgent(this);
        }
    }
}
