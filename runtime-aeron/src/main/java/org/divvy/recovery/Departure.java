package org.divvy.recovery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntHashSet;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Members;
import org.divvy.protocol.FrameCounters;
import org.divvy.results.ForeignJobs;
import org.divvy.scheduling.Stamp;

/**
 * Graceful leave with result transfer (thesis §3.5): a node asked to leave first makes every job it runs
 * for others an orphan (as if their owners had died: aborted, finished parts kept), waits until its workers
 * unwound them (bounded), and hands everything it keeps to one staying node chosen at random
 * (ORPHAN_RESULTS), which keeps and announces them as its own and acknowledges (ORPHAN_RESULTS_ACK). Only
 * then it leaves (LEAVE), and the others treat it like a crashed node: owners recompute its jobs, restarted,
 * and reuse the handed-over results through the orphan tables. The acknowledgement matters because a node
 * that learnt of the LEAVE drops the leaver's frames: a hand-over still on its way would be lost. The staying
 * side is here too: it decodes the handed-over jobs, gives them to {@link Orphans} and acknowledges.
 *
 * <p>Agent thread; application threads only {@link #requestHandOver() request} and read {@link #isHandedOver()}.
 */
public final class Departure implements Duty {
    /** How long a leaving node waits for its orphaned jobs to unwind before it hands over what it has. */
    static final long UNWIND_WAIT_NS = TimeUnit.SECONDS.toNanos(2);
    /** Then how long the taker's acknowledgement may take (the LEAVE goes anyway after it: bounded). */
    static final long ACK_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(1500);
    /** No node: nothing handed over, or not to anyone yet. */
    private static final int NOBODY = -1;

    private final Members members;
    private final FrameSender sender;
    private final ForeignJobs foreign;
    private final Orphans orphans;
    /** The job type of a name (the node's job type registry), or null. */
    private final Function<String, JobType> jobTypes;
    private final FrameCounters counters;
    private final OrphanResultsFlyweight results = new OrphanResultsFlyweight();
    private final OrphanResultsAckFlyweight ack = new OrphanResultsAckFlyweight();
    private final WireWriter arguments = new WireWriter(256);
    private final WireWriter value = new WireWriter(256);
    /** Decodes handed-over jobs; resolves the shared objects in them to this node's replicas (set at assembly). */
    private final WireReader reader = new WireReader();
    /** The node's shared-object table (the shared-data module), or null without it. */
    private SharedObjectContext sharedObjects;
    private volatile boolean requested;
    private volatile boolean handedOver;
    private long unwindDeadlineNs;
    private boolean orphaned;
    private boolean sent;
    /** The staying node the hand-over went to, until it acknowledged; NOBODY otherwise. */
    private int awaitingAckFrom = NOBODY;
    /** Nodes that refused the hand-over because they leave too; agent thread. */
    private final IntHashSet refusedBy = new IntHashSet();
    /** The taker refused: hand over to another node. */
    private boolean retry;
    /** Entries of the hand-over awaiting its acknowledgement. */
    private int lastHandOverCount;
    private long ackDeadlineNs;
    private volatile long resultsHandedOver;
    private volatile long resultsTakenOver;

    public Departure(final Members members, final FrameSender sender,
        final ForeignJobs foreign, final Orphans orphans, final Function<String, JobType> jobTypes,
        final FrameCounters counters) {
        this.members = members;
        this.sender = sender;
        this.foreign = foreign;
        this.orphans = orphans;
        this.jobTypes = jobTypes;
        this.counters = counters;
    }

