package org.divvy.recovery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.codegen.Job;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.results.ForeignJobs;
import org.divvy.results.GivenJobs;
import org.divvy.results.JobResultFlyweight;
import org.divvy.scheduling.RecoveryHook;
import org.divvy.scheduling.RemoteLink;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.scheduling.Task;

/**
 * Orphan saving (thesis §3.3 steps 2, 4, 5 and §3.5): this node's orphan table, the finished orphans it
 * holds, their announcement, and the reuse of what others hold.
 *
 * <ul>
 *   <li><b>Keep.</b> Jobs of an orphaned subtree that finished with a value reach {@link #onFinishedOrphan}
 *   (from the frames that unwind, or from {@code ForeignJobs} when the orphan itself finished); the duty
 *   keeps each by stamp and broadcasts the new (self, stamp) pairs in one ORPHAN_TUPLES once none came for
 *   {@link #COMBINE_NS}: one broadcast per recovery, however many jobs it kept.</li>
 *   <li><b>Reuse.</b> A restarted job about to start is looked up by stamp ({@link #fetchFromHolder}, on
 *   the worker) and, when the stamp is held, its {@link JobFingerprint} is compared with the kept job's (announced
 *   with the pair): a stamp only names the same job if every job spawns its children in the same order each time
 *   it runs; when they differ the job is computed and the mismatch counted. When another node holds its result, the duty claims the job for that holder (it waits
 *   like a job out on a thief, in {@link GivenJobs}) and sends RESULT_REQUEST; the holder's JOB_RESULT
 *   completes it, its NOT_HELD or death makes it run here. A result held here is copied into the job
 *   instead of computing it ({@link #copyHeldResult}).</li>
 *   <li><b>Join.</b> A node that joined during a run asks for the table with its steal requests until a
 *   victim sends it ({@link #hasTable}, {@link #sendTableTo}).</li>
 * </ul>
 *
 * Tables belong to one run: a run that starts anywhere clears them ({@link #onRunStarted}). Pairs naming a
 * node that died are dropped with it.
 *
 * <p>With orphan saving off ({@code NodeConfig.orphanSaving}, Satin's naive baseline) nothing is kept, announced
 * or looked up: finished orphans are dropped (recomputed by whoever restarts their ancestors), pairs received are
 * ignored, a result request is answered NOT_HELD, and the node never asks for a table (it has nothing to learn).
 *
 * <p>Single writer: the network agent thread owns everything but {@link #table} and {@link #held}, which
 * workers read (concurrent maps), and the two inboxes workers fill. Counters are read by any thread.
 */
