package org.divvy.recovery;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.protocol.FrameCounters;
import org.divvy.scheduling.ResultCopyHook;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.scheduling.Task;

/**
 * Result copies: the finished work of a site, kept on a node of another site, so that a site that dies whole
 * leaves it behind.
 *
 * <p>Why. Orphan saving (thesis §3.3) keeps what survivors finished for a dead node, but nothing of what the dead
 * node finished itself: that lives in the frames of the jobs it was working inside, and dies with them. A site's
 * nodes work inside the few large jobs their site took from other sites, which finish only near the end of the run,
 * so a site killed at half time took all its work with it, and the survivors took as long as if it had never been
 * there (perf/README.md, "(b) with sites of 8 nodes"). Satin's paper kept that work in a global result table
 * replicated on every node; this keeps it on one node per site, and only for jobs that ran long enough to be worth
 * a message.
 *
 * <ul>
 *   <li><b>Send.</b> A job that ran at least {@code minMs} here and finished with a value reaches
 *   {@link #onFinished} on its worker (the hook is installed only while a keeper exists), which encodes it there,
 *   before the job's parent can read the result and change it: as a thief would receive it (stamp, type, receiver and
 *   arguments), with its result and the run it belongs to. The duty sends what came within {@link #COMBINE_NS} in one
 *   RESULT_COPIES to this site's keeper: the lowest-id alive node of the next site (site labels in order, cyclically),
 *   the same node for every node of a site. A job or result larger than {@link #MAX_ENCODED_BYTES} is not copied.</li>
 *   <li><b>Keep.</b> The keeper holds the copies of the run it is in undecoded, by stamp (copies of another run, however
 *   late they arrive, are dropped). A copy whose ancestor it holds is dropped, and
 *   a copy drops its descendants: an ancestor's result makes theirs unneeded, so a keeper holds the frontier of its
 *   site's finished work, and at the run's end little more than the site's largest finished jobs. At most
 *   {@link #MAX_KEPT_BYTES}; more are dropped (counted).</li>
 *   <li><b>Adopt.</b> When a member dies in a run, the keeper makes every copy sent by it or by a node of its site a finished
 *   orphan of its own ({@link Orphans#keepHandedOver}): announced with the next ORPHAN_TUPLES, looked up by the
 *   restarted jobs that recompute the dead node's work, fetched with RESULT_REQUEST like any orphan. A copy whose
 *   result still lives in a survivor's frame is never looked up, so adopting the whole site's copies costs only the
 *   announcement. Its {@link JobFingerprint} is checked before reuse as any orphan's.</li>
 * </ul>
 *
 * Loss-tolerant like orphan tuples: a copy lost, dropped or held by a keeper that dies too only costs recomputation.
 * Copies belong to one run: a run that starts or ends clears them, a keeper keeps only copies naming the current run
 * (none between runs, so the last copies of an ended run, sent after its end, are not), and none is kept or adopted
 * once the computation is over.
 * Off with orphan saving, with {@code minMs} 0, and while no other site has an alive node.
 *
 * <p>Single writer: the network agent thread owns everything but {@link #finishedInbox}, which workers fill (each with
 * encoders of its own).
 */
public final class ResultCopies implements Duty, MembershipListener, ResultCopyHook {
    /** The message type code (RESULT_COPIES). */
    public static final int TYPE = ResultCopiesFlyweight.TYPE;
    /** How long copies wait to be combined into one message to the keeper. */
    static final long COMBINE_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The largest encoded job (receiver and arguments) or result copied: larger ones cost more than they save. */
    static final int MAX_ENCODED_BYTES = 64 * 1024;
    /** A message goes as soon as its entries reach this many bytes. */
    static final int MAX_MESSAGE_BYTES = 256 * 1024;
    /** The most bytes of copies a keeper holds; copies beyond it are dropped. */
    static final long MAX_KEPT_BYTES = 64L << 20;
    private static final int NOBODY = -1;

