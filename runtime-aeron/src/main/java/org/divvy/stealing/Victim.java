package org.divvy.stealing;


import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.divvy.agent.CodecInbox;
import org.divvy.agent.CodecThread;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.codegen.Job;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireWriter;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.recovery.Orphans;
import org.divvy.results.GivenJobs;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.scheduling.Task;

/**
 * The victim side of remote stealing: answers a STEAL_REQUEST with the oldest queued job the scheduler
 * lets go (taken from a deque's tail, as a local thief would) that can be encoded, claimed and sent, or
 * with "none". A job that cannot leave (its arguments cannot be encoded, its frame is larger than
 * {@code maxMessageBytes}, or its thief cannot be reached or its queue is full) runs here instead; nothing
 * is lost.
 *
 * <p>A job whose arguments encode in {@link CodecThread#INLINE_BYTES} is encoded and sent on the agent
 * thread. A larger one is claimed for the thief at once and its reply encoded on the {@link CodecThread}
 * into a frame of its own, which comes back through {@link #encodedInbox}; the duty sends it (without a
 * copy), or, if it cannot be encoded or sent, unclaims the job so it runs here and tells the thief "none".
 * A job aborted or whose thief died while it was encoded is never sent (its entry is gone).
 *
 * <p>Agent thread only, except the tasks run on the codec thread, which only fill {@link #encodedInbox}.
 */
public final class Victim implements Duty {
    /** {@link #give}: the job went to the thief. */
    private static final int GIVEN = 1;
    /** {@link #give}: the job stays here (cannot leave, or was aborted); the next one may go. */
    private static final int KEPT = 0;
    /** {@link #give}: the thief cannot be sent to now; the job stays here and so do the others. */
    private static final int UNREACHABLE = -1;

    private static final System.Logger LOG = System.getLogger(Victim.class.getName());

    /** A large job's reply, encoded on the codec thread: its frame, or why it could not be. */
    private static final class EncodedReply {
        final Job job;
        final String typeName;
        final int thiefId;
        final long requestId;
        final long ownerJobId;
        MutableDirectBuffer frame;
        int frameLength;
        Throwable failure;

        EncodedReply(final Job job, final String typeName, final int thiefId, final long requestId, final long ownerJobId) {
            this.job = job;
            this.typeName = typeName;
            this.thiefId = thiefId;
            this.requestId = requestId;
            this.ownerJobId = ownerJobId;
        }
    }

    /** Replies encoded on the codec thread; drained by the duty. */
    private final CodecInbox<EncodedReply> encodedInbox = new CodecInbox<>(r -> OffHeapFrame.releaseIfOffHeap(r.frame));
    private final Scheduler scheduler;
    private final GivenJobs given;
    private final Orphans orphans;
    private final FrameSender sender;
    private final CodecThread codec;
    private final int maxFrameBytes;
    /** Per thief, large replies handed to the codec thread and not back yet; agent thread only. */
    private final Int2IntHashMap largeRepliesUnsent = new Int2IntHashMap(0);
    private final StealRequestFlyweight request = new StealRequestFlyweight();
    private final StealReplyFlyweight reply = new StealReplyFlyweight();
    private final WireWriter stampWriter = new WireWriter(64);
    private final WireWriter argumentsWriter = new WireWriter(256);
    /** Shared objects in jobs given away attach here (the shared-data module); null without it. */
    private SharedObjectContext sharedObjects;
    private int victimCursor;

    /**
     * LCRS: a wide-area request is answered with a job only while this node has at least this many queued (2):
     * its last queued job is left to its own site. Near the end of a run only small jobs are left, and one
     * that crosses the wide area costs a round trip out and a result back, often more than running it here.
     */
    public static final int LCRS_WIDE_AREA_MIN_QUEUED = 2;

    /** Queued jobs this node must have to give one to a wide-area request; 0 = no such rule (RS, CRS). */
    private final int wideAreaMinQueued;

    public Victim(final Scheduler scheduler, final GivenJobs given, final Orphans orphans, final FrameSender sender,
        final CodecThread codec) {
        this(scheduler, given, orphans, sender, codec, 0);
    }

