package org.divvy.stealing;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.codegen.Job;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireWriter;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.results.GivenJobs;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.scheduling.Task;

/**
 * The victim side of remote stealing: answers a STEAL_REQUEST with the oldest queued job the scheduler
 * lets go (taken from a deque's tail, as a local thief would) that can be encoded, claimed and sent, or
 * with "none". A job that cannot leave (its arguments cannot be encoded, its frame is larger than the
 * transport takes, or its thief cannot be reached) runs here instead; nothing is lost.
 *
 * <p>Agent thread only.
 */
public final class Victim {
    /** {@link #give}: the job went to the thief. */
    private static final int GIVEN = 1;
    /** {@link #give}: the job stays here (cannot leave, or was aborted); the next one may go. */
    private static final int KEPT = 0;
    /** {@link #give}: the thief cannot be sent to now; the job stays here and so do the others. */
    private static final int UNREACHABLE = -1;

    private static final System.Logger LOG = System.getLogger(Victim.class.getName());

    private final Scheduler scheduler;
    private final GivenJobs given;
    private final FrameSender sender;
    private final StealRequestFlyweight request = new StealRequestFlyweight();
    private final StealReplyFlyweight reply = new StealReplyFlyweight();
    private final WireWriter stampWriter = new WireWriter(64);
    private final WireWriter argumentsWriter = new WireWriter(256);
    private int victimCursor;

    public Victim(final Scheduler scheduler, final GivenJobs given, final FrameSender sender) {
        this.scheduler = scheduler;
        this.given = given;
        this.sender = sender;
        // a job whose arguments alone pass the largest frame is refused after encoding at most that much
        argumentsWriter.limit(sender.maxFrameBytes());
    }

    /** Registers STEAL_REQUEST. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(StealRequestFlyweight.TYPE, "STEAL_REQUEST", new StealRequestFlyweight(),
            StealRequestFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onStealRequest);
    }

    /** @return 1 when a job was given (work for the computation), 0 for "none". */
    private int onStealRequest(final int thiefId, final DirectBuffer buffer, final int offset, final int length) {
        request.wrap(buffer, offset, length);
        final long requestId = request.requestId();
        Task task;
        while ((task = scheduler.pollForRemoteThief(victimCursor++)) != null) {
            final int outcome = give((Job)task, thiefId, requestId); // a queued task is a spawned Job
            if (outcome == GIVEN) {
                return 1;
            }
            if (outcome == UNREACHABLE) {
                return 0; // a "none" could not reach it either; its request times out
            }
        }
        final MutableDirectBuffer frame = sender.frameBuffer(StealReplyFlyweight.NONE_FRAME_LENGTH);
        reply.wrap(frame, 0, frame.capacity());
        reply.headerDefaults(StealReplyFlyweight.TYPE);
        reply.requestId(requestId).none();
        sender.sendTo(thiefId, reply.frameLength());
        return 0;
    }

    /** Gives {@code job} (NEW, just polled) to the thief: {@link #GIVEN}, {@link #KEPT} or {@link #UNREACHABLE}. */
    private int give(final Job job, final int thiefId, final long requestId) {
        // Encode before claiming: the arguments of a spawned job never change, and a job that cannot be
        // encoded or sent must stay NEW so it can still run here.
        final String typeName;
        stampWriter.reset();
        argumentsWriter.reset();
        try {
            typeName = job.type().name();
            StampCodec.encode(Stamp.of(job), stampWriter);
            job.encodeArguments(argumentsWriter);
        } catch (final WireLimitException tooLarge) {
            // the encode stopped at the transport's largest message: it could not be sent anyway
            LOG.log(System.Logger.Level.INFO, () -> "job `" + job + "` stays on this node: " + tooLarge.getMessage());
            scheduler.submitRemote(job);
            return KEPT;
        } catch (final RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "job `" + job +
                "` cannot be encoded for another node, it runs here: " + e);
            scheduler.submitRemote(job);
            return KEPT;
        }
        final long frameLength = StealReplyFlyweight.JOB_TYPE_OFFSET + 3L * HeaderFlyweight.VAR_LENGTH_PREFIX +
            3L * typeName.length() + stampWriter.length() + argumentsWriter.length();
        if (frameLength > sender.maxFrameBytes()) {
            LOG.log(System.Logger.Level.INFO, () -> "job `" + job + "` stays on this node: its frame of " +
                frameLength + " bytes is larger than the " + sender.maxFrameBytes() + " bytes the transport takes (maxMessageBytes)");
            scheduler.submitRemote(job);
            return KEPT;
        }
        final long ownerJobId = given.claim(job, thiefId);
        if (ownerJobId == GivenJobs.NOT_CLAIMED) {
            return KEPT; // its parent aborted it meanwhile
        }
        boolean sent = false;
        try {
            final MutableDirectBuffer frame = sender.frameBuffer(frameLength);
            reply.wrap(frame, 0, frame.capacity());
            reply.headerDefaults(StealReplyFlyweight.TYPE);
            reply.requestId(requestId).ownerJobId(ownerJobId).job(typeName, stampWriter.buffer(), 0, stampWriter.length(),
                argumentsWriter.buffer(), 0, argumentsWriter.length());
            sent = sender.sendTo(thiefId, reply.frameLength());
        } finally {
            if (!sent) {
                given.unclaim(ownerJobId); // the thief's queue is full or it is gone: the job runs here
            }
        }
        if (!sent) {
            return UNREACHABLE;
        }
        given.onGiven();
        return GIVEN;
    }
}