    /** A copy held by the keeper, undecoded. */
    private record Copy(int senderId, String typeName, byte[] arguments, byte[] result, int stampLength) {
        long bytes() {
            return arguments.length + result.length + 2L * typeName.length() + stampLength + 64;
        }
    }

    /** A copy encoded on its worker, with the run it belongs to. */
    private record Entry(long runId, EncodedJob job) {
    }

    /** A worker's encoders. */
    private static final class Encoders {
        final WireWriter arguments = new WireWriter(256).limit(MAX_ENCODED_BYTES);
        final WireWriter result = new WireWriter(256).limit(MAX_ENCODED_BYTES);
    }

    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;
    private final Orphans orphans;
    private final Function<String, JobType> jobTypes;
    private final FrameCounters counters;
    private final NanoClock clock;
    private final BooleanSupplier computationOver;
    /** The run this node works in (any thread), and whether an id names it (agent thread): the lifecycle's. */
    private final LongSupplier currentRunId;
    private final LongPredicate isCurrentRun;
    /** Jobs that ran at least this long are copied; 0: nothing is. */
    private final long minMs;
    private final boolean enabled;

    /** Copies encoded by workers; drained by the duty. */
    private final ConcurrentLinkedQueue<Entry> finishedInbox = new ConcurrentLinkedQueue<>();
    /**
     * Each worker's encoders. Without a shared-object context: a shared object is written as its id (a keeper resolves
     * it when it adopts the copy), and nothing is attached to another node for a copy.
     */
    private final ThreadLocal<Encoders> encoders = ThreadLocal.withInitial(Encoders::new);

    // Agent thread only.
    private final WireReader reader = new WireReader();
    private SharedObjectContext sharedObjects;
    private final ResultCopiesFlyweight copies = new ResultCopiesFlyweight();
    /** Copies waiting to go, all of run {@link #pendingRunId}. */
    private final List<EncodedJob> pending = new ArrayList<>();
    private long pendingRunId;
    private long pendingBytes;
    private long sendAtNs;
    /** This site's keeper, or NOBODY (no other site has an alive node, or copies are off). */
    private int keeperId = NOBODY;
    /** The copies this node keeps for its site's senders, in {@link Stamp#ENCODED_ORDER}: each subtree contiguous. */
    private final TreeMap<Stamp, Copy> kept = new TreeMap<>(Stamp.ENCODED_ORDER);
    private long keptBytes;

    // Counters: written by one thread at a time (the agent, but copiesDropped by workers too), read by any.
    private volatile long copiesSent;
    private volatile long copiesKept;
    private volatile long copiesAdopted;
    private final AtomicLong copiesDropped = new AtomicLong();

    /**
     * @param minMs           jobs that ran at least this long here are copied (0: copies off)
     * @param saving          orphan saving is on (without it nothing kept is ever looked up)
     * @param computationOver whether the computation ended: nothing is kept or adopted then
     * @param currentRunId    the id of the run this node works in, 0 before any (any thread)
     * @param isCurrentRun    whether an id names the run this node works in (agent thread)
     */
    public ResultCopies(final Scheduler scheduler, final Members members, final FrameSender sender, final Orphans orphans,
        final Function<String, JobType> jobTypes, final FrameCounters counters, final NanoClock clock, final long minMs,
        final boolean saving, final BooleanSupplier computationOver, final LongSupplier currentRunId,
        final LongPredicate isCurrentRun) {
        this.scheduler = scheduler;
        this.members = members;
        this.sender = sender;
        this.orphans = orphans;
        this.jobTypes = jobTypes;
        this.counters = counters;
        this.clock = clock;
        this.minMs = minMs;
        this.enabled = saving && minMs > 0;
        this.computationOver = computationOver;
        this.currentRunId = currentRunId;
        this.isCurrentRun = isCurrentRun;
    }

