package org.divvy.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.divvy.transport.Transport;

/**
 * A node's network agent: the one thread that touches the transport. Each duty cycle reads the clock
 * once (into the {@link CachedNanoClock} the mechanisms read), steps the transport's driver, dispatches
 * received frames to the handlers mechanisms registered, runs each mechanism's {@link Duty}, retries
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

    private final String roleName;
    private final Transport transport;
    private final NanoClock clock;
    private final CachedNanoClock cycleClock;
    private final FrameDispatcher dispatcher;
    private final Duty[] duties;
    private final BooleanSupplier quiescence;
    private final DeepIdle deepIdle;
    private final ErrorHandler errorHandler;
    private final Runnable onStart;
    private final AtomicLong errors = new AtomicLong();
    /** Longest duty cycle and longest gap between two awake cycles since start; written by the agent thread only. */
    private volatile long longestCycleNs;
    private volatile long longestGapNs;
    private long lastCycleEndNs;
    private boolean lastCycleAwake;

    private NetworkAgent(final Builder b) {
        roleName = "divvy-network-" + b.transport.endpoint();
        transport = b.transport;
        clock = b.clock;
        cycleClock = b.cycleClock;
        dispatcher = b.dispatcher;
        duties = b.duties.toArray(new Duty[0]);
        quiescence = b.quiescence;
        deepIdle = b.deepIdle;
        errorHandler = b.errorHandler;
        onStart = b.onStart;
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
        cycleClock.update(clock.nanoTime());
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
        } catch (final Throwable t) {
            onError(t);
            work++;
        }
        computation += dispatcher.takeComputationWork();
        for (final Duty duty : duties) {
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
            if (computation > 0 || !quiescence.getAsBoolean()) {
                deepIdle.onActivity(nowNs);
            } else {
                deepIdle.onQuiet(nowNs);
            }
        } catch (final Throwable t) {
            onError(t);
            work++;
        }
        final long endNs = clock.nanoTime();
        if (endNs - nowNs > longestCycleNs) {
            longestCycleNs = endNs - nowNs;
        }
        lastCycleEndNs = endNs;
        lastCycleAwake = !deepIdle.isDeep();
        return work;
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

    @Override
    public void onClose() {
        transport.close();
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

        private Builder() {
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
            return new NetworkAgent(this);
        }
    }
}
