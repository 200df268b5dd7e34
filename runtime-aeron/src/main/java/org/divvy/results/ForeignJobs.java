package org.divvy.results;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.agent.CodecInbox;
import org.divvy.agent.CodecThread;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.codegen.Job;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.RecoveryHook;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;

/**
 * The thief side of results and aborts: jobs this node stole and runs for remote owners. Stealing
 * {@link #adopt adopts} a decoded job here; when it ends, its outcome (result, failure or abort) goes back
 * to its owner as JOB_RESULT; an owner's ABORT, an owner's death or the end of the computation cancels it.
 * An owner's death or its ORPHAN_PROPAGATION makes the job an orphan (thesis §3.3 step 2): it is marked so
 * before it is asked to stop, the frames that unwind hand their finished children to the
 * {@link RecoveryHook}, and if the job itself finished, the hook keeps it instead of sending it. The same
 * path returns orphan results this node holds to nodes that ask for them ({@link #returnHeld}).
 *
 * <p>A result that encodes in {@link CodecThread#INLINE_BYTES} is encoded and sent on the agent thread; a
 * larger one is encoded on the {@link CodecThread} into a frame of its own, which comes back through
 * {@link #encodedInbox}. An outcome that cannot be sent now (its owner's queue is full) waits here and is
 * sent again each cycle, without encoding it again; only the owner's death or departure drops it. A result
 * larger than {@code maxMessageBytes} fails the owner's {@code sync()} with an error naming the setting.
 * A stolen job being decoded off the agent thread is {@link #expect expected} here, so an ABORT or its
 * owner's death meanwhile still cancels it.
 *
 * <p>Single writer: the network agent thread owns the table and the encoders (handler, duty, membership
 * events), except {@link #cancelAll} once that thread has stopped. Workers reach it only through
 * {@link #endedQueue}, which {@link ForeignJob#onRemoteJobEnded} fills, the codec thread only through
 * {@link #encodedInbox}; the counters are read by any thread.
 */
public final class ForeignJobs implements Duty, MembershipListener {
    /** The longest exception text sent back (each of class name, message, stack trace), in chars. */
    static final int MAX_EXCEPTION_TEXT_CHARS = 16 * 1024;

    /**
     * The most results a node keeps after sending them to their owners, in case an owner dies (oldest dropped
     * first): one per job stolen by this node in a run, so a run rarely comes near it; 65,536 small jobs are a
     * few MiB.
     */
    public static final int MAX_RETAINED_SENT = 1 << 16;

    /**
     * The most bytes those kept results may hold, counted as their jobs' encoded arguments plus their encoded results
     * (64 MiB; the oldest dropped first): without it, 65,536 jobs with arguments of up to 64 KiB each could hold 8 GiB.
     * Only jobs whose arguments and result were each at most 64 KiB encoded are kept at all: a job that came with a
     * large argument (decoded on the codec thread) would keep that memory for the whole run.
     */
    public static final long MAX_RETAINED_SENT_BYTES = 64L << 20;

    /** {@link #adopt}'s argument size for a job whose arguments were decoded off the agent thread (larger than 64 KiB). */
    public static final int LARGE_ARGUMENTS = Integer.MAX_VALUE;

    private static final System.Logger LOG = System.getLogger(ForeignJobs.class.getName());

    /** Foreign jobs that ended here; filled by workers, drained by the agent thread. */
    final ConcurrentLinkedQueue<ForeignJob> endedQueue = new ConcurrentLinkedQueue<>();

    /** A large result encoded on the codec thread: its JOB_RESULT frame, or why it could not be. */
    private static final class EncodedResult {
        final ForeignJob ended;
        MutableDirectBuffer frame;
        int frameLength;
        Throwable failure;

        EncodedResult(final ForeignJob ended) {
            this.ended = ended;
        }
    }

    /** A stolen job being decoded on the codec thread: whether an abort or its owner's end cancelled it meanwhile. */
    private static final class Expected {
        final int ownerId;
        final long ownerJobId;
        boolean cancelled;

        Expected(final int ownerId, final long ownerJobId) {
            this.ownerId = ownerId;
            this.ownerJobId = ownerJobId;
        }
    }

    /** Large results encoded on the codec thread; drained by the duty. */
    private final CodecInbox<EncodedResult> encodedInbox = new CodecInbox<>(r -> OffHeapFrame.releaseIfOffHeap(r.frame));
    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;
    private final CodecThread codec;
    private final int maxFrameBytes;

