package org.divvy.agent;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.divvy.DivvyException;
import org.divvy.protocol.AbortFlyweight;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.protocol.JobResultFlyweight;
import org.divvy.protocol.MessageType;
import org.divvy.protocol.StealReplyFlyweight;
import org.divvy.protocol.StealRequestFlyweight;
import org.divvy.protocol.TerminateFlyweight;

/**
 * The worker side of the border to the network agent: each call encodes one protocol frame into a
 * scratch buffer and writes it, with its destination, into the agent's many-to-one ring buffer. No
 * Aeron call happens on the worker thread and nothing is allocated per call.
 *
 * <p>Each method returns false when the ring buffer is full (the agent is behind): the caller keeps the
 * work and retries later. A frame larger than the ring's maximum message length cannot be sent this
 * way and throws {@link DivvyException} naming both sizes.
 *
 * <p>Owned by one worker thread: create one proxy per worker. The agent thread's own proxy
 * ({@link NetworkService#newAgentThreadProxy()}) bypasses the ring and always returns true.
 */
public final class NetworkProxy {
    /** The destination of {@link #broadcastTerminate(int)} and {@link #broadcastRunStarted()}. */
    static final int ALL_MEMBERS = -1;
    /** First frame capacity of an agent-thread proxy (64 KiB); it doubles as larger frames come. */
    static final int INITIAL_DIRECT_FRAME_BYTES = 64 * 1024;

    private final RingBuffer commands;
    /** When set, commands go straight to the agent: for a proxy owned by the agent thread itself. */
    private final MessageHandler direct;
    private final UnsafeBuffer scratch;
    private final UnsafeBuffer frameView = new UnsafeBuffer(0, 0);
    /** The largest frame this proxy can send: an eighth of the ring, or the transport's largest message. */
    private final int maxFrameBytes;
    private final StealRequestFlyweight stealRequest = new StealRequestFlyweight();
    private final StealReplyFlyweight stealReply = new StealReplyFlyweight();
    private final JobResultFlyweight jobResult = new JobResultFlyweight();
    private final AbortFlyweight abort = new AbortFlyweight();
    private final TerminateFlyweight terminate = new TerminateFlyweight();
    private final HeaderFlyweight runStarted = new HeaderFlyweight();

    public NetworkProxy(final RingBuffer commands) {
        this.commands = commands;
        this.direct = null;
        this.scratch = new UnsafeBuffer(new byte[commands.maxMsgLength()]);
        this.maxFrameBytes = scratch.capacity() - NetworkCommand.FRAME_OFFSET;
        frameView.wrap(scratch, NetworkCommand.FRAME_OFFSET, maxFrameBytes);
    }

    /**
     * A proxy for the agent thread itself (its listener's replies): each command is handed to the agent
     * at once instead of through the ring, so frames up to {@code maxFrameBytes} (the transport's largest
     * message, chunked on the wire) fit, not only an eighth of the ring.
     */
    NetworkProxy(final MessageHandler agent, final int maxFrameBytes) {
        this.commands = null;
        this.direct = agent;
        this.maxFrameBytes = maxFrameBytes;
        // starts small and grows on demand (checkFits): most frames are tiny, and nodes are many
        final int initial = Math.min(maxFrameBytes, INITIAL_DIRECT_FRAME_BYTES);
        this.scratch = new UnsafeBuffer(new byte[NetworkCommand.FRAME_OFFSET + initial]);
        frameView.wrap(scratch, NetworkCommand.FRAME_OFFSET, initial);
    }

    /** Asks {@code victimId} for a job; the reply comes as {@code onStolenJob} or {@code onStealFailed}. */
    public boolean requestSteal(final int victimId, final long requestId, final boolean wideArea) {
        stealRequest.wrap(frameView, 0, frameView.capacity());
        stealRequest.headerDefaults(MessageType.STEAL_REQUEST);
        stealRequest.requestId(requestId).wideArea(wideArea);
        return write(NetworkCommand.SEND, victimId, stealRequest.frameLength());
    }

    /** Tells thief {@code thiefId} there is no work for its request. */
    public boolean replyNone(final int thiefId, final long requestId) {
        stealReply.wrap(frameView, 0, frameView.capacity());
        stealReply.headerDefaults(MessageType.STEAL_REPLY);
        stealReply.requestId(requestId).none();
        return write(NetworkCommand.SEND, thiefId, stealReply.frameLength());
    }

    /**
     * Gives a job to thief {@code thiefId}. {@code ownerJobId} is this node's id for the job; the result
     * comes back quoting it.
     */
    public boolean replyJob(
        final int thiefId, final long requestId, final long ownerJobId, final String jobTypeName,
        final DirectBuffer stamp, final int stampOffset, final int stampLength,
        final DirectBuffer arguments, final int argumentsOffset, final int argumentsLength) {
        final long bound = StealReplyFlyweight.JOB_TYPE_OFFSET + 3L * HeaderFlyweight.VAR_LENGTH_PREFIX +
            3L * jobTypeName.length() + stampLength + argumentsLength;
        checkFits(bound, "steal reply of " + jobTypeName);
        stealReply.wrap(frameView, 0, frameView.capacity());
        stealReply.headerDefaults(MessageType.STEAL_REPLY);
        stealReply.requestId(requestId).ownerJobId(ownerJobId)
            .job(jobTypeName, stamp, stampOffset, stampLength, arguments, argumentsOffset, argumentsLength);
        return write(NetworkCommand.SEND, thiefId, stealReply.frameLength());
    }

