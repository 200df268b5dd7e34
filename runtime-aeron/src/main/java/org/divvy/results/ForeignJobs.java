package org.divvy.results;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.codegen.Job;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;

/**
 * The thief side of results and aborts: jobs this node stole and runs for remote owners. Stealing
 * {@link #adopt adopts} a decoded job here; when it ends, its outcome (result, failure or abort) goes back
 * to its owner as JOB_RESULT; an owner's ABORT, an owner's death or the end of the computation cancels it.
 *
 * <p>Single writer: the network agent thread owns the table and the encoders (handler, duty, membership
 * events), except {@link #cancelAll} once that thread has stopped. Workers reach it only through
 * {@link #endedQueue}, which {@link ForeignJob#onRemoteJobEnded} fills; the counters are read by any thread.
 */
public final class ForeignJobs implements Duty, MembershipListener {
    /** The longest exception text sent back (each of class name, message, stack trace), in chars. */
    static final int MAX_EXCEPTION_TEXT_CHARS = 16 * 1024;

    private static final System.Logger LOG = System.getLogger(ForeignJobs.class.getName());

    /** Foreign jobs that ended here; filled by workers, drained by the agent thread. */
    final ConcurrentLinkedQueue<ForeignJob> endedQueue = new ConcurrentLinkedQueue<>();

    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;

    // Agent thread only.
    private final Int2ObjectHashMap<Long2ObjectHashMap<ForeignJob>> byOwner = new Int2ObjectHashMap<>();
    private final WireWriter resultWriter = new WireWriter(256);
    private final JobResultFlyweight jobResult = new JobResultFlyweight();
    private final AbortFlyweight abort = new AbortFlyweight();
    private ForeignJob unsentEnded;

    // Counters: written by the agent thread only, read by any.
    private volatile long remoteJobsRun;

    public ForeignJobs(final Scheduler scheduler, final Members members, final FrameSender sender) {
        this.scheduler = scheduler;
        this.members = members;
        this.sender = sender;
        resultWriter.limit(sender.maxFrameBytes()); // a result too large to return stops encoding at the bound
    }

    /** Registers ABORT, the message this side receives. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(AbortFlyweight.TYPE, "ABORT", new AbortFlyweight(), AbortFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, this::onAbort);
    }

    /** Foreign jobs whose outcome was sent to their owner. */
    public long remoteJobsRun() {
        return remoteJobsRun;
    }

    /** No job held for a remote owner and no outcome waiting to be sent. */
    public boolean isEmpty() {
        if (unsentEnded != null || !endedQueue.isEmpty()) {
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
    public void adopt(final Job job, final Stamp stamp, final int ownerId, final long ownerJobId, final boolean computationOver) {
        final ForeignJob foreign = new ForeignJob(this, job, ownerId, ownerJobId);
        foreign.adopt(stamp);
        Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        if (byId == null) {
            byId = new Long2ObjectHashMap<>();
            byOwner.put(ownerId, byId);
        }
        byId.put(ownerJobId, foreign);
        if (computationOver) {
            foreign.requestCancel();
        }
        scheduler.submitRemote(job);
    }

    /** A stolen job could not be decoded: the owner gets the failure instead of waiting forever. */
    public void rejectUndecodable(final int ownerId, final long ownerJobId, final String problem) {
        LOG.log(System.Logger.Level.ERROR, problem);
        sendFailure(ownerId, ownerJobId, DivvyException.class.getName(), problem, "");
    }

    /** The owner aborted jobs this node runs for it: they stop at their next spawn or sync, then report ABORTED. */
    private int onAbort(final int ownerId, final DirectBuffer buffer, final int offset, final int length) {
        abort.wrap(buffer, offset, length);
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        for (int i = 0, count = abort.count(); i < count && byId != null; i++) {
            final ForeignJob foreign = byId.get(abort.jobId(i));
            if (foreign != null) {
                foreign.requestCancel();
            }
        }
        return 1;
    }

    /** Jobs this node runs for a member that died or left are orphans: cancel them. */
    @Override
    public void onMemberChanged(final Member member) {
        if (member.isAlive() || member.id() == members.selfId()) {
            return;
        }
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(member.id());
        if (byId != null) {
            for (final ForeignJob foreign : byId.values()) {
                foreign.requestCancel();
            }
        }
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
    }

    /** Sends the outcomes of jobs that ended here for remote owners. */
    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        for (;;) {
            final ForeignJob ended = unsentEnded != null ? unsentEnded : endedQueue.poll();
            unsentEnded = null;
            if (ended == null) {
                return work;
            }
            if (!members.isAlive(ended.ownerId)) {
                forget(ended);
                continue; // the owner is gone: nobody waits for this outcome
            }
            if (!sendOutcome(ended)) {
                unsentEnded = ended; // its queue is full: again next cycle
                return work;
            }
            forget(ended);
            remoteJobsRun++;
            work++;
        }
    }

    private boolean sendOutcome(final ForeignJob ended) {
        if (ended.isDone()) {
            resultWriter.reset();
            try {
                ended.job.writeResult(resultWriter);
            } catch (final RuntimeException e) {
                return sendFailure(ended.ownerId, ended.ownerJobId, e.getClass().getName(),
                    "could not encode the result on node " + members.selfId() + ": " + e.getMessage(), stackTrace(e));
            }
            final long frameLength = JobResultFlyweight.PAYLOAD_OFFSET + HeaderFlyweight.VAR_LENGTH_PREFIX +
                (long)resultWriter.length();
            if (frameLength > sender.maxFrameBytes()) {
                return sendFailure(ended.ownerId, ended.ownerJobId, DivvyException.class.getName(),
                    "the result of job `" + ended.displayName() + "` cannot be returned from node " + members.selfId() +
                        ": its frame of " + frameLength + " bytes is larger than the " + sender.maxFrameBytes() +
                        " bytes the transport takes (maxMessageBytes)", "");
            }
            final MutableDirectBuffer frame = sender.frameBuffer(frameLength);
            jobResult.wrap(frame, 0, frame.capacity());
            jobResult.headerDefaults(JobResultFlyweight.TYPE);
            jobResult.ownerJobId(ended.ownerJobId).value(resultWriter.buffer(), 0, resultWriter.length());
            return sender.sendTo(ended.ownerId, jobResult.frameLength());
        }
        if (ended.isFailed()) {
            final Throwable t = ended.failure();
            return sendFailure(ended.ownerId, ended.ownerJobId, t.getClass().getName(), t.getMessage(), stackTrace(t));
        }
        final MutableDirectBuffer frame = sender.frameBuffer(JobResultFlyweight.PAYLOAD_OFFSET);
        jobResult.wrap(frame, 0, frame.capacity());
        jobResult.headerDefaults(JobResultFlyweight.TYPE);
        jobResult.ownerJobId(ended.ownerJobId).aborted();
        return sender.sendTo(ended.ownerId, jobResult.frameLength());
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