    // Agent thread only.
    private final Int2ObjectHashMap<Long2ObjectHashMap<ForeignJob>> byOwner = new Int2ObjectHashMap<>();
    /** This node leaves gracefully: the outcomes of the jobs it orphaned are not sent (see {@link #orphanAllForLeaving}). */
    private boolean leaving;
    /** Encoded large outcomes in the order they came, waiting for room in their owner's queue. */
    private final ArrayDeque<EncodedResult> unsentLarge = new ArrayDeque<>();
    private final List<Expected> expected = new ArrayList<>();
    private int encoding;
    private final WireWriter resultWriter = new WireWriter(256);
    private final JobResultFlyweight jobResult = new JobResultFlyweight();
    private final AbortFlyweight abort = new AbortFlyweight();
    private ForeignJob unsentEnded;
    /**
     * Small results sent to their owners in this run, oldest first, at most {@link #maxRetainedSent} (older
     * ones dropped first), each for at most {@link #retainSentNs}. A result delivered to an owner lives only in
     * the owner's frames until its ancestors finish; if the owner crashes first, it is lost with it (thesis
     * §3.3 keeps nothing once delivered) and whoever restarts the owner's stolen job recomputes it. Kept here,
     * it becomes a finished orphan when the owner is declared dead, and the restarted job reuses it: so the
     * work survivors did for a node that dies is saved however long ago they returned it. The window must at
     * least cover the failure detector's delay (results sent to an owner already dead but not yet declared).
     */
    private final ArrayDeque<ForeignJob> recentlySent = new ArrayDeque<>();
    private final long retainSentNs;
    private final int maxRetainedSent;
    /** The bytes {@link #recentlySent} holds, as {@link #MAX_RETAINED_SENT_BYTES} counts them. */
    private long retainedSentBytes;
    /** Runs started since this node joined: a job adopted in an earlier run is never kept in this one. */
    private long runsStarted;

    // Counters: written by the agent thread only, read by any.
    private volatile long remoteJobsRun;
    private volatile long heldResultsReturned;

    /**
     * @param retainSentNs    how long a result sent to its owner is kept, to be reused should the owner be
     *                        declared dead meanwhile: at least the failure detector's delay ({@code Long.MAX_VALUE}:
     *                        while the run lasts)
     * @param maxRetainedSent the most results kept after sending (the oldest go first): a bound on the memory
     *                        they hold, each a job with its arguments and a result of at most 64 KiB encoded
     */
    public ForeignJobs(final Scheduler scheduler, final Members members, final FrameSender sender, final CodecThread codec,
        final long retainSentNs, final int maxRetainedSent) {
        this.retainSentNs = retainSentNs;
        this.maxRetainedSent = maxRetainedSent;
        this.scheduler = scheduler;
        this.members = members;
        this.sender = sender;
        this.codec = codec;
        this.maxFrameBytes = sender.maxFrameBytes();
        resultWriter.limit(CodecThread.INLINE_BYTES); // a larger result is encoded on the codec thread
    }

    /** Registers ABORT and ORPHAN_PROPAGATION, the messages this side receives. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(AbortFlyweight.TYPE, "ABORT", new AbortFlyweight(), AbortFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, (senderId, buffer, offset, length) -> onAbort(senderId, buffer, offset, length, false));
        dispatcher.register(AbortFlyweight.ORPHAN_PROPAGATION_TYPE, "ORPHAN_PROPAGATION", new AbortFlyweight(),
            AbortFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS,
            (senderId, buffer, offset, length) -> onAbort(senderId, buffer, offset, length, true));
    }

    /** Orphan results this node held and sent to nodes that asked for them. */
    public long heldResultsReturned() {
        return heldResultsReturned;
    }

    /**
     * Sends {@code job}'s result (a finished orphan this node holds) to {@code requesterId}, quoting its id
     * {@code requesterJobId}, as a stolen job's outcome goes to its owner (large ones encoded off this thread).
     */
    public void returnHeld(final Job job, final int requesterId, final long requesterJobId) {
        endedQueue.add(new ForeignJob(this, job, requesterId, requesterJobId, true));
    }

    /** Foreign jobs whose outcome was sent to their owner. */
    public long remoteJobsRun() {
        return remoteJobsRun;
    }

