package org.divvy.mastership;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.RemoteJobException;
import org.divvy.RunReport;
import org.divvy.RunResult;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.lifecycle.NodeLifecycle;
import org.divvy.membership.MembershipListener;
import org.divvy.membership.Registry;
import org.divvy.membership.RootFlyweight;
import org.divvy.membership.RootKeeper;
import org.divvy.membership.RunResultFlyweight;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.Scheduler;
import org.divvy.stealing.JobTypeRegistry;
import org.divvy.transport.FrameHandler;

/**
 * A node's side of mastership (thesis §3.3, "the master may die"): roots go to the registry, which keeps
 * them and chooses their masters ({@link RootKeeper}); this node runs the roots the registry gives it and
 * reports how they ended.
 *
 * <ul>
 *   <li>{@link #runAsMaster}: this node's application runs a root itself; the registry keeps a copy (ROOT
 *       naming this node as master) in case this node dies, and is told when it ended (RUN_RESULT).
 *   <li>{@link #submit}: the registry chooses the master; the value comes back forwarded (RUN_RESULT).
 *   <li>A ROOT from the registry: this node is that root's master now. A thread of its own decodes the root,
 *       runs it on the scheduler (restarted if a master died before: its jobs look their stamps up in the
 *       orphan table, so the finished work of the others is reused) and reports the outcome. If the registry
 *       then answers that nobody waits for it (the submitter died too), this node ends the computation.
 * </ul>
 *
 * <p>Agent thread, except {@link #runAsMaster} and {@link #submit} (application threads) and the master
 * threads, which reach the agent only through {@link #outbox} and the pending submissions' futures.
 */
public final class Mastership implements Duty, MembershipListener {
    /** Longest value text a RUN_RESULT carries (what a standalone registry prints). */
    static final int MAX_VALUE_TEXT = 2_000;

    private final Scheduler scheduler;
    /** Shared objects in roots given to this node resolve here (the shared-data module); null without it. */
    private volatile SharedObjectContext sharedObjects;
    private final FrameSender sender;
    private final Supplier<String> registryEndpoint;
    private final JobTypeRegistry jobTypes;
    private final NodeLifecycle lifecycle;
    /** The registry's side when this node hosts it; else null. */
    private final RootKeeper keeper;
    private final Runnable announceRun;
    private final FrameCounters counters;
    private final ErrorHandler errorHandler;
    private final RootFlyweight root = new RootFlyweight();
    private final RunResultFlyweight result = new RunResultFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    /** ROOTs and RUN_RESULTs made by other threads, sent by the duty. */
    private final ConcurrentLinkedQueue<Outgoing> outbox = new ConcurrentLinkedQueue<>();
    /** Submissions waiting for their value, by run id. */
    private final Map<Long, CompletableFuture<Report>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger runCount = new AtomicInteger();
    /** Runs the registry gave this node (agent thread): a repeated ROOT starts nothing. */
    private final LongHashSet assigned = new LongHashSet();
    /** The exit code of each run this node mastered, for the registry's END notice (agent thread). */
    private final Long2LongHashMap exitCodes = new Long2LongHashMap(Long.MIN_VALUE);
    private volatile int selfId = -1;
    private volatile Runnable waker = () -> { };
    private volatile boolean closed;
    /** The agent stopped: nothing in the outbox will be sent, so what comes later is given back at once. */
    private volatile boolean agentClosed;
    private volatile long takeovers;
    /** How long a takeover waits before it re-runs the root: see {@code Orphans.RESTART_GRACE_NS}. */
    private final long takeoverGraceNs;
    private Outgoing unsent;

    public Mastership(final Scheduler scheduler, final FrameSender sender, final Supplier<String> registryEndpoint,
        final JobTypeRegistry jobTypes, final NodeLifecycle lifecycle, final RootKeeper keeper,
        final Runnable announceRun, final FrameCounters counters, final ErrorHandler errorHandler,
        final long takeoverGraceNs) {
        this.takeoverGraceNs = takeoverGraceNs;
        this.scheduler = scheduler;
        this.sender = sender;
        this.registryEndpoint = registryEndpoint;
        this.jobTypes = jobTypes;
        this.lifecycle = lifecycle;
        this.keeper = keeper;
        this.announceRun = announceRun;
        this.counters = counters;
        this.errorHandler = errorHandler;
    }