    /** Returns the encoded result of job {@code ownerJobId} to its owner. */
    public boolean sendResult(final int ownerId, final long ownerJobId, final DirectBuffer result, final int offset, final int length) {
        checkFits(JobResultFlyweight.PAYLOAD_OFFSET + HeaderFlyweight.VAR_LENGTH_PREFIX + (long)length, "job result");
        jobResult.wrap(frameView, 0, frameView.capacity());
        jobResult.headerDefaults(MessageType.JOB_RESULT);
        jobResult.ownerJobId(ownerJobId).value(result, offset, length);
        return write(NetworkCommand.SEND, ownerId, jobResult.frameLength());
    }

    /** Returns a job's exception, as text, to its owner. Long texts are cut to fit the ring. */
    public boolean sendFailure(
        final int ownerId, final long ownerJobId, final String className, final String message, final String stackTrace) {
        reserve(JobResultFlyweight.PAYLOAD_OFFSET + 3L * HeaderFlyweight.VAR_LENGTH_PREFIX +
            9L * Math.max(length(className), Math.max(length(message), length(stackTrace))));
        final int room = (frameView.capacity() - JobResultFlyweight.PAYLOAD_OFFSET - 3 * HeaderFlyweight.VAR_LENGTH_PREFIX) / 3;
        final String name = cut(className, room / 3);
        final String text = cut(message, room / 3);
        final String trace = cut(stackTrace, room / 3);
        jobResult.wrap(frameView, 0, frameView.capacity());
        jobResult.headerDefaults(MessageType.JOB_RESULT);
        jobResult.ownerJobId(ownerJobId).exception(name, text, trace);
        return write(NetworkCommand.SEND, ownerId, jobResult.frameLength());
    }

    /** Tells the owner its job {@code ownerJobId} was aborted here. */
    public boolean sendAborted(final int ownerId, final long ownerJobId) {
        jobResult.wrap(frameView, 0, frameView.capacity());
        jobResult.headerDefaults(MessageType.JOB_RESULT);
        jobResult.ownerJobId(ownerJobId).aborted();
        return write(NetworkCommand.SEND, ownerId, jobResult.frameLength());
    }

    /** Asks {@code thiefId} to abort the first {@code count} jobs of {@code ownerJobIds} (this node's ids). */
    public boolean sendAbort(final int thiefId, final long[] ownerJobIds, final int count) {
        checkFits(AbortFlyweight.frameLengthFor(count), "abort of " + count + " jobs");
        abort.wrap(frameView, 0, frameView.capacity());
        abort.headerDefaults(MessageType.ABORT);
        abort.count(count);
        for (int i = 0; i < count; i++) {
            abort.jobId(i, ownerJobIds[i]);
        }
        return write(NetworkCommand.SEND, thiefId, abort.frameLength());
    }

    /** Tells every other member the run is over. */
    public boolean broadcastTerminate(final int exitCode) {
        terminate.wrap(frameView, 0, frameView.capacity());
        terminate.headerDefaults(MessageType.TERMINATE);
        terminate.exitCode(exitCode);
        return write(NetworkCommand.BROADCAST, ALL_MEMBERS, terminate.frameLength());
    }

    /**
     * Tells every other member a run started here, so deep-idle peers wake and steal at once rather than
     * after their idle park and steal pause. Header only.
     */
    public boolean broadcastRunStarted() {
        runStarted.wrap(frameView, 0, frameView.capacity());
        runStarted.headerDefaults(MessageType.RUN_STARTED);
        return write(NetworkCommand.BROADCAST, ALL_MEMBERS, runStarted.frameLength());
    }

    /** Leaves the run gracefully (LEAVE to the registry). */
    public boolean leave() {
        scratch.putInt(NetworkCommand.DESTINATION_OFFSET, ALL_MEMBERS);
        return send(NetworkCommand.LEAVE, NetworkCommand.FRAME_OFFSET);
    }

    /** An agent-thread proxy grows its frame buffer towards {@code frameLength} (at most its maximum). */
    private void reserve(final long frameLength) {
        if (frameLength > frameView.capacity() && direct != null && frameView.capacity() < maxFrameBytes) {
            final int grown = (int)Math.min(maxFrameBytes, Math.max(2L * frameView.capacity(), frameLength));
            scratch.wrap(new byte[NetworkCommand.FRAME_OFFSET + grown]);
            frameView.wrap(scratch, NetworkCommand.FRAME_OFFSET, grown);
        }
    }

    private void checkFits(final long frameLength, final String what) {
        reserve(frameLength);
        if (frameLength > frameView.capacity()) {
            throw new DivvyException(what + " needs " + frameLength + " bytes, the command ring takes at most " +
                frameView.capacity() + (direct != null ? ": the transport's largest message" : ": raise commandRingBytes"));
        }
    }

    private static int length(final String s) {
        return s == null ? 0 : s.length();
    }

    private static String cut(final String s, final int maxChars) {
        if (s == null) {
            return "";
        }
        return s.length() <= maxChars ? s : s.substring(0, Math.max(0, maxChars));
    }

    private boolean write(final int command, final int destination, final int frameLength) {
        scratch.putInt(NetworkCommand.DESTINATION_OFFSET, destination);
        return send(command, NetworkCommand.FRAME_OFFSET + frameLength);
    }

    private boolean send(final int command, final int length) {
        if (direct != null) {
            direct.onMessage(command, scratch, 0, length);
            return true;
        }
        return commands.write(command, scratch, 0, length);
    }
}
