package org.divvy.recovery;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

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
 *   {@link #onFinished} on its worker (the hook is installed only while a keeper exists). The duty encodes it as a
 *   thief would receive it (stamp, type, receiver and arguments) with its result, and sends what came within
 *   {@link #COMBINE_NS} in one RESULT_COPIES to this site's keeper: the lowest-id alive node of the next site (site
 *   labels in order, cyclically), the same node for every node of a site. A job or result larger than
 *   {@link #MAX_ENCODED_BYTES} is not copied.</li>
 *   <li><b>Keep.</b> The keeper holds the copies undecoded, by stamp. A copy whose ancestor it holds is dropped, and
 *   a copy drops its descendants: an ancestor's result makes theirs unneeded, so a keeper holds the frontier of its
 *   site's finished work, and at the run's end little more than the site's largest finished jobs. At most
 *   {@link #MAX_KEPT_BYTES}; more are dropped (counted).</li>
 *   <li><b>Adopt.</b> When a member dies in a run, the keeper makes every copy sent by a node of its site a finished
 *   orphan of its own ({@link Orphans#keepHandedOver}): announced with the next ORPHAN_TUPLES, looked up by the
 *   restarted jobs that recompute the dead node's work, fetched with RESULT_REQUEST like any orphan. A copy whose
 *   result still lives in a survivor's frame is never looked up, so adopting the whole site's copies costs only the
 *   announcement. Its {@link JobFingerprint} is checked before reuse as any orphan's.</li>
 * </ul>
 *
 * Loss-tolerant like orphan tuples: a copy lost, dropped or held by a keeper that dies too only costs recomputation.
 * Copies belong to one run: a run that starts clears them, and none is sent or adopted once the computation is over.
 * Off with orphan saving, with {@code minMs} 0, and while no other site has an alive node.
 *
 * <p>Single writer: the network agent thread owns everything but {@link #finishedInbox}, which workers fill.
 */
public final class ResultCopies implements Duty, MembershipListener, ResultCopyHook {
    /** The message type code (RESULT_COPIES): its entries are laid out as ORPHAN_RESULTS' ({@link OrphanResultsFlyweight}). */
    public static final int TYPE = 32;
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

    /** A copy encoded by the sender, waiting to go. */
    private record Entry(byte[] stamp, String typeName, byte[] arguments, byte[] result) {
        long lengthBound() {
            return OrphanResultsFlyweight.entryLengthBound(stamp.length, typeName, arguments.length, result.length);
        }
    }

    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;
    private final Orphans orphans;
    private final Function<String, JobType> jobTypes;
    private final FrameCounters counters;
    private final NanoClock clock;
    private final BooleanSupplier computationOver;
    /** Jobs that ran at least this long are copied; 0: nothing is. */
    private final long minMs;
    private final boolean enabled;

    /** Jobs that finished here and ran long enough; filled by workers, drained by the duty. */
    private final ConcurrentLinkedQueue<Job> finishedInbox = new ConcurrentLinkedQueue<>();

    // Agent thread only.
    private final WireWriter arguments = new WireWriter(256);
    private final WireWriter value = new WireWriter(256);
    private final WireReader reader = new WireReader();
    private SharedObjectContext sharedObjects;
    private final OrphanResultsFlyweight copies = new OrphanResultsFlyweight();
    private final List<Entry> pending = new ArrayList<>();
    private long pendingBytes;
    private long sendAtNs;
    /** This site's keeper, or NOBODY (no other site has an alive node, or copies are off). */
    private int keeperId = NOBODY;
    /** The copies this node keeps for its site's senders, in {@link Stamp#ENCODED_ORDER}: each subtree contiguous. */
    private final TreeMap<Stamp, Copy> kept = new TreeMap<>(Stamp.ENCODED_ORDER);
    private long keptBytes;

    // Counters: written by the agent thread only, read by any.
    private volatile long copiesSent;
    private volatile long copiesKept;
    private volatile long copiesAdopted;
    private volatile long copiesDropped;

    /**
     * @param minMs           jobs that ran at least this long here are copied (0: copies off)
     * @param saving          orphan saving is on (without it nothing kept is ever looked up)
     * @param computationOver whether the computation ended: nothing is copied or adopted then
     */
    public ResultCopies(final Scheduler scheduler, final Members members, final FrameSender sender, final Orphans orphans,
        final Function<String, JobType> jobTypes, final FrameCounters counters, final NanoClock clock, final long minMs,
        final boolean saving, final BooleanSupplier computationOver) {
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
        arguments.limit(MAX_ENCODED_BYTES);
        value.limit(MAX_ENCODED_BYTES);
    }

    /** The node's shared-object table, for the jobs copies carry (as {@link Departure#sharedObjects}); set at assembly. */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
        arguments.sharedObjects(context);
        value.sharedObjects(context);
    }

    /** Registers RESULT_COPIES. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(TYPE, "RESULT_COPIES", new OrphanResultsFlyweight(), OrphanResultsFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, this::onResultCopies);
    }

    // ---------------------------------------------------------------------------------------------
    // Workers (ResultCopyHook)
    // ---------------------------------------------------------------------------------------------

    @Override
    public long nowMs() {
        return TimeUnit.NANOSECONDS.toMillis(clock.nanoTime());
    }

    @Override
    public void onFinished(final Task job, final long startedMs) {
        if (nowMs() - startedMs >= minMs && job instanceof Job finished) {
            finishedInbox.add(finished);
        }
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
        kept.clear();
        keptBytes = 0;
        pending.clear();
        pendingBytes = 0;
        finishedInbox.clear();
    }

    @Override
    public void onJoined(final int selfId) {
        chooseKeeper();
    }

    /**
     * The keeper is chosen again (a member came, died or left); a death in a run makes the keeper adopt its senders'
     * copies.
     */
    @Override
    public void onMemberChanged(final Member member) {
        chooseKeeper();
        if (!member.isAlive() && member.id() != members.selfId() && !kept.isEmpty()) {
            adopt();
        }
    }

    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        Job job;
        while ((job = finishedInbox.poll()) != null) {
            work++;
            if (keeperId == NOBODY || computationOver.getAsBoolean()) {
                continue;
            }
            final Entry entry = encode(job);
            if (entry == null) {
                continue;
            }
            final long messageBytes = Math.min(MAX_MESSAGE_BYTES, sender.maxFrameBytes() - OrphanResultsFlyweight.ENTRIES_OFFSET);
            if (!pending.isEmpty() && pendingBytes + entry.lengthBound() > messageBytes) {
                send(); // full: what came so far goes now
            }
            if (pending.isEmpty()) {
                sendAtNs = nowNs + COMBINE_NS;
            }
            pending.add(entry);
            pendingBytes += entry.lengthBound();
        }
        if (!pending.isEmpty() && nowNs - sendAtNs >= 0) {
            send();
            work++;
        }
        return work;
    }

    /** {@code job} as a copy (stamp, type, receiver and arguments, result), or null when it is not worth one. */
    private Entry encode(final Job job) {
        final Stamp stamp = Stamp.of(job);
        if (stamp.depth() == 0) {
            return null; // a run's root: its result ends the run
        }
        final JobType type;
        try {
            type = job.type();
            arguments.reset();
            job.encodeArguments(arguments);
            value.reset();
            job.writeResult(value);
        } catch (final RuntimeException tooLargeOrNotEncodable) {
            return null;
        }
        return new Entry(stamp.toByteArray(), type.name(), arguments.toByteArray(), value.toByteArray());
    }

    /** Sends the pending copies to the keeper in one message; if it cannot take them now, they are dropped. */
    private void send() {
        long length = OrphanResultsFlyweight.ENTRIES_OFFSET;
        for (final Entry e : pending) {
            length += e.lengthBound();
        }
        if (length <= sender.maxFrameBytes() && keeperId != NOBODY) {
            final MutableDirectBuffer frame = sender.frameBuffer(length);
            copies.wrap(frame, 0, frame.capacity());
            copies.headerDefaults(TYPE);
            copies.count(pending.size());
            int at = OrphanResultsFlyweight.ENTRIES_OFFSET;
            for (final Entry e : pending) {
                at = copies.putEntry(at, new UnsafeBuffer(e.stamp), e.stamp.length, e.typeName, new UnsafeBuffer(e.arguments),
                    e.arguments.length, new UnsafeBuffer(e.result), e.result.length);
            }
            copies.frameLength(at);
            if (sender.sendTo(keeperId, at)) {
                copiesSent += pending.size();
            } else {
                copiesDropped += pending.size(); // loss-tolerant: these are recomputed should this site die
            }
        } else {
            copiesDropped += pending.size();
        }
        pending.clear();
        pendingBytes = 0;
    }

    /** Copies from a node whose keeper this node is: kept, the frontier only. */
    private int onResultCopies(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (!enabled || computationOver.getAsBoolean()) {
            return 1;
        }
        copies.wrap(buffer, offset, length);
        int at = OrphanResultsFlyweight.ENTRIES_OFFSET;
        for (int i = 0, n = copies.count(); i < n; i++, at = copies.nextEntry(at)) {
            final int stampAt = copies.fieldAt(at, 0);
            final Stamp stamp = Orphans.readStamp(buffer, offset + copies.dataOffset(stampAt), copies.dataLength(stampAt));
            if (stamp == null || stamp.depth() == 0) {
                FrameCounters.count(counters.malformed);
                continue;
            }
            if (coveredByAncestor(stamp)) {
                continue; // an ancestor's result is here: this one is not needed
            }
            final int argumentsAt = copies.fieldAt(at, 2);
            final int resultAt = copies.fieldAt(at, 3);
            final byte[] args = new byte[copies.dataLength(argumentsAt)];
            buffer.getBytes(offset + copies.dataOffset(argumentsAt), args);
            final byte[] result = new byte[copies.dataLength(resultAt)];
            buffer.getBytes(offset + copies.dataOffset(resultAt), result);
            final Copy copy = new Copy(senderId, copies.stringAt(copies.fieldAt(at, 1)), args, result,
                copies.dataLength(stampAt));
            dropSubtree(stamp);
            if (keptBytes + copy.bytes() > MAX_KEPT_BYTES) {
                copiesDropped++;
                continue;
            }
            kept.put(stamp, copy);
            keptBytes += copy.bytes();
            copiesKept++;
        }
        return 1;
    }

    private boolean coveredByAncestor(final Stamp stamp) {
        for (Stamp a = stamp.parent(); a != null && a.depth() > 0; a = a.parent()) {
            if (kept.containsKey(a)) {
                return true;
            }
        }
        return false;
    }

    /** Drops the copies of {@code stamp} and its descendants (contiguous in the map's order, {@code stamp} first). */
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
     * A member died or left: every copy whose sender is dead or in the site of a dead member becomes a finished
     * orphan held here (a dead site's frames held their results; a copy from a live node whose parent frame is alive
     * costs only its announcement). In a run only.
     */
    private void adopt() {
        if (!enabled || computationOver.getAsBoolean()) {
            return;
        }
        final TreeSet<String> deadSites = new TreeSet<>();
        for (final Member m : members.list()) {
            if (!m.isAlive()) {
                deadSites.add(m.site());
            }
        }
        for (final Iterator<Map.Entry<Stamp, Copy>> it = kept.entrySet().iterator(); it.hasNext(); ) {
            final Map.Entry<Stamp, Copy> e = it.next();
            final Copy copy = e.getValue();
            final Member from = members.member(copy.senderId());
            if (from != null && from.isAlive() && !deadSites.contains(from.site())) {
                continue;
            }
            it.remove();
            keptBytes -= copy.bytes();
            final JobType type = jobTypes.apply(copy.typeName());
            if (type == null) {
                continue;
            }
            try {
                reader.sharedObjects(sharedObjects, copy.senderId());
                final Job job = type.decode(reader.wrap(new UnsafeBuffer(copy.arguments()), 0, copy.arguments().length));
                job.readResult(reader.wrap(new UnsafeBuffer(copy.result()), 0, copy.result().length));
                job.markFinishedElsewhere();
                orphans.keepHandedOver(e.getKey(), job);
                copiesAdopted++;
            } catch (final RuntimeException e2) {
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

    /** Copies not sent (the keeper's queue was full) or not kept (the keeper was full). */
    public long copiesDropped() {
        return copiesDropped;
    }
}