    /** No job held for a remote owner and no outcome waiting to be sent. */
    public boolean isEmpty() {
        if (unsentEnded != null || !endedQueue.isEmpty() || encoding > 0 || !unsentLarge.isEmpty() || !expected.isEmpty()) {
            return false;
        }
        for (final Long2ObjectHashMap<ForeignJob> byId : byOwner.values()) {
            if (!byId.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs a job stolen from {@code ownerId} here, with the stamp its owner gave it; when the computation
     * is already over it is cancelled at once, so it reports aborted.
     */
    public void adopt(final Job job, final Stamp stamp, final boolean restarted, final int ownerId, final long ownerJobId,
        final int argumentsBytes, final boolean computationOver) {
        final Expected wasExpected = takeExpected(ownerId, ownerJobId);
        final boolean cancelled = computationOver || (wasExpected != null && wasExpected.cancelled) || !members.isAlive(ownerId);
        final ForeignJob foreign = new ForeignJob(this, job, ownerId, ownerJobId, false);
        foreign.run = runsStarted;
        foreign.argumentsBytes = argumentsBytes;
        foreign.adopt(stamp, restarted);
        Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        if (byId == null) {
            byId = new Long2ObjectHashMap<>();
            byOwner.put(ownerId, byId);
        }
        byId.put(ownerJobId, foreign);
        if (cancelled) {
            foreign.requestCancel();
        }
        scheduler.submitRemote(job);
    }

    /**
     * A job stolen from {@code ownerId} is being decoded off the agent thread: an ABORT or the owner's
     * end until it is {@link #adopt adopted} (or {@link #rejectUndecodable rejected}) cancels it then.
     */
    public void expect(final int ownerId, final long ownerJobId) {
        expected.add(new Expected(ownerId, ownerJobId));
    }

    private Expected takeExpected(final int ownerId, final long ownerJobId) {
        for (int i = 0, size = expected.size(); i < size; i++) {
            final Expected e = expected.get(i);
            if (e.ownerId == ownerId && e.ownerJobId == ownerJobId) {
                expected.remove(i);
                return e;
            }
        }
        return null;
    }

    private void cancelExpected(final int ownerId, final long ownerJobId, final boolean anyJob) {
        for (final Expected e : expected) {
            if ((ownerId < 0 || e.ownerId == ownerId) && (anyJob || e.ownerJobId == ownerJobId)) {
                e.cancelled = true;
            }
        }
    }

    /** A stolen job could not be decoded: the owner gets the failure instead of waiting forever. */
    public void rejectUndecodable(final int ownerId, final long ownerJobId, final String problem) {
        takeExpected(ownerId, ownerJobId);
        LOG.log(System.Logger.Level.ERROR, problem);
        sendFailure(ownerId, ownerJobId, DivvyException.class.getName(), problem, "");
    }

    /**
     * The owner aborted jobs this node runs for it: they stop at their next spawn or sync, then report
     * ABORTED; as orphans ({@code orphaned}: ORPHAN_PROPAGATION) they keep their finished parts first.
     */
    private int onAbort(final int ownerId, final DirectBuffer buffer, final int offset, final int length,
        final boolean orphaned) {
        abort.wrap(buffer, offset, length);
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        for (int i = 0, count = abort.count(); i < count && byId != null; i++) {
            final ForeignJob foreign = byId.get(abort.jobId(i));
            if (foreign != null) {
                if (orphaned) {
                    foreign.markOrphaned();
                }
                foreign.requestCancel();
            }
        }
        for (int i = 0, count = abort.count(); i < count && !expected.isEmpty(); i++) {
            cancelExpected(ownerId, abort.jobId(i), false);
        }
        return 1;
    }

    /**
     * Jobs this node runs for a member that died or left are orphans: they stop, and what they finished
     * is kept (marked before they are asked to stop, so every frame that unwinds sees the mark).
     */
    @Override
    public void onMemberChanged(final Member member) {
        if (member.isAlive() || member.id() == members.selfId()) {
            return;
        }
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(member.id());
        if (byId != null) {
            for (final ForeignJob foreign : byId.values()) {
                foreign.markOrphaned();
                foreign.requestCancel();
            }
        }
        final RecoveryHook hook = scheduler.recoveryHook();
        for (final Iterator<ForeignJob> it = recentlySent.iterator(); it.hasNext(); ) {
            final ForeignJob sent = it.next();
            if (sent.ownerId == member.id()) {
                it.remove();
                retainedSentBytes -= sent.retainedBytes();
                if (hook != null) { // its result went to a node that was dead already: keep it as an orphan
                    sent.markOrphaned();
                    hook.onFinishedOrphan(sent.job, sent);
                }
            }
        }
        cancelExpected(member.id(), 0, true);
    }

    /**
     * This node leaves gracefully: every job it runs for an owner becomes an orphan as if its owner had died
     * (aborted; the finished parts of each are kept, and handed to a staying node), and jobs still being
     * decoded are dropped. The owners recompute them once the registry lists this node as gone.
     */
    public void orphanAllForLeaving() {
        leaving = true;
        for (final Long2ObjectHashMap<ForeignJob> byId : byOwner.values()) {
            for (final ForeignJob foreign : byId.values()) {
                foreign.markOrphaned();
                foreign.requestCancel();
            }
        }
        cancelExpected(-1, 0, true);
    }

    /**
     * A run started: orphans of the last one that are still unwinding keep nothing more, and results sent
     * in it are not kept any longer (their stamps name that run's jobs).
     */
    public void onRunStarted() {
        runsStarted++;
        for (final Long2ObjectHashMap<ForeignJob> byId : byOwner.values()) {
            for (final ForeignJob foreign : byId.values()) {
                foreign.clearOrphaned();
            }
        }
        recentlySent.clear();
        retainedSentBytes = 0;
    }

    /** The registry is lost: no outcome can reach an owner any more. */
    @Override
    public void onRegistryLost(final String message) {
        cancelAll();
    }

    /**
     * Asks every job this node runs for a remote owner to stop: on the agent thread (the computation
     * ended), or on another once the agent thread has stopped (its table is then safe to read).
     */
    public void cancelAll() {
        for (final Long2ObjectHashMap<ForeignJob> byId : byOwner.values()) {
            for (final ForeignJob foreign : byId.values()) {
                foreign.requestCancel();
            }
        }
        cancelExpected(-1, 0, true);
    }

    /** Sends the outcomes of jobs that ended here for remote owners: large ones encoded meanwhile first. */
    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        while (!recentlySent.isEmpty() && nowNs - recentlySent.peekFirst().sentAtNs > retainSentNs) {
            retainedSentBytes -= recentlySent.pollFirst().retainedBytes();
        }
        EncodedResult encoded;
        while ((encoded = encodedInbox.poll()) != null) {
            encoding--;
            unsentLarge.addLast(encoded);
        }
        while (!unsentLarge.isEmpty()) {
            final EncodedResult r = unsentLarge.peekFirst();
            if (keptAsOrphan(r.ended) || (leaving && r.ended.isOrphaned())) {
                unsentLarge.pollFirst();
                OffHeapFrame.releaseIfOffHeap(r.frame);
                forget(r.ended);
                continue;
            }
            if (members.isAlive(r.ended.ownerId)) {
                final boolean sent = r.failure == null ? sender.sendOwnedTo(r.ended.ownerId, r.frame, r.frameLength)
                    : sendEncodeFailure(r.ended, r.failure);
                if (!sent) {
                    return work; // its owner's queue is full: again next cycle, not encoded again
                }
                count(r.ended, nowNs);
                work++;
            } else {
                OffHeapFrame.releaseIfOffHeap(r.frame);
            }
            unsentLarge.pollFirst();
            forget(r.ended); // sent, or the owner is gone: nobody waits for this outcome
        }
        for (;;) {
            final ForeignJob ended = unsentEnded != null ? unsentEnded : endedQueue.poll();
            unsentEnded = null;
            if (ended == null) {
                return work;
            }
            if (keptAsOrphan(ended) || !members.isAlive(ended.ownerId) || (leaving && ended.isOrphaned())) {
                forget(ended);
                // the owner is gone, or dropped the job as an orphan, or this node is leaving (the owner recomputes
                // the job once the registry lists this node as gone): nobody waits for this outcome
                continue;
            }
            final int outcome = sendOutcome(ended);
            if (outcome == NOT_SENT) {
                unsentEnded = ended; // its queue is full: again next cycle
                return work;
            }
            work++;
            if (outcome == SENT) {
                forget(ended);
                count(ended, nowNs);
            }
        }
    }

    /**
     * The node closes: the large results encoded and not sent (their owner's queue was full, or the duty did not run
     * again) give their frames back, and so does one whose encode outlasted the codec thread's close.
     */
    @Override
    public void onAgentClose() {
        EncodedResult encoded;
        while ((encoded = unsentLarge.pollFirst()) != null) {
            OffHeapFrame.releaseIfOffHeap(encoded.frame);
        }
        encodedInbox.close();
    }

    /**
     * Whether {@code ended} finished with a value while an orphan (its owner died, or declared it an orphan
     * and no longer waits for it): then the recovery hook keeps it, to give it to whoever recomputes it.
     */
    private boolean keptAsOrphan(final ForeignJob ended) {
        if (ended.heldResult || !ended.isDone() || (!ended.isOrphaned() && members.isAlive(ended.ownerId))) {
            return false;
        }
        if (ended.run != runsStarted) {
            return true; // a job of an earlier run: its stamp means nothing now; nobody waits for it either
        }
        final RecoveryHook hook = scheduler.recoveryHook();
        if (hook != null) {
            ended.markOrphaned(); // its owner died (perhaps before it was marked): the kept result counts while this run lasts
            hook.onFinishedOrphan(ended.job, ended);
        }
        return hook != null;
    }

    private void count(final ForeignJob sent, final long nowNs) {
        if (sent.heldResult) {
            heldResultsReturned++;
            return;
        }
        remoteJobsRun++;
        if (sent.isDone() && sent.resultBytes >= 0 && sent.argumentsBytes <= CodecThread.INLINE_BYTES
            && sent.run == runsStarted && maxRetainedSent > 0) {
            sent.sentAtNs = nowNs;
            while (!recentlySent.isEmpty() && (recentlySent.size() >= maxRetainedSent
                || retainedSentBytes + sent.retainedBytes() > MAX_RETAINED_SENT_BYTES)) {
                retainedSentBytes -= recentlySent.pollFirst().retainedBytes();
            }
            recentlySent.addLast(sent);
            retainedSentBytes += sent.retainedBytes();
        }
    }

    /** {@link #sendOutcome}: the outcome went to the transport. */
    private static final int SENT = 1;
    /** {@link #sendOutcome}: not sent now (the owner's queue is full); try again. */
    private static final int NOT_SENT = 0;
    /** {@link #sendOutcome}: a large result, handed to the codec thread; it comes back through the inbox. */
    private static final int ENCODING = 2;

    private int sendOutcome(final ForeignJob ended) {
        if (ended.isDone()) {
            resultWriter.reset();
            try {
                ended.job.writeResult(resultWriter);
            } catch (final WireLimitException large) {
                final EncodedResult r = new EncodedResult(ended);
                encoding++;
                codec.submit(() -> encodeLarge(r), () -> { }); // dropped (the node closes): it holds no frame yet
                return ENCODING;
            } catch (final RuntimeException e) {
                return sent(sendEncodeFailure(ended, e));
            }
            final long frameLength = JobResultFlyweight.PAYLOAD_OFFSET + HeaderFlyweight.VAR_LENGTH_PREFIX +
                (long)resultWriter.length();
            final MutableDirectBuffer frame = sender.frameBuffer(frameLength);
            jobResult.wrap(frame, 0, frame.capacity());
            jobResult.headerDefaults(JobResultFlyweight.TYPE);
            jobResult.ownerJobId(ended.ownerJobId).value(resultWriter.buffer(), 0, resultWriter.length());
            ended.resultBytes = resultWriter.length(); // small: kept after sending (a large one would hold its memory that long)
            return sent(sender.sendTo(ended.ownerId, jobResult.frameLength()));
        }
        if (ended.isFailed()) {
            final Throwable t = ended.failure();
            return sent(sendFailure(ended.ownerId, ended.ownerJobId, t.getClass().getName(), t.getMessage(), stackTrace(t)));
        }
        final MutableDirectBuffer frame = sender.frameBuffer(JobResultFlyweight.PAYLOAD_OFFSET);
        jobResult.wrap(frame, 0, frame.capacity());
        jobResult.headerDefaults(JobResultFlyweight.TYPE);
        jobResult.ownerJobId(ended.ownerJobId).aborted();
        return sent(sender.sendTo(ended.ownerId, jobResult.frameLength()));
    }

    private static int sent(final boolean sent) {
        return sent ? SENT : NOT_SENT;
    }

    /**
     * On the codec thread: the whole JOB_RESULT, its value written in place into a buffer of its own of
     * exactly its size, up to the largest frame.
     */
    private void encodeLarge(final EncodedResult r) {
        MutableDirectBuffer out = null;
        try {
            // a first pass only measures (and passes the limit cheaply), so the buffer is allocated once, exactly
            final WireWriter sizer = WireWriter.sizer().limit(maxFrameBytes);
            sizer.skip(JobResultFlyweight.PAYLOAD_OFFSET + HeaderFlyweight.VAR_LENGTH_PREFIX);
            r.ended.job.writeResult(sizer);
            out = sender.ownFrame(sizer.length()); // off the heap: no array of hundreds of MB zeroed for it
            final WireWriter w = WireWriter.into(out).limit(maxFrameBytes);
            w.skip(JobResultFlyweight.PAYLOAD_OFFSET + HeaderFlyweight.VAR_LENGTH_PREFIX);
            r.ended.job.writeResult(w);
            w.putIntAt(JobResultFlyweight.PAYLOAD_OFFSET,
                w.length() - JobResultFlyweight.PAYLOAD_OFFSET - HeaderFlyweight.VAR_LENGTH_PREFIX);
            final JobResultFlyweight frame = new JobResultFlyweight();
            frame.wrap(out, 0, w.length());
            frame.headerDefaults(JobResultFlyweight.TYPE);
            frame.ownerJobId(r.ended.ownerJobId).valueWrittenInPlace(w.length());
            r.frame = out;
            r.frameLength = w.length();
        } catch (final Throwable t) { // OutOfMemoryError included: the owner's sync() reports it
            OffHeapFrame.releaseIfOffHeap(out);
            r.failure = t;
        }
        encodedInbox.add(r);
    }

    /** The owner's {@code sync()} gets why the result could not be encoded: too large names the setting to raise. */
    private boolean sendEncodeFailure(final ForeignJob ended, final Throwable e) {
        if (e instanceof WireLimitException) {
            return sendFailure(ended.ownerId, ended.ownerJobId, DivvyException.class.getName(),
                "the result of job `" + ended.displayName() + "` cannot be returned from node " + members.selfId() +
                    ": its encoding is larger than maxMessageBytes=" + maxFrameBytes + " bytes; raise maxMessageBytes " +
                    "on every node (flag --max-message-bytes, property divvy.maxMessageBytes), at most 2047 MiB", "");
        }
        return sendFailure(ended.ownerId, ended.ownerJobId, e.getClass().getName(),
            "could not encode the result of job `" + ended.displayName() + "` on node " + members.selfId() + ": " +
                e.getMessage(), stackTrace(e));
    }

    /** Returns a job's exception, as text, to its owner; each text is cut to {@link #MAX_EXCEPTION_TEXT_CHARS}. */
    private boolean sendFailure(final int ownerId, final long ownerJobId, final String className, final String message,
        final String stackTrace) {
        final String name = cut(className);
        final String text = cut(message);
        final String trace = cut(stackTrace);
        final MutableDirectBuffer frame = sender.frameBuffer(JobResultFlyweight.PAYLOAD_OFFSET +
            3L * HeaderFlyweight.VAR_LENGTH_PREFIX + 3L * (name.length() + text.length() + trace.length()));
        jobResult.wrap(frame, 0, frame.capacity());
        jobResult.headerDefaults(JobResultFlyweight.TYPE);
        jobResult.ownerJobId(ownerJobId).exception(name, text, trace);
        return sender.sendTo(ownerId, jobResult.frameLength());
    }

    private void forget(final ForeignJob ended) {
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ended.ownerId);
        if (byId != null) {
            byId.remove(ended.ownerJobId);
            if (byId.isEmpty()) {
                byOwner.remove(ended.ownerId); // owners come and go: keep only those with jobs here
            }
        }
    }

    static String cut(final String s) {
        if (s == null) {
            return "";
        }
        return s.length() <= MAX_EXCEPTION_TEXT_CHARS ? s : s.substring(0, MAX_EXCEPTION_TEXT_CHARS);
    }

    static String stackTrace(final Throwable t) {
        final StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