    /** @param wideAreaMinQueued queued jobs needed to answer a wide-area request with a job; 0 = any (RS, CRS). */
    public Victim(final Scheduler scheduler, final GivenJobs given, final Orphans orphans, final FrameSender sender,
        final CodecThread codec, final int wideAreaMinQueued) {
        this.wideAreaMinQueued = wideAreaMinQueued;
        this.scheduler = scheduler;
        this.given = given;
        this.orphans = orphans;
        this.sender = sender;
        this.codec = codec;
        this.maxFrameBytes = sender.maxFrameBytes();
        // a job whose arguments pass this is encoded again on the codec thread, up to the largest frame
        argumentsWriter.limit(CodecThread.INLINE_BYTES);
    }

    /** Registers STEAL_REQUEST. */
    /** Lets jobs given away carry shared objects, attached to {@code context}'s node (the shared-data module). */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
        argumentsWriter.sharedObjects(context);
    }

    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(StealRequestFlyweight.TYPE, "STEAL_REQUEST", new StealRequestFlyweight(),
            StealRequestFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onStealRequest);
    }

    /** @return 1 when a job was given (work for the computation), 0 for "none". */
    private int onStealRequest(final int thiefId, final DirectBuffer buffer, final int offset, final int length) {
        request.wrap(buffer, offset, length);
        final long requestId = request.requestId();
        if (request.wantsOrphanTable() && orphans.hasTable()) { // only a complete table: else the thief asks another
            orphans.sendTableTo(thiefId); // a node that joined during a run learns what the others keep
        }
        if (largeRepliesUnsent.get(thiefId) > 0 || sender.queuedBulkBytesTo(thiefId) > 0) {
            // flow control: a large reply (or result) for this thief is still being encoded or sent; another
            // one would only queue behind it while the job could run here
            sendNone(thiefId, requestId);
            return 0;
        }
        if (wideAreaMinQueued > 0 && request.wideArea() && !scheduler.hasQueuedJobs(wideAreaMinQueued)) {
            sendNone(thiefId, requestId); // LCRS: the last queued job stays in this site
            return 0;
        }
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
        sendNone(thiefId, requestId);
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
        } catch (final WireLimitException large) {
            return giveLarge(job, thiefId, requestId);
        } catch (final RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "job `" + job +
                "` cannot be encoded for another node, it runs here: " + e);
            scheduler.submitRemote(job);
            return KEPT;
        }
        final long frameLength = StealReplyFlyweight.JOB_TYPE_OFFSET + 3L * HeaderFlyweight.VAR_LENGTH_PREFIX +
            3L * typeName.length() + stampWriter.length() + argumentsWriter.length();
        if (frameLength > maxFrameBytes) {
            LOG.log(System.Logger.Level.INFO, () -> "job `" + job + "` stays on this node: its frame of " +
                frameLength + " bytes is larger than maxMessageBytes=" + maxFrameBytes);
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
                argumentsWriter.buffer(), 0, argumentsWriter.length()).restarted(job.isRestarted());
            sent = sender.sendTo(thiefId, reply.frameLength());
        } finally {
            if (!sent) {
                given.unclaim(ownerJobId); // the thief's queue is full or it is gone: the job runs here
            }
        }
        if (!sent) {
            return UNREACHABLE;
        }
        given.onGiven(ownerJobId);
        return GIVEN;
    }

    /**
     * A job whose arguments pass {@link CodecThread#INLINE_BYTES}: claimed for the thief now, its reply
     * encoded on the codec thread and sent by the duty. Counts as given: the request is answered then.
     */
    private int giveLarge(final Job job, final int thiefId, final long requestId) {
        final String typeName = job.type().name();
        final long ownerJobId = given.claim(job, thiefId);
        if (ownerJobId == GivenJobs.NOT_CLAIMED) {
            return KEPT; // its parent aborted it meanwhile
        }
        final EncodedReply reply = new EncodedReply(job, typeName, thiefId, requestId, ownerJobId);
        largeRepliesUnsent.put(thiefId, largeRepliesUnsent.get(thiefId) + 1);
        codec.submit(() -> encodeLarge(reply), () -> { }); // dropped (the node closes): it holds no frame yet
        return GIVEN;
    }

    /**
     * On the codec thread: the whole STEAL_REPLY, written in place into a buffer of its own of exactly its
     * size (measured by a first pass through a {@link WireWriter#sizer()}), up to the largest frame: off the heap
     * ({@link FrameSender#ownFrame}), so no array of hundreds of MB is zeroed for it.
     */
    private void encodeLarge(final EncodedReply r) {
        MutableDirectBuffer out = null;
        try {
            final WireWriter sizer = WireWriter.sizer().limit(maxFrameBytes).sharedObjects(sharedObjects);
            writeReply(sizer, r);
            out = sender.ownFrame(sizer.length());
            final WireWriter w = WireWriter.into(out).limit(maxFrameBytes).sharedObjects(sharedObjects);
            writeReply(w, r);
            final StealReplyFlyweight frame = new StealReplyFlyweight();
            frame.wrap(out, 0, w.length());
            frame.headerDefaults(StealReplyFlyweight.TYPE);
            frame.requestId(r.requestId).ownerJobId(r.ownerJobId).jobWrittenInPlace(w.length()).restarted(r.job.isRestarted());
            r.frame = out;
            r.frameLength = w.length();
        } catch (final Throwable t) { // OutOfMemoryError included: the job then runs here
            OffHeapFrame.releaseIfOffHeap(out);
            r.failure = t;
        }
        encodedInbox.add(r);
    }

    /** The reply's variable part after room for its fixed part: job type, stamp, arguments. */
    private static void writeReply(final WireWriter w, final EncodedReply r) {
        w.skip(StealReplyFlyweight.JOB_TYPE_OFFSET);
        w.writeString(r.typeName);
        final int stampAt = w.length();
        w.skip(HeaderFlyweight.VAR_LENGTH_PREFIX);
        StampCodec.encode(Stamp.of(r.job), w);
        putLength(w, stampAt);
        final int argumentsAt = w.length();
        w.skip(HeaderFlyweight.VAR_LENGTH_PREFIX);
        r.job.encodeArguments(w);
        putLength(w, argumentsAt);
    }

    private static void putLength(final WireWriter w, final int prefixAt) {
        w.putIntAt(prefixAt, w.length() - prefixAt - HeaderFlyweight.VAR_LENGTH_PREFIX);
    }


    /** Sends the replies encoded on the codec thread, or runs their jobs here. */
    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        EncodedReply r;
        while ((r = encodedInbox.poll()) != null) {
            work++;
            final int left = largeRepliesUnsent.get(r.thiefId) - 1;
            if (left > 0) {
                largeRepliesUnsent.put(r.thiefId, left);
            } else {
                largeRepliesUnsent.remove(r.thiefId); // 0 is the map's missing value, which it cannot hold
            }
            if (!given.isAwaitingSend(r.ownerJobId)) {
                OffHeapFrame.releaseIfOffHeap(r.frame);
                continue; // aborted, or its thief died (then it was unclaimed): nothing to send
            }
            final EncodedReply reply = r;
            if (r.failure != null) {
                if (r.failure instanceof WireLimitException) {
                    LOG.log(System.Logger.Level.INFO, () -> "job `" + reply.job + "` stays on this node: " +
                        reply.failure.getMessage());
                } else {
                    LOG.log(System.Logger.Level.WARNING, () -> "job `" + reply.job +
                        "` cannot be encoded for another node, it runs here: " + reply.failure);
                }
            } else if (sender.sendOwnedTo(r.thiefId, r.frame, r.frameLength)) {
                given.onGiven(r.ownerJobId);
                continue;
            } else {
                OffHeapFrame.releaseIfOffHeap(r.frame);
            }
            // not encoded, or the thief's queue is full or it is gone: the job runs here, the thief hears "none"
            given.unclaim(r.ownerJobId);
            sendNone(r.thiefId, r.requestId);
        }
        return work;
    }

    /**
     * The node closes: the replies the codec thread encoded and the duty did not send give their frames back, and so
     * does one whose encode outlasted the codec thread's close.
     */
    @Override
    public void onAgentClose() {
        encodedInbox.close();
    }

    private void sendNone(final int thiefId, final long requestId) {
        final MutableDirectBuffer frame = sender.frameBuffer(StealReplyFlyweight.NONE_FRAME_LENGTH);
        reply.wrap(frame, 0, frame.capacity());
        reply.headerDefaults(StealReplyFlyweight.TYPE);
        reply.requestId(requestId).none();
        // not sent (the thief is gone or its control queue is full): its request times out, as a lost one would
        sender.sendTo(thiefId, reply.frameLength());
    }
}