    /** Registers ROOT and RUN_RESULT: from the registry for this node's side, from members for the hosted registry's. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(RootFlyweight.TYPE, "ROOT", new RootFlyweight(), RootFlyweight.MIN_BODY_LENGTH, Senders.ANY,
            this::onRoot);
        dispatcher.register(RunResultFlyweight.TYPE, "RUN_RESULT", new RunResultFlyweight(),
            RunResultFlyweight.MIN_BODY_LENGTH, Senders.ANY, this::onRunResult);
    }

    /** How the agent is woken when another thread left something in the outbox. */
    public void waker(final Runnable waker) {
        this.waker = waker;
    }

    /** The node is closing: a root interrupted by it is not reported as failed (the registry gives it to another node). */
    public void close() {
        closed = true;
        for (final CompletableFuture<Report> f : pending.values()) {
            f.completeExceptionally(new DivvyException("the node closed before the run's value arrived"));
        }
    }

    /** The registry's side if this node hosts it, else null; tests (agent thread state). */
    public RootKeeper keeperForTest() {
        return keeper;
    }

    /** Roots this node took over from a master that died; any thread. */
    public long takeovers() {
        return takeovers;
    }

    // ---- application threads ---------------------------------------------------------------------

    /**
     * Runs {@code job} as the root of a run this node masters; the registry keeps {@code arguments} to give the
     * root to another node if this one dies. Application thread.
     */
    /** Lets roots given to this node carry shared objects, resolved to this node's replicas through {@code context}. */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
    }

    public <T> RunResult<T> runAsMaster(final Job job, final Consumer<WireWriter> arguments, final Runnable announce) {
        final long runId = nextRunId();
        send(root(runId, selfId, job, arguments));
        announce.run();
        final RunResult<T> run;
        try {
            run = scheduler.run(RootRuns.task(job));
        } catch (final RuntimeException | Error e) {
            if (!closed) {
                send(Outgoing.result(runId, RunResultFlyweight.OUTCOME_FAILED, "", failureText(e), new byte[0]));
            }
            throw e;
        } finally {
            runEnded(); // announce told the agent a run started here (NetworkNode.announceRun)
        }
        // the submitter is the master: the registry only needs to know the run ended (no value to forward)
        send(Outgoing.result(runId, RunResultFlyweight.OUTCOME_VALUE, "", "", new byte[0]));
        return run;
    }

    /** A run announced here ended: the agent tells the peers once none is left (RUN_ENDED). */
    private void runEnded() {
        lifecycle.runEnded();
        waker.run();
    }

    /** Hands the root to the registry and waits for the value a master reports. Application thread. */
    @SuppressWarnings("unchecked")
    public <T> RunReport<T> submit(final Job job, final Consumer<WireWriter> arguments) {
        final long runId = nextRunId();
        final Outgoing root = root(runId, RootFlyweight.NO_MASTER, job, arguments);
        final CompletableFuture<Report> future = new CompletableFuture<>();
        pending.put(runId, future);
        final long startNs = System.nanoTime();
        send(root);
        final Report report;
        try {
            report = future.get();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DivvyException("interrupted while waiting for the run's value");
        } catch (final ExecutionException e) {
            throw e.getCause() instanceof DivvyException d ? d : new DivvyException(e.getCause().toString(), e.getCause());
        } finally {
            pending.remove(runId);
        }
        final long elapsedNs = System.nanoTime() - startNs;
        if (report.outcome == RunResultFlyweight.OUTCOME_FAILED) {
            OffHeapFrame.releaseIfOffHeap(report.frame);
            final int newline = report.text.indexOf('\n');
            throw new RemoteJobException(job.type().name(), report.masterId,
                newline < 0 ? report.text : report.text.substring(0, newline),
                newline < 0 ? "" : report.text.substring(newline + 1), "");
        }
        try {
            job.readResult(new WireReader().wrap(report.result, 0, report.result.capacity()));
        } catch (final RuntimeException e) {
            throw new DivvyException("the value of root `" + job.type().name() + "` from node " + report.masterId +
                " could not be decoded: " + e.getMessage(), e);
        } finally {
            OffHeapFrame.releaseIfOffHeap(report.frame);
        }
        return new RunReport<>((T)job.boxedResult(), elapsedNs, report.masterId, report.takeovers, report.statistics);
    }

    /**
     * The ROOT frame of {@code job}, its arguments encoded by {@code arguments} straight into it. A root must travel
     * whole (to the registry, and from it to any master): one that cannot is refused here, on the caller's thread,
     * instead of failing on the agent thread while the caller waits forever; its encode stops at the bound.
     */
    private Outgoing root(final long runId, final int masterId, final Job job, final Consumer<WireWriter> arguments) {
        final String typeName = job.type().name();
        final int maxFrameBytes = sender.maxFrameBytes();
        try {
            return new Outgoing(runId, masterId, typeName, arguments, maxFrameBytes, sender::ownFrame);
        } catch (final WireLimitException e) {
            throw new DivvyException("the root `" + typeName + "` takes more than maxMessageBytes=" + maxFrameBytes +
                " bytes encoded: a root travels whole to the registry and to any master; raise maxMessageBytes " +
                "(--max-message-bytes, at most 2047 MiB) or start the run with DivvyNode.run(RootTask)");
        }
    }

    private long nextRunId() {
        final int id = selfId;
        if (id < 0) {
            throw new DivvyException("the node has not joined yet");
        }
        return ((long)id << 32) | (runCount.incrementAndGet() & 0xFFFF_FFFFL);
    }

    private void send(final Outgoing outgoing) {
        outbox.add(outgoing);
        waker.run();
        if (agentClosed) {
            releaseOutbox(); // made after the agent gave back what it held: given back here (each frame once: poll)
        }
    }

    /** Gives back the frames of the ROOTs and RUN_RESULTs not sent; any thread (each is taken from the queue once). */
    private void releaseOutbox() {
        Outgoing o;
        while ((o = outbox.poll()) != null) {
            OffHeapFrame.releaseIfOffHeap(o.frame);
        }
    }

    // ---- agent thread ------------------------------------------------------------------------------

    @Override
    public void onJoined(final int id) {
        selfId = id;
    }

    @Override
    public void onRegistryLost(final String message) {
        for (final CompletableFuture<Report> f : pending.values()) {
            f.completeExceptionally(new DivvyException("the registry was lost before the run's value arrived: " + message));
        }
    }

    @Override
    public boolean isHousekeeping() {
        return false;
    }

    /** Paced: roots and run results of application and master threads, the root keeper's takeovers. */
    @Override
    public boolean isPaced() {
        return true;
    }

    /** Sends what other threads left in the outbox (one at a time, in order; a refused send is tried next cycle). */
    @Override
    public int doWork(final long nowNs) {
        int work = keeper == null ? 0 : keeper.doWork(nowNs);
        while (true) {
            final Outgoing next = unsent != null ? unsent : outbox.poll();
            if (next == null) {
                return work;
            }
            if (!sendNow(next)) {
                unsent = next;
                return work;
            }
            unsent = null;
            work++;
        }
    }

    /**
     * The node closes: the ROOTs and RUN_RESULTs other threads made and the agent did not send give their frames back,
     * as do the roots and values the registry hosted here keeps.
     */
    @Override
    public void onAgentClose() {
        agentClosed = true;
        if (unsent != null) {
            OffHeapFrame.releaseIfOffHeap(unsent.frame);
            unsent = null;
        }
        releaseOutbox();
        if (keeper != null) {
            keeper.onAgentClose();
        }
    }

    /** Sends a frame built on the thread that made it: a large root or value is neither built nor copied here. */
    private boolean sendNow(final Outgoing o) {
        if (o.isRoot) {
            header.wrap(o.frame, 0, o.length);
            header.senderId(selfId);
        } else {
            result.wrap(o.frame, 0, o.length);
            result.masterId(selfId).senderId(selfId);
        }
        if (!sender.sendOwnedToEndpoint(registryEndpoint.get(), o.frame, o.length)) {
            return false;
        }
        if (!o.isRoot && (o.outcome == RunResultFlyweight.OUTCOME_VALUE || o.outcome == RunResultFlyweight.OUTCOME_FAILED)) {
            exitCodes.put(o.runId, o.outcome == RunResultFlyweight.OUTCOME_VALUE ? 0 : 1);
        }
        return true;
    }

    private int onRoot(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        final RootFlyweight r = (RootFlyweight)root.wrap(buffer, offset, length);
        if (senderId != Registry.REGISTRY_ID) {
            if (keeper == null || !keeper.onRoot(senderId, r, buffer)) {
                FrameCounters.count(counters.fromUnknownSender);
            }
            return 1;
        }
        final long runId = r.runId();
        if (!assigned.add(runId)) {
            return 0; // this node runs it already
        }
        final String typeName = r.jobTypeName();
        final DirectBuffer arguments = keep(buffer, offset + r.argumentsOffset(), r.argumentsLength(), length);
        final DirectBuffer frame = length > FrameHandler.OWN_BUFFER_MIN_BYTES ? buffer : null; // kept until decoded
        final int takeoversBefore = r.takeovers();
        final Thread master = new Thread(() -> runAssigned(runId, takeoversBefore, typeName, arguments, frame),
            "divvy-master-run-" + (runId >>> 32) + "." + (int)runId);
        master.setDaemon(true);
        master.start();
        return 1;
    }

    private int onRunResult(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        final RunResultFlyweight r = (RunResultFlyweight)result.wrap(buffer, offset, length);
        if (senderId != Registry.REGISTRY_ID) {
            if (keeper == null || !keeper.onRunResult(senderId, r, buffer, offset, length)) {
                FrameCounters.count(counters.fromUnknownSender);
            }
            return 1;
        }
        if (r.outcome() == RunResultFlyweight.OUTCOME_END_NOTICE) {
            final long code = exitCodes.get(r.runId());
            if (code != Long.MIN_VALUE) {
                lifecycle.requestTerminate((int)code); // nobody else is left to end it
            }
            return 1;
        }
        // the registry keeps the run until told its outcome arrived (a forward that comes twice is answered twice)
        send(Outgoing.result(r.runId(), RunResultFlyweight.OUTCOME_RECEIVED, "", "", new byte[0]));
        final CompletableFuture<Report> future = pending.get(r.runId());
        if (future == null) {
            FrameCounters.count(counters.fromUnknownSender); // no submission of this node waits for it
            return 0;
        }
        final DirectBuffer value = keep(buffer, offset + r.resultOffset(), r.resultLength(), length);
        final DirectBuffer frame = length > FrameHandler.OWN_BUFFER_MIN_BYTES ? buffer : null;
        if (!future.complete(new Report(r.masterId(), r.takeovers(), r.outcome(), r.statistics(), r.text(), value, frame))) {
            OffHeapFrame.releaseIfOffHeap(frame); // nobody waits for it any more
        }
        return 1;
    }

    /**
     * The part of a received frame another thread reads later: a view of a large frame's own buffer (the transport
     * gave it to this handler; nothing is copied on the agent thread), with a reference to it that the reader gives
     * back ({@link OffHeapFrame#releaseIfOffHeap} of the frame), or a copy of a part of a small one.
     */
    private static DirectBuffer keep(final DirectBuffer buffer, final int at, final int partLength, final int frameLength) {
        if (frameLength > FrameHandler.OWN_BUFFER_MIN_BYTES) {
            OffHeapFrame.retainIfOffHeap(buffer);
            return new UnsafeBuffer(buffer, at, partLength);
        }
        final byte[] copy = new byte[partLength];
        buffer.getBytes(at, copy);
        return new UnsafeBuffer(copy);
    }

    // ---- master threads ----------------------------------------------------------------------------

    /** Runs a root the registry gave this node and reports how it ended. A thread of its own. */
    /** {@code frame}: the large ROOT frame {@code arguments} is a view of (a reference, given back once decoded), or null. */
    private void runAssigned(final long runId, final int takeoversBefore, final String typeName, final DirectBuffer arguments,
        final DirectBuffer frame) {
        final boolean takeover = takeoversBefore > 0;
        if (takeover) {
            takeovers++;
        }
        final JobType type = jobTypes.get(typeName);
        if (type == null) {
            OffHeapFrame.releaseIfOffHeap(frame);
            send(Outgoing.result(runId, RunResultFlyweight.OUTCOME_FAILED, "", DivvyException.class.getName() +
                "\nthe root's job type `" + typeName + "` is unknown on node " + selfId, new byte[0]));
            return;
        }
        lifecycle.mastering(true);
        boolean announced = false;
        try {
            // shared objects in the root resolve to this node's replicas, fetched from whoever holds them (the submitter)
            final Job job;
            try {
                job = type.decode(new WireReader().sharedObjects(sharedObjects, -1).wrap(arguments, 0, arguments.capacity()));
            } finally {
                OffHeapFrame.releaseIfOffHeap(frame); // decoded (or not): the frame's bytes are not read again
            }
            if (takeover) {
                // idle peers: a run is active again, its tables kept (RUN_RESUMED); said before the root's shared
                // objects arrive, since a survivor holding no job of another node steals only in a run it knows of,
                // and the orphan subtrees the survivors hold need thieves now
                announced = true;
                lifecycle.requestRunResumed();
                waker.run();
            }
            scheduler.awaitSharedObjects(job);
            if (!takeover) {
                announced = true;
                announceRun.run(); // a run starts: idle peers steal at once (a takeover keeps the run's orphan tables)
            } else {
                // the survivors learnt of the master's death with the registry: let their orphans be announced first
                LockSupport.parkNanos(takeoverGraceNs);
            }
            final RunResult<Object> run = scheduler.run(RootRuns.task(job), takeover);
            final String statistics = String.valueOf(run.statistics());
            final String text = clip(String.valueOf(run.value()));
            final Outgoing value;
            try {
                value = new Outgoing(runId, statistics, text, job::writeResult, sender.maxFrameBytes(), sender::ownFrame);
            } catch (final WireLimitException e) {
                // the value cannot travel: the submitter gets a failure naming the setting instead of waiting forever
                send(Outgoing.result(runId, RunResultFlyweight.OUTCOME_FAILED, "", DivvyException.class.getName() +
                    "\nthe value of root `" + typeName + "` takes more than maxMessageBytes=" + sender.maxFrameBytes() +
                    " bytes encoded (--max-message-bytes, at most 2047 MiB)", new byte[0]));
                return;
            }
            send(value);
        } catch (final Throwable e) {
            if (closed) {
                return; // this node is leaving: the registry gives the root to another node
            }
            send(Outgoing.result(runId, RunResultFlyweight.OUTCOME_FAILED, "", failureText(e), new byte[0]));
            if (e instanceof Error && !(e instanceof StackOverflowError) && !(e instanceof OutOfMemoryError)) {
                errorHandler.onError(e);
            }
        } finally {
            if (announced) {
                runEnded();
            }
            lifecycle.mastering(false);
        }
    }

    private static String failureText(final Throwable e) {
        final String message = e.getMessage();
        return clip(e.getClass().getName() + "\n" + (message == null ? "" : message));
    }

    /** A text short enough for a RUN_RESULT whatever the value or message (a standalone registry prints it). */
    private static String clip(final String text) {
        return text.length() > MAX_VALUE_TEXT ? text.substring(0, MAX_VALUE_TEXT) + "..." : text;
    }

    /** A forwarded RUN_RESULT, for a waiting {@link #submit}. */
    /** {@code frame}: the large RUN_RESULT frame {@code result} is a view of (a reference the reader gives back), or null. */
    private record Report(int masterId, int takeovers, int outcome, String statistics, String text, DirectBuffer result,
        DirectBuffer frame) {
    }

    /**
     * A ROOT or a RUN_RESULT to send to the registry, its frame built by the thread that made it (an application
     * or master thread, not the agent thread); the agent stamps the sender id and hands the frame to the transport
     * as it is. A root's arguments and a value are measured first (a {@link WireWriter#sizer()}), then encoded
     * once straight into a frame of exactly their size: before, a writer that grew by doubling, its copy out and
     * the copy into the frame were each one uninterruptible step of up to 200 MB (the 50M-int mergesort), which
     * held every safepoint of the JVM, the agent's too.
     */
    private static final class Outgoing {
        final boolean isRoot;
        final long runId;
        final int outcome;
        /** The frame, handed to the transport when sent (an {@code OffHeapFrame} if large). */
        final MutableDirectBuffer frame;
        final int length;

        /**
         * A ROOT, its arguments written by {@code arguments} into a frame {@code frames} makes (off the heap for the
         * transport's senders); throws {@link WireLimitException} past the bound.
         */
        Outgoing(final long runId, final int masterId, final String typeName, final Consumer<WireWriter> arguments,
            final int maxFrameBytes, final IntFunction<MutableDirectBuffer> frames) {
            this.isRoot = true;
            this.runId = runId;
            this.outcome = -1;
            final int at = RootFlyweight.argumentsOffset(typeName);
            final WireWriter writer = encodeAt(at, arguments, maxFrameBytes, frames);
            frame = writer.buffer();
            final RootFlyweight root = new RootFlyweight();
            root.wrap(frame, 0, frame.capacity());
            root.headerDefaults(RootFlyweight.TYPE);
            root.rootAround(runId, masterId, 0, typeName, writer.length() - at);
            length = root.frameLength();
        }

        /** A RUN_RESULT with a value written by {@code value}; throws {@link WireLimitException} past the bound. */
        Outgoing(final long runId, final String statistics, final String text, final Consumer<WireWriter> value,
            final int maxFrameBytes, final IntFunction<MutableDirectBuffer> frames) {
            this.isRoot = false;
            this.runId = runId;
            this.outcome = RunResultFlyweight.OUTCOME_VALUE;
            final int at = RunResultFlyweight.resultOffset(statistics, text);
            final WireWriter writer = encodeAt(at, value, maxFrameBytes, frames);
            frame = writer.buffer();
            final RunResultFlyweight result = new RunResultFlyweight();
            result.wrap(frame, 0, frame.capacity());
            result.headerDefaults(RunResultFlyweight.TYPE);
            result.resultAround(runId, -1, 0, outcome, statistics, text, writer.length() - at);
            length = result.frameLength();
        }

        /**
         * A writer into a frame of exactly {@code at} bytes (the frame's fixed part, written after) plus what
         * {@code body} writes; the frame is given back if the encode fails.
         */
        private static WireWriter encodeAt(final int at, final Consumer<WireWriter> body, final int maxFrameBytes,
            final IntFunction<MutableDirectBuffer> frames) {
            final WireWriter sizer = WireWriter.sizer().limit(maxFrameBytes).skip(at);
            body.accept(sizer);
            final MutableDirectBuffer out = frames.apply(sizer.length());
            try {
                final WireWriter writer = WireWriter.into(out).limit(maxFrameBytes).skip(at);
                body.accept(writer);
                return writer;
            } catch (final RuntimeException | Error e) {
                OffHeapFrame.releaseIfOffHeap(out);
                throw e;
            }
        }

        /** A RUN_RESULT. */
        private Outgoing(final long runId, final int outcome, final String statistics, final String text,
            final byte[] value) {
            this.isRoot = false;
            this.runId = runId;
            this.outcome = outcome;
            final RunResultFlyweight result = new RunResultFlyweight();
            final UnsafeBuffer small = new UnsafeBuffer(new byte[(int)RunResultFlyweight.lengthBound(statistics, text, value.length)]);
            frame = small;
            result.wrap(frame, 0, frame.capacity());
            result.headerDefaults(RunResultFlyweight.TYPE);
            result.result(runId, -1, 0, outcome, statistics, text, new UnsafeBuffer(value), 0, value.length);
            length = result.frameLength();
        }

        static Outgoing result(final long runId, final int outcome, final String statistics, final String text,
            final byte[] value) {
            return new Outgoing(runId, outcome, statistics, text, value);
        }
    }
}