public final class Orphans implements Duty, MembershipListener, RecoveryHook {
    /** How long the duty waits for more finished orphans before it announces those it has, in one message. */
    static final long COMBINE_NS = TimeUnit.MILLISECONDS.toNanos(20);
    /** The longest an announcement waits after its first pair, however steadily more arrive. */
    static final long COMBINE_MAX_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * How long a node that learnt of a death waits before it recomputes the dead node's work (re-queued jobs, a
     * taken-over root): the survivors learnt of it at the same moment and announce their finished orphans within
     * {@link #COMBINE_MAX_NS} of unwinding them; a lookup before that misses, and a miss near the top of a subtree
     * recomputes all of it. Measured by perf's faults section (a site stopped mid-run).
     */
    public static final long RESTART_GRACE_NS = COMBINE_MAX_NS + TimeUnit.MILLISECONDS.toNanos(100);

    /** A finished orphan handed over by a worker: kept by the duty. */
    private record Finished(Stamp stamp, Job job, RemoteLink orphan) {
    }

    /** A restarted job whose result another node holds, taken by a worker: the duty asks for it. */
    private record Fetch(Job job, Stamp stamp, int holderId) {
    }

    /** An orphan table entry: the node holding a finished result, and the {@link JobFingerprint} of its job. */
    record Holding(int holderId, long fingerprint) {
    }

    /** A finished orphan this node holds, with the fingerprint it was announced with. */
    record Kept(Job job, long fingerprint) {
    }

    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;
    private final GivenJobs given;
    private final ForeignJobs foreign;
    /** Orphan saving on (the default); off: the naive baseline, orphaned work is discarded. */
    private final boolean saving;

    /** Stamp to the node holding that finished result (this node included). Written by the agent thread, read by workers. */
    private final ConcurrentHashMap<Stamp, Holding> table = new ConcurrentHashMap<>();
    /** The finished orphans this node holds. Written by the agent thread, read by workers (copy) and the agent (return). */
    private final ConcurrentHashMap<Stamp, Kept> held = new ConcurrentHashMap<>();
    /** Workers' scratch for the fingerprint of a restarted job whose stamp is in the table (one per worker thread). */
    private final ThreadLocal<WireWriter> workerScratch = ThreadLocal.withInitial(() -> new WireWriter(256));
    /** The agent thread's scratch for the fingerprint of a job it keeps. */
    private final WireWriter agentScratch = new WireWriter(256);
    private final ConcurrentLinkedQueue<Finished> finishedInbox = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Fetch> fetchInbox = new ConcurrentLinkedQueue<>();

    // Agent thread only.
    private final List<Stamp> unannounced = new ArrayList<>();
    private long announceAtNs;
    /** The clock of this duty's last cycle, for what handlers schedule. */
    private long lastCycleNs;
    private final BooleanSupplier computationOver;
    /**
     * This node is leaving gracefully: what it keeps goes to a staying node, which announces it; announced by
     * this node too, its pairs would reach some nodes first and be dropped with it when it left.
     */
    private volatile boolean departing;
    private long firstUnannouncedNs;
    /** NOT_HELD answers whose sending failed (the requester's queue was full): requester id and its job id, retried each cycle. */
    private final ArrayDeque<long[]> unsentNotHeld = new ArrayDeque<>();
    private final OrphanTuplesFlyweight tuples = new OrphanTuplesFlyweight();
    private final ResultRequestFlyweight request = new ResultRequestFlyweight();
    private final JobResultFlyweight notHeld = new JobResultFlyweight();
    private final UnsafeBuffer stampView = new UnsafeBuffer(0, 0);

    private volatile int selfId = -1;
    /** Whether this node has seen every pair of the run: it saw the run start, or a victim sent it the table. */
    private volatile boolean hasTable;

    // Counters: written by the agent thread only (but the atomic one), read by any.
    private volatile long jobsKept;
    private volatile long announcements;
    private volatile long pairsReceived;
    private volatile long resultRequests;
    private final AtomicLong copiedHere = new AtomicLong();
    private final AtomicLong fingerprintMismatches = new AtomicLong();

    public Orphans(final Scheduler scheduler, final Members members, final FrameSender sender, final GivenJobs given,
        final ForeignJobs foreign) {
        this(scheduler, members, sender, given, foreign, true, () -> false);
    }

    /**
     * As above; {@code saving} false: orphaned work is discarded instead of kept (the naive baseline).
     * {@code computationOver} says when the computation ended: the jobs this node still ran for owners that then
     * leave are orphans of nothing and are not kept.
     */
    public Orphans(final Scheduler scheduler, final Members members, final FrameSender sender, final GivenJobs given,
        final ForeignJobs foreign, final boolean saving, final BooleanSupplier computationOver) {
        this.saving = saving;
        this.computationOver = computationOver;
        this.hasTable = !saving;
        this.scheduler = scheduler;
        this.members = members;
        this.sender = sender;
        this.given = given;
        this.foreign = foreign;
    }

    /** Registers ORPHAN_TUPLES and RESULT_REQUEST. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(OrphanTuplesFlyweight.TYPE, "ORPHAN_TUPLES", new OrphanTuplesFlyweight(),
            OrphanTuplesFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onOrphanTuples);
        dispatcher.register(ResultRequestFlyweight.TYPE, "RESULT_REQUEST", new ResultRequestFlyweight(),
            ResultRequestFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onResultRequest);
    }

    // ---------------------------------------------------------------------------------------------
    // Workers (RecoveryHook)
    // ---------------------------------------------------------------------------------------------

    @Override
    public boolean fetchFromHolder(final Task task) {
        if (table.isEmpty() || !(task instanceof Job job)) {
            return false;
        }
        final Stamp stamp = Stamp.of(job);
        final Holding holding = table.get(stamp);
        if (holding == null || holding.holderId() == selfId) {
            return false; // not held anywhere, or held here: copyHeldResult takes it when it starts
        }
        if (!sameJob(holding.fingerprint(), job)) {
            return false; // the stamp names another job (spawn order varied): computed here
        }
        fetchInbox.add(new Fetch(job, stamp, holding.holderId()));
        return true;
    }

    @Override
    public boolean copyHeldResult(final Task task) {
        if (held.isEmpty() || !(task instanceof Job job)) {
            return false;
        }
        final Kept kept = held.get(Stamp.of(job));
        if (kept == null || !sameJob(kept.fingerprint(), job)) {
            return false;
        }
        final Job finished = kept.job();
        final WireWriter writer = new WireWriter(256);
        finished.writeResult(writer);
        job.readResult(new WireReader().wrap(writer.buffer(), 0, writer.length()));
        copiedHere.incrementAndGet();
        return true;
    }

    /**
     * Whether {@code job}, restarted, computes what the result fingerprinted {@code held} was computed for; a
     * mismatch is counted. Worker thread; encodes the job only here, when its stamp is held somewhere.
     */
    private boolean sameJob(final long held, final Job job) {
        final long fingerprint = JobFingerprint.of(job, workerScratch.get());
        if (held != JobFingerprint.NONE && held == fingerprint) {
            return true;
        }
        fingerprintMismatches.incrementAndGet();
        return false;
    }

    @Override
    public void onFinishedOrphan(final Task task, final RemoteLink orphan) {
        if (saving && task instanceof Job job) {
            finishedInbox.add(new Finished(Stamp.of(job), job, orphan));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Agent thread
    // ---------------------------------------------------------------------------------------------

    /** Whether this node knows every pair of the run (else its steal requests ask for the table). Any thread. */
    public boolean hasTable() {
        return hasTable;
    }

    /** No fetch waiting to be claimed and sent, no kept orphan waiting to be announced. */
    public boolean isEmpty() {
        return fetchInbox.isEmpty() && finishedInbox.isEmpty() && unannounced.isEmpty() && unsentNotHeld.isEmpty();
    }

    /** A run started (here or on a peer): the last run's tables mean nothing for it, and this node has the whole (empty) table. */
    public void onRunStarted() {
        table.clear();
        held.clear();
        unannounced.clear();
        finishedInbox.clear();
        hasTable = true;
    }

    @Override
    public void onJoined(final int selfId) {
        this.selfId = selfId;
    }

    /** Pairs held by a node that died or left are useless: drop them, so restarted jobs are computed instead. */
    @Override
    public void onMemberChanged(final Member member) {
        if (!member.isAlive()) {
            final int gone = member.id();
            table.values().removeIf(holding -> holding.holderId() == gone);
        }
    }

    /** Paced: finished orphans are announced combined (tens of ms), fetches wait for a holder anyway. */
    @Override
    public boolean isPaced() {
        return true;
    }

    @Override
    public int doWork(final long nowNs) {
        lastCycleNs = nowNs;
        int work = 0;
        Finished finished;
        while ((finished = finishedInbox.poll()) != null) {
            if (!finished.orphan().isOrphaned()) {
                continue; // an orphan of the last run, still unwinding when this one started: its stamps mean nothing now
            }
            if (computationOver.getAsBoolean()) {
                continue; // its owner left because the computation ended: nothing will look it up
            }
            final long fingerprint = JobFingerprint.of(finished.job(), agentScratch);
            if (fingerprint == JobFingerprint.NONE) {
                continue; // not encodable, so no restarted job could be checked against it: recomputed instead
            }
            if (held.putIfAbsent(finished.stamp(), new Kept(finished.job(), fingerprint)) == null) {
                table.put(finished.stamp(), new Holding(selfId, fingerprint));
                if (unannounced.isEmpty()) {
                    firstUnannouncedNs = nowNs;
                }
                unannounced.add(finished.stamp());
                jobsKept++;
            }
            announceAtNs = Math.min(nowNs + COMBINE_NS, firstUnannouncedNs + COMBINE_MAX_NS);
            work++;
        }
        while (!unsentNotHeld.isEmpty()) {
            final long[] answer = unsentNotHeld.peekFirst();
            if (members.isAlive((int)answer[0]) && !sendNotHeld((int)answer[0], answer[1])) {
                break; // its queue is still full: again next cycle
            }
            unsentNotHeld.pollFirst();
            work++;
        }
        if (!unannounced.isEmpty() && nowNs - announceAtNs >= 0) {
            announce();
            work++;
        }
        Fetch fetch;
        while ((fetch = fetchInbox.poll()) != null) {
            fetch(fetch);
            work++;
        }
        return work;
    }

    /** The finished orphans held here, by stamp (a departing node hands them on); agent thread. */
    Map<Stamp, Kept> heldJobs() {
        return held;
    }

    /**
     * Keeps {@code job}, finished elsewhere and handed over by a departing node, as if it had finished here:
     * held, in the table under this node, announced in the next combined broadcast, which goes out now.
     */
    void keepHandedOver(final Stamp stamp, final Job job) {
        if (!saving) {
            return;
        }
        // re-encoded here rather than hashed from the hand-over's bytes: one definition of the fingerprint
        final long fingerprint = JobFingerprint.of(job, agentScratch);
        if (fingerprint != JobFingerprint.NONE && held.putIfAbsent(stamp, new Kept(job, fingerprint)) == null) {
            table.put(stamp, new Holding(selfId, fingerprint));
            unannounced.add(stamp);
            jobsKept++;
            announceAtNs = lastCycleNs; // the departing node's leave follows: the others should know before they recompute
        }
    }

    /** This node leaves gracefully and hands what it keeps over (Departure): it announces nothing more itself. */
    public void onDeparting() {
        departing = true;
    }

    /** Broadcasts every kept orphan not announced yet, in one message. */
    private void announce() {
        if (departing) {
            unannounced.clear(); // still held: they go to the taker, which announces them
            return;
        }
        long stampBytes = 0;
        for (final Stamp s : unannounced) {
            stampBytes += s.toByteArray().length;
        }
        final long length = OrphanTuplesFlyweight.frameLengthFor(unannounced.size(), stampBytes);
        if (length > sender.maxFrameBytes()) {
            unannounced.clear(); // a table this large is not worth a broadcast: the jobs are recomputed instead
            return;
        }
        final MutableDirectBuffer frame = sender.frameBuffer(length);
        tuples.wrap(frame, 0, frame.capacity());
        tuples.headerDefaults(OrphanTuplesFlyweight.TYPE);
        tuples.start(false, unannounced.size());
        int at = OrphanTuplesFlyweight.PAIRS_OFFSET;
        for (final Stamp s : unannounced) {
            final Kept kept = held.get(s);
            final byte[] bytes = s.toByteArray();
            stampView.wrap(bytes);
            at = tuples.putPair(at, selfId, kept == null ? JobFingerprint.NONE : kept.fingerprint(), stampView, 0,
                bytes.length);
        }
        tuples.frameLength(at);
        sender.broadcast(at);
        announcements++;
        unannounced.clear();
    }

    /** Claims a restarted job for the holder of its result and asks for it; if that cannot be, the job runs here. */
    private void fetch(final Fetch fetch) {
        table.remove(fetch.stamp()); // asked once: if the answer is NOT_HELD or the holder dies, it is computed
        if (!members.isAlive(fetch.holderId())) {
            scheduler.submitRemote(fetch.job()); // NEW still: it runs here (not found in the table any more)
            return;
        }
        final long requesterJobId = given.claimForHolder(fetch.job(), fetch.holderId());
        if (requesterJobId == GivenJobs.NOT_CLAIMED) {
            return; // aborted meanwhile: the canceller counted it complete
        }
        final byte[] bytes = fetch.stamp().toByteArray();
        final MutableDirectBuffer frame = sender.frameBuffer(ResultRequestFlyweight.frameLengthFor(bytes.length));
        request.wrap(frame, 0, frame.capacity());
        request.headerDefaults(ResultRequestFlyweight.TYPE);
        stampView.wrap(bytes);
        request.request(requesterJobId, stampView, 0, bytes.length);
        if (sender.sendTo(fetch.holderId(), request.frameLength())) {
            given.onRequested(requesterJobId);
            resultRequests++;
        } else {
            given.unclaim(requesterJobId); // the holder's queue is full: computing it is as good
        }
    }

    /** A node asks for an orphan result this node holds: returned like a stolen job's result, or NOT_HELD. */
    private int onResultRequest(final int requesterId, final DirectBuffer buffer, final int offset, final int length) {
        request.wrap(buffer, offset, length);
        final Stamp stamp = readStamp(buffer, offset + request.stampOffset(), request.stampLength());
        final Kept kept = stamp == null ? null : held.get(stamp);
        if (kept != null) {
            foreign.returnHeld(kept.job(), requesterId, request.requesterJobId());
            return 1;
        }
        if (!unsentNotHeld.isEmpty() || !sendNotHeld(requesterId, request.requesterJobId())) {
            unsentNotHeld.addLast(new long[] {requesterId, request.requesterJobId()}); // the requester waits for it
        }
        return 1;
    }

    private boolean sendNotHeld(final int requesterId, final long requesterJobId) {
        final MutableDirectBuffer frame = sender.frameBuffer(JobResultFlyweight.PAYLOAD_OFFSET);
        notHeld.wrap(frame, 0, frame.capacity());
        notHeld.headerDefaults(JobResultFlyweight.TYPE);
        notHeld.ownerJobId(requesterJobId).notHeld();
        return sender.sendTo(requesterId, notHeld.frameLength());
    }

    /** Pairs from a holder's announcement, or a victim's whole table for this node. */
    private int onOrphanTuples(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (!saving) {
            return 1; // the naive baseline looks nothing up
        }
        tuples.wrap(buffer, offset, length);
        int at = OrphanTuplesFlyweight.PAIRS_OFFSET;
        for (int i = 0, count = tuples.count(); i < count; i++) {
            final int holder = tuples.holderAt(at);
            final Stamp stamp = readStamp(buffer, offset + tuples.stampOffsetAt(at), tuples.stampLengthAt(at));
            if (stamp != null && (members.isAlive(holder) || holder == selfId)) {
                // the latest holder wins (a staying node that took a leaver's results over announces after the
                // leaver could have), unless this node holds the result itself
                final Holding known = table.get(stamp);
                if (known == null || known.holderId() != selfId) {
                    table.put(stamp, new Holding(holder, tuples.fingerprintAt(at)));
                }
                pairsReceived++;
            }
            at = tuples.nextPair(at);
        }
        if (tuples.isTable()) {
            hasTable = true;
        }
        return 1;
    }

    /** Sends this node's whole table to a node that joined during the run (it asked with a steal request). */
    public void sendTableTo(final int nodeId) {
        final List<Map.Entry<Stamp, Holding>> pairs = new ArrayList<>(table.entrySet());
        long stampBytes = 0;
        for (final Map.Entry<Stamp, Holding> pair : pairs) {
            stampBytes += pair.getKey().toByteArray().length;
        }
        final long length = OrphanTuplesFlyweight.frameLengthFor(pairs.size(), stampBytes);
        if (length > sender.maxFrameBytes()) {
            pairs.clear(); // too large to send: the joiner recomputes instead, but knows it has the table
        }
        final MutableDirectBuffer frame = sender.frameBuffer(pairs.isEmpty() ? OrphanTuplesFlyweight.PAIRS_OFFSET : length);
        tuples.wrap(frame, 0, frame.capacity());
        tuples.headerDefaults(OrphanTuplesFlyweight.TYPE);
        tuples.start(true, pairs.size());
        int at = OrphanTuplesFlyweight.PAIRS_OFFSET;
        for (final Map.Entry<Stamp, Holding> pair : pairs) {
            final byte[] bytes = pair.getKey().toByteArray();
            stampView.wrap(bytes);
            at = tuples.putPair(at, pair.getValue().holderId(), pair.getValue().fingerprint(), stampView, 0, bytes.length);
        }
        tuples.frameLength(at);
        sender.sendTo(nodeId, at); // if it cannot go, the joiner asks again with its next steal request
    }

    /** The stamp in a frame's var field, or null when its bytes are not a well-formed stamp (the frame is hostile). */
    static Stamp readStamp(final DirectBuffer buffer, final int at, final int length) {
        if (length > Stamp.MAX_ENCODED_LENGTH) {
            return null;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(at, bytes);
        try {
            return Stamp.fromByteArray(bytes);
        } catch (final IllegalArgumentException e) {
            return null;
        }
    }

    /** Finished orphans this node kept (and announced) since it started. */
    public long jobsKept() {
        return jobsKept;
    }

    /** ORPHAN_TUPLES broadcasts this node sent: one per recovery that kept something. */
    public long announcements() {
        return announcements;
    }

    /** (holder, stamp) pairs received from other nodes. */
    public long pairsReceived() {
        return pairsReceived;
    }

    /** Restarted jobs whose result this node asked an orphan holder for instead of computing them. */
    public long resultRequests() {
        return resultRequests;
    }

    /** Restarted jobs whose result this node held itself, copied instead of computed. */
    public long copiedHere() {
        return copiedHere.get();
    }

    /**
     * Restarted jobs whose stamp was in the orphan table with another job's fingerprint (spawn order varied between
     * runs of their parent), computed instead of reusing a wrong result.
     */
    public long fingerprintMismatches() {
        return fingerprintMismatches.get();
    }
}