    /** The node's shared-object table, to decode the jobs of copies it adopts (as {@link Departure#sharedObjects}); set at assembly. */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
    }

    /** Registers RESULT_COPIES. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(TYPE, "RESULT_COPIES", new ResultCopiesFlyweight(), ResultCopiesFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, this::onResultCopies);
    }

    // ---------------------------------------------------------------------------------------------
    // Workers (ResultCopyHook)
    // ---------------------------------------------------------------------------------------------

    @Override
    public long nowMs() {
        return TimeUnit.NANOSECONDS.toMillis(clock.nanoTime());
    }

    /** Encodes the job here, on its worker, before its status is published: its parent may change its result after. */
    @Override
    public void onFinished(final Task job, final long startedMs) {
        if (nowMs() - startedMs < minMs || !(job instanceof Job finished)) {
            return;
        }
        final long runId = currentRunId.getAsLong();
        final Stamp stamp = Stamp.of(finished);
        if (runId == 0 || stamp.depth() == 0) {
            return; // no run known yet, or a run's root: its result ends the run
        }
        final Encoders e = encoders.get();
        final JobType type;
        try {
            type = finished.type();
            e.arguments.reset();
            finished.encodeArguments(e.arguments);
            e.result.reset();
            finished.writeResult(e.result);
        } catch (final RuntimeException tooLargeOrNotEncodable) {
            copiesDropped.incrementAndGet();
            return;
        }
        finishedInbox.add(new Entry(runId, new EncodedJob(stamp.toByteArray(), type.name(), e.arguments.toByteArray(),
            e.result.toByteArray())));
    }

    // ---------------------------------------------------------------------------------------------
    // Agent thread
    // ---------------------------------------------------------------------------------------------

    /** Paced: copies are combined for tens of ms anyway. */
    @Override
    public boolean isPaced() {
        return true;
    }

    /** A run started here or on a peer: the last run's copies name its jobs, not this one's. */
    public void onRunStarted() {
        clearKept();
    }

    /** The current run ended normally: what the keeper holds names jobs of a finished run. */
    public void onRunEnded() {
        clearKept();
    }

    private void clearKept() {
        kept.clear();
        keptBytes = 0;
    }

    @Override
    public void onJoined(final int selfId) {
        chooseKeeper();
    }

    /**
     * The keeper is chosen again (a member came, died or left); a death in a run makes the keeper adopt the copies of
     * the dead node's site.
     */
    @Override
    public void onMemberChanged(final Member member) {
        chooseKeeper();
        if (!member.isAlive() && member.id() != members.selfId() && !kept.isEmpty()) {
            adopt(member);
        }
    }

    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        Entry entry;
        while ((entry = finishedInbox.poll()) != null) {
            work++;
            if (keeperId == NOBODY) {
                continue;
            }
            final long messageBytes = Math.min(MAX_MESSAGE_BYTES, sender.maxFrameBytes() - ResultCopiesFlyweight.COPIES_OFFSET);
            if (!pending.isEmpty() && (pendingBytes + entry.job().lengthBound() > messageBytes
                || pendingRunId != entry.runId())) {
                send(); // full, or of another run: what came so far goes now
            }
            if (pending.isEmpty()) {
                sendAtNs = nowNs + COMBINE_NS;
                pendingRunId = entry.runId();
            }
            pending.add(entry.job());
            pendingBytes += entry.job().lengthBound();
        }
        if (!pending.isEmpty() && nowNs - sendAtNs >= 0) {
            send();
            work++;
        }
        return work;
    }

    /** Sends the pending copies (all of one run) to the keeper in one message; if it cannot take them now, they are dropped. */
    private void send() {
        final long length = ResultCopiesFlyweight.COPIES_OFFSET + pendingBytes;
        if (length <= sender.maxFrameBytes() && keeperId != NOBODY) {
            final MutableDirectBuffer frame = sender.frameBuffer(length);
            copies.wrap(frame, 0, frame.capacity());
            copies.headerDefaults(TYPE);
            copies.runId(pendingRunId);
            final int at = copies.putEntries(pending);
            copies.frameLength(at);
            if (sender.sendTo(keeperId, at)) {
                copiesSent += pending.size();
            } else {
                copiesDropped.addAndGet(pending.size()); // loss-tolerant: these are recomputed should this site die
            }
        } else {
            copiesDropped.addAndGet(pending.size());
        }
        pending.clear();
        pendingBytes = 0;
    }

    /** Copies from a node whose keeper this node is: those of the current run kept, the frontier only. */
    private int onResultCopies(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        copies.wrap(buffer, offset, length);
        if (!enabled || computationOver.getAsBoolean() || !isCurrentRun.test(copies.runId())) {
            return 1; // off, over, or a copy of another run (late, or its RUN_STARTED has not come here yet): not kept
        }
        int at = ResultCopiesFlyweight.COPIES_OFFSET;
        for (int i = 0, n = copies.count(); i < n; i++, at = copies.nextEntry(at)) {
            final int stampAt = copies.fieldAt(at, 0);
            final int argumentsAt = copies.fieldAt(at, 2);
            final int resultAt = copies.fieldAt(at, 3);
            final Stamp stamp = Orphans.readStamp(buffer, offset + copies.dataOffset(stampAt), copies.dataLength(stampAt));
            if (stamp == null || stamp.depth() == 0 || copies.dataLength(argumentsAt) > MAX_ENCODED_BYTES
                || copies.dataLength(resultAt) > MAX_ENCODED_BYTES) {
                FrameCounters.count(counters.malformed);
                continue;
            }
            keep(senderId, stamp, buffer, offset, at, stampAt, argumentsAt, resultAt);
        }
        return 1;
    }

    private void keep(final int senderId, final Stamp stamp, final DirectBuffer buffer, final int offset, final int at,
        final int stampAt, final int argumentsAt, final int resultAt) {
        // no kept copy is an ancestor of another, so only the one just before this stamp can be its ancestor (or itself)
        final Stamp before = kept.floorKey(stamp);
        if (before != null && before.isAncestorOrSelf(stamp) && !before.equals(stamp)) {
            return; // an ancestor's result is here: this one is not needed
        }
        final byte[] args = new byte[copies.dataLength(argumentsAt)];
        buffer.getBytes(offset + copies.dataOffset(argumentsAt), args);
        final byte[] result = new byte[copies.dataLength(resultAt)];
        buffer.getBytes(offset + copies.dataOffset(resultAt), result);
        final Copy copy = new Copy(senderId, copies.stringAt(copies.fieldAt(at, 1)), args, result, copies.dataLength(stampAt));
        if (keptBytes - subtreeBytes(stamp) + copy.bytes() > MAX_KEPT_BYTES) {
            copiesDropped.incrementAndGet(); // full: what it would replace stays
            return;
        }
        dropSubtree(stamp);
        kept.put(stamp, copy);
        keptBytes += copy.bytes();
        copiesKept++;
    }

    /** The bytes the copies of {@code stamp} and its descendants hold (contiguous in the map's order, {@code stamp} first). */
    private long subtreeBytes(final Stamp stamp) {
        long bytes = 0;
        for (final Map.Entry<Stamp, Copy> e : kept.tailMap(stamp, true).entrySet()) {
            if (!stamp.isAncestorOrSelf(e.getKey())) {
                break;
            }
            bytes += e.getValue().bytes();
        }
        return bytes;
    }

    /** Drops the copies of {@code stamp} and its descendants. */
    private void dropSubtree(final Stamp stamp) {
        for (final Iterator<Map.Entry<Stamp, Copy>> it = kept.tailMap(stamp, true).entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<Stamp, Copy> e = it.next();
            if (!stamp.isAncestorOrSelf(e.getKey())) {
                break;
            }
            keptBytes -= e.getValue().bytes();
            it.remove();
        }
    }

    /**
     * {@code dead} died or left: every copy sent by it or by a node of its site becomes a finished orphan held here (its
     * site's frames held their results; a copy whose result lives on in a survivor's frame costs only its announcement).
     * Not once the computation is over (members leave at its end), nor between runs (the run's end cleared them).
     */
    private void adopt(final Member dead) {
        if (!enabled || computationOver.getAsBoolean() || currentRunId.getAsLong() == 0) {
            return; // no run is on: what is kept belongs to none
        }
        for (final Iterator<Map.Entry<Stamp, Copy>> it = kept.entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<Stamp, Copy> e = it.next();
            final Copy copy = e.getValue();
            final Member from = members.member(copy.senderId());
            if (copy.senderId() != dead.id() && from != null && from.isAlive() && !from.site().equals(dead.site())) {
                continue;
            }
            it.remove();
            keptBytes -= copy.bytes();
            final JobType type = jobTypes.apply(copy.typeName());
            if (type == null) {
                FrameCounters.count(counters.malformed);
                continue;
            }
            try {
                reader.sharedObjects(sharedObjects, copy.senderId());
                final Job job = type.decode(reader.wrap(new UnsafeBuffer(copy.arguments()), 0, copy.arguments().length));
                job.readResult(reader.wrap(new UnsafeBuffer(copy.result()), 0, copy.result().length));
                job.markFinishedElsewhere();
                orphans.keepHandedOver(e.getKey(), job);
                copiesAdopted++;
            } catch (final RuntimeException notDecodable) {
                FrameCounters.count(counters.malformed); // that one is recomputed
            }
        }
    }
    /**
     * This site's keeper: the lowest-id alive node of the next site with an alive node, site labels in order and
     * cyclically; NOBODY when no other site has one. Installs the workers' hook while there is a keeper.
     */
    private void chooseKeeper() {
        final Member self = members.member(members.selfId());
        int keeper = NOBODY;
        if (enabled && self != null && members.otherSitesCount() > 0) {
            final String own = self.site();
            String next = null; // the first site after this one's label
            String first = null; // the first site of all: the next one, cyclically, when none comes after
            for (final Member m : members.list()) {
                if (m.isAlive() && !m.site().equals(own)) {
                    if (m.site().compareTo(own) > 0 && (next == null || m.site().compareTo(next) < 0)) {
                        next = m.site();
                    }
                    if (first == null || m.site().compareTo(first) < 0) {
                        first = m.site();
                    }
                }
            }
            final String site = next != null ? next : first;
            for (final Member m : members.list()) {
                if (m.isAlive() && m.site().equals(site) && (keeper == NOBODY || m.id() < keeper)) {
                    keeper = m.id();
                }
            }
        }
        if (keeper != keeperId) {
            if (keeperId == NOBODY || keeper == NOBODY) {
                scheduler.resultCopyHook(keeper == NOBODY ? null : this);
            }
            if (keeper == NOBODY) {
                pending.clear();
                pendingBytes = 0;
                finishedInbox.clear();
            }
            keeperId = keeper;
        }
    }

    /** The stamps of the copies this node keeps, in their order; agent thread (tests). */
    List<Stamp> keptStamps() {
        return new ArrayList<>(kept.keySet());
    }

    /** The node this one sends its copies to, or -1. */
    public int keeperId() {
        return keeperId;
    }

    /** Copies this node sent to its keeper. */
    public long copiesSent() {
        return copiesSent;
    }

    /** Copies this node received and kept as a keeper (each counted once, even if an ancestor's dropped it since). */
    public long copiesKept() {
        return copiesKept;
    }

    /** Copies this node made finished orphans of its own when their site died. */
    public long copiesAdopted() {
        return copiesAdopted;
    }

    /** Copies not sent (too large to encode, or the keeper's queue was full) or not kept (the keeper was full). */
    public long copiesDropped() {
        return copiesDropped.get();
    }
}