    /**
     * The node's shared-object table: a handed-over job's shared objects travel as ids, resolved to this node's
     * replicas like a stolen job's (without it such a job could not be decoded and would be recomputed). Set
     * once while the node is assembled, before the agent runs.
     */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
        arguments.sharedObjects(context);
        value.sharedObjects(context);
    }

    /** Registers ORPHAN_RESULTS and ORPHAN_RESULTS_ACK. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(OrphanResultsFlyweight.TYPE, "ORPHAN_RESULTS", new OrphanResultsFlyweight(),
            OrphanResultsFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onOrphanResults);
        dispatcher.register(OrphanResultsAckFlyweight.TYPE, "ORPHAN_RESULTS_ACK", new OrphanResultsAckFlyweight(),
            OrphanResultsAckFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onOrphanResultsAck);
    }

    /** This node is about to leave: hand over what it keeps (any thread; pair with waking the agent). */
    public void requestHandOver() {
        requested = true;
    }

    /**
     * Whether the taker acknowledged the hand-over (or died, or did not answer in time), or there was nothing to
     * hand over or nobody to take it: the LEAVE may go.
     */
    public boolean isHandedOver() {
        return handedOver;
    }

    /** Results this node handed to a staying node when it left. */
    public long resultsHandedOver() {
        return resultsHandedOver;
    }

    /** Results a departing node handed to this one. */
    public long resultsTakenOver() {
        return resultsTakenOver;
    }

    @Override
    public boolean isHousekeeping() {
        return false;
    }

    /** Paced: a graceful leave's hand-over and its deadlines. */
    @Override
    public boolean isPaced() {
        return true;
    }

    @Override
    public int doWork(final long nowNs) {
        if (!requested || handedOver) {
            return 0;
        }
        if (!orphaned) {
            orphaned = true;
            unwindDeadlineNs = nowNs + UNWIND_WAIT_NS;
            orphans.onDeparting(); // the taker announces what this node keeps
            foreign.orphanAllForLeaving();
            return 1;
        }
        if (!sent) {
            // the foreign jobs unwound (their finished parts reached Orphans through its inbox), or time is up
            if ((foreign.isEmpty() && orphans.isEmpty()) || nowNs - unwindDeadlineNs >= 0) {
                awaitingAckFrom = handOver();
                ackDeadlineNs = nowNs + ACK_WAIT_NS;
                sent = true;
                return 1;
            }
            return 0;
        }
        if (retry) { // the taker leaves too: another one, while time is left
            retry = false;
            awaitingAckFrom = handOver();
            ackDeadlineNs = nowNs + ACK_WAIT_NS;
            return 1;
        }
        // the LEAVE waits for the taker's acknowledgement: once it learnt of the LEAVE it would drop the hand-over
        if (awaitingAckFrom == NOBODY || !members.isAlive(awaitingAckFrom) || nowNs - ackDeadlineNs >= 0) {
            handedOver = true;
            return 1;
        }
        return 0;
    }

    /** Sends what this node keeps to a random staying node; returns that node, or NOBODY if nothing went. */
    private int handOver() {
        final Map<Stamp, Orphans.Kept> held = orphans.heldJobs();
        final int[] others = Arrays.stream(members.aliveOthers()).filter(id -> !refusedBy.contains(id)).toArray();
        if (held.isEmpty() || others.length == 0) {
            return NOBODY;
        }
        final int to = others[ThreadLocalRandom.current().nextInt(others.length)];
        final List<EncodedJob> entries = new ArrayList<>();
        long length = OrphanResultsFlyweight.ENTRIES_OFFSET;
        for (final Map.Entry<Stamp, Orphans.Kept> e : held.entrySet()) {
            final Job job = e.getValue().job(); // the taker fingerprints it again when it keeps it
            final byte[] stamp = e.getKey().toByteArray();
            final byte[] args;
            final byte[] result;
            try {
                arguments.reset();
                job.encodeArguments(arguments);
                args = arguments.toByteArray();
                value.reset();
                job.writeResult(value);
                result = value.toByteArray();
            } catch (final RuntimeException notEncodable) {
                continue; // it is recomputed instead
            }
            final long entryLength = OrphanResultsFlyweight.entryLengthBound(stamp.length, job.type().name(), args.length,
                result.length);
            if (length + entryLength > sender.maxFrameBytes()) {
                break; // what does not fit is recomputed
            }
            length += entryLength;
            entries.add(new EncodedJob(stamp, job.type().name(), args, result));
        }
        final MutableDirectBuffer frame = sender.frameBuffer(length);
        results.wrap(frame, 0, frame.capacity());
        results.headerDefaults(OrphanResultsFlyweight.TYPE);
        final int at = results.putEntries(entries);
        results.frameLength(at);
        if (sender.sendTo(to, at)) {
            resultsHandedOver += entries.size();
            lastHandOverCount = entries.size();
            return to;
        }
        return NOBODY;
    }

    /** A departing node's kept results: decoded and kept here, announced as this node's, and acknowledged. */
    private int onOrphanResults(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (requested) {
            sendAck(senderId, OrphanResultsAckFlyweight.REFUSED); // this node leaves too: the leaver finds another
            return 1;
        }
        results.wrap(buffer, offset, length);
        reader.sharedObjects(sharedObjects, senderId); // the leaver held replicas consistent for its jobs
        int kept = 0;
        int at = OrphanResultsFlyweight.ENTRIES_OFFSET;
        for (int i = 0, n = results.count(); i < n; i++, at = results.nextEntry(at)) {
            final int stampAt = results.fieldAt(at, 0);
            final Stamp stamp = Orphans.readStamp(buffer, offset + results.dataOffset(stampAt), results.dataLength(stampAt));
            final JobType type = jobTypes.apply(results.stringAt(results.fieldAt(at, 1)));
            if (stamp == null || type == null) {
                FrameCounters.count(counters.malformed);
                continue;
            }
            final int argumentsAt = results.fieldAt(at, 2);
            final int resultAt = results.fieldAt(at, 3);
            try {
                final Job job = type.decode(reader.wrap(buffer, offset + results.dataOffset(argumentsAt),
                    results.dataLength(argumentsAt)));
                job.readResult(reader.wrap(buffer, offset + results.dataOffset(resultAt), results.dataLength(resultAt)));
                job.markFinishedElsewhere();
                orphans.keepHandedOver(stamp, job);
                resultsTakenOver++;
                kept++;
            } catch (final RuntimeException e) {
                FrameCounters.count(counters.malformed); // that one is recomputed
            }
        }
        // not sent (queue full): the leaver's bounded wait ends and it leaves anyway; the results are kept here
        sendAck(senderId, kept);
        return 1;
    }

    private void sendAck(final int to, final int kept) {
        final MutableDirectBuffer frame = sender.frameBuffer(OrphanResultsAckFlyweight.FRAME_LENGTH);
        ack.wrap(frame, 0, OrphanResultsAckFlyweight.FRAME_LENGTH);
        ack.headerDefaults(OrphanResultsAckFlyweight.TYPE);
        ack.kept(kept);
        sender.sendTo(to, OrphanResultsAckFlyweight.FRAME_LENGTH);
    }

    /**
     * The taker kept the hand-over: the LEAVE may go; or it refused (it leaves too): another node is asked. An
     * acknowledgement from any other node is ignored.
     */
    private int onOrphanResultsAck(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (senderId != awaitingAckFrom) {
            return 0;
        }
        ack.wrap(buffer, offset, length);
        if (ack.kept() == OrphanResultsAckFlyweight.REFUSED) {
            refusedBy.add(senderId);
            resultsHandedOver -= lastHandOverCount;
            retry = true;
        }
        awaitingAckFrom = NOBODY;
        return 1;
    }
}
