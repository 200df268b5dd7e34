package org.divvy.membership;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.protocol.FrameCounters;
import org.divvy.transport.FrameHandler;

/**
 * The registry's side of mastership (thesis §3.3: the registry, not each node alone, chooses the new
 * master, so a partition cannot elect two): it keeps the root of every run under way (ROOT from the node
 * that started it), chooses its master when the submitter asks for one, and, whenever the master is declared
 * dead or leaves, gives the root to a new one (ROOT with the takeover count, so it runs restarted and reuses
 * the saved work). A master's RUN_RESULT ends the run here: it is forwarded to the submitter, or, if the
 * submitter is gone too, reported to the registry's owner and answered with an END notice, so the master
 * ends the computation.
 *
 * <p>The new master is the alive member with the lowest id other than the submitter (the submitter only if
 * it is the last one): the submitter of a delegated run is typically the process that prints the answer.
 *
 * <p>Agent thread of the registry's host (a node, or a {@link StandaloneRegistry}).
 */
public final class RootKeeper implements Duty {
    private final Registry registry;
    private final FrameSender sender;
    private final FrameCounters counters;
    private final RootFlyweight root = new RootFlyweight();
    private final RunResultFlyweight result = new RunResultFlyweight();
    private final Long2ObjectHashMap<KeptRoot> roots = new Long2ObjectHashMap<>();
    private final List<KeptRoot> scratch = new ArrayList<>();
    /** Told how a run ended whose submitter is gone: a standalone registry prints it. */
    private volatile Consumer<String> onUnclaimedResult = line -> { };
    private int seenEpoch = -1;
    /** Runs whose forward to the submitter a full queue refused. */
    private int unsentForwards;
    /** Whether some root's ROOT to its master was refused by a full queue (sent again by {@link #doWork}). */
    private boolean rootsUnsent;
    /** Ended runs whose END notice a full queue refused: sent again until it goes or their master is gone. */
    private final List<KeptRoot> unsentEndNotices = new ArrayList<>();
    private long masterChanges;

    public RootKeeper(final Registry registry, final FrameSender sender, final FrameCounters counters) {
        this.registry = registry;
        this.sender = sender;
        this.counters = counters;
        registry.leaveVeto(this::whyNotLeave);
    }

    /** Why member {@code id} may not be ordered to leave: it waits for a run's value, or masters its own run. */
    private String whyNotLeave(final int id) {
        for (final KeptRoot kept : roots.values()) {
            if (kept.submitterId == id) {
                return kept.delegated ? "it waits for the value of the run it submitted (`" + kept.jobTypeName + "`)"
                    : "it runs the root of its own run (`" + kept.jobTypeName + "`, DivvyNode.run)";
            }
        }
        return null;
    }

    /** Registers ROOT and RUN_RESULT, for a registry without a node of its own. */
    void register(final FrameDispatcher dispatcher) {
        dispatcher.register(RootFlyweight.TYPE, "ROOT", new RootFlyweight(), RootFlyweight.MIN_BODY_LENGTH, Senders.ANY,
            (senderId, buffer, offset, length) -> {
                if (!onRoot(senderId, (RootFlyweight)root.wrap(buffer, offset, length), buffer)) {
                    FrameCounters.count(counters.fromUnknownSender);
                }
                return 1;
            });
        dispatcher.register(RunResultFlyweight.TYPE, "RUN_RESULT", new RunResultFlyweight(),
            RunResultFlyweight.MIN_BODY_LENGTH, Senders.ANY, (senderId, buffer, offset, length) -> {
                if (!onRunResult(senderId, (RunResultFlyweight)result.wrap(buffer, offset, length), buffer, offset, length)) {
                    FrameCounters.count(counters.fromUnknownSender);
                }
                return 1;
            });
    }

    /** Where the outcome of a run nobody waits for goes, as one line (any thread; before the agent starts). */
    public void onUnclaimedResult(final Consumer<String> listener) {
        this.onUnclaimedResult = listener;
    }

    /** How many times a root was given to a new master because the last one died or left. */
    public long masterChanges() {
        return masterChanges;
    }

    /** Runs under way, for tests. */
    public int runsKept() {
        return roots.size();
    }

    /**
     * A member's root: kept, and sent to the master chosen for it unless the submitter runs it itself.
     *
     * @return false if it is dropped: not from an alive member, a run id not of the sender's, a master that is
     *         neither the sender nor {@link RootFlyweight#NO_MASTER}.
     */
    public boolean onRoot(final int senderId, final RootFlyweight r) {
        return onRoot(senderId, r, r.buffer());
    }

    /**
     * As {@link #onRoot(int, RootFlyweight)}, with the buffer the frame came in ({@code r} wraps it from offset 0): a
     * large frame's own (an {@link OffHeapFrame}), kept by a reference of the registry's until the run is forgotten.
     */
    public boolean onRoot(final int senderId, final RootFlyweight r, final DirectBuffer frameBuffer) {
        final long runId = r.runId();
        if (!registry.isAlive(senderId) || (int)(runId >>> 32) != senderId) {
            return false;
        }
        if (roots.containsKey(runId)) {
            return true; // a repeat
        }
        final int master = r.masterId();
        if (master != senderId && master != RootFlyweight.NO_MASTER) {
            return false;
        }
        final int frameLength = r.buffer().capacity();
        final boolean large = frameLength > FrameHandler.OWN_BUFFER_MIN_BYTES;
        final UnsafeBuffer arguments;
        if (large) {
            // the frame's own buffer (the transport gave it to this handler): kept as it is, not copied here
            arguments = new UnsafeBuffer(r.buffer(), r.argumentsOffset(), r.argumentsLength());
            OffHeapFrame.retainIfOffHeap(frameBuffer); // the registry's reference, given back in forget()
        } else {
            final byte[] copy = new byte[r.argumentsLength()];
            r.buffer().getBytes(r.argumentsOffset(), copy);
            arguments = new UnsafeBuffer(copy);
        }
        final KeptRoot kept = new KeptRoot(runId, senderId, master == RootFlyweight.NO_MASTER, r.jobTypeName(), arguments,
            large ? frameBuffer : null);
        roots.put(runId, kept);
        if (!kept.delegated) {
            kept.masterId = senderId;
        } else if (large) {
            // sent on as it came, as the registry's: only its header, master and takeovers change (never again after)
            kept.masterId = choose(senderId);
            final UnsafeBuffer frame = new UnsafeBuffer(r.buffer(), 0, frameLength);
            root.wrap(frame, 0, frameLength);
            root.masterId(kept.masterId).takeovers(kept.takeovers).senderId(Registry.REGISTRY_ID).epoch(registry.epoch());
            if (!sendOwnedCopyOf(registry.endpointOf(kept.masterId), frameBuffer instanceof OffHeapFrame ? frameBuffer
                : frame, frameLength)) {
                // refused (a full queue): sent again by doWork, rebuilt from the arguments the frame still holds
                kept.rootUnsent = true;
                rootsUnsent = true;
            }
        } else {
            kept.masterId = choose(senderId);
            sendRoot(kept);
        }
        return true;
    }

    /**
     * A master's RUN_RESULT: the run ended. Forwarded to its submitter, unless that is the master itself or gone;
     * the run is kept until the submitter says the value arrived (RECEIVED), since a submitter that died but is
     * not declared dead yet would lose it: {@link #doWork} then reports it as unclaimed.
     *
     * @return false if dropped: no such run, not from its current master, a RECEIVED not from its submitter.
     */
    public boolean onRunResult(final int senderId, final RunResultFlyweight r, final DirectBuffer buffer, final int offset,
        final int length) {
        final KeptRoot kept = roots.get(r.runId());
        if (kept == null || r.outcome() == RunResultFlyweight.OUTCOME_END_NOTICE) {
            return false;
        }
        if (r.outcome() == RunResultFlyweight.OUTCOME_RECEIVED) {
            if (kept.unclaimedLine == null || senderId != kept.submitterId) {
                return false;
            }
            forget(kept); // the submitter has it
            return true;
        }
        if (kept.masterId != senderId || kept.unclaimedLine != null) {
            return false; // not its master, or a repeat of an outcome forwarded already
        }
        if (!kept.delegated && kept.submitterId == senderId) {
            forget(kept);
            return true; // the submitter ran its root itself and has the value
        }
        final String line = "run " + (kept.runId >>> 32) + "." + (int)kept.runId + " of `" + kept.jobTypeName + "`: node "
            + senderId + (kept.takeovers > 0 ? " (master after " + kept.takeovers + " takeover(s))" : "")
            + (r.outcome() == RunResultFlyweight.OUTCOME_VALUE ? " computed " + r.text() : " failed: "
                + r.text().replace('\n', ' '));
        kept.unclaimedLine = line;
        if (!registry.isAlive(kept.submitterId)) {
            reportUnclaimed(kept);
            return true;
        }
        final DirectBuffer frame;
        if (buffer instanceof OffHeapFrame && offset == 0 && length == buffer.capacity()) {
            frame = buffer; // the frame's own buffer: forwarded as it is, not copied here
        } else if (length > FrameHandler.OWN_BUFFER_MIN_BYTES) {
            frame = new UnsafeBuffer(buffer, offset, length); // the frame's own buffer: forwarded as it is, not copied here
        } else {
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
            copy.putBytes(0, buffer, offset, length);
            frame = copy;
        }
        if (!forward(frame, kept)) {
            // refused (a full queue): kept as the registry's copy and sent again by doWork until it goes
            kept.unsentForward = OffHeapFrame.retainIfOffHeap(frame);
            unsentForwards++;
        }
        return true;
    }

    /**
     * The master's RUN_RESULT to the submitter, as the registry's with the takeover count (its header changed in
     * {@code frame}, which the transport keeps if it must wait); whether it went.
     */
    private boolean forward(final DirectBuffer frame, final KeptRoot kept) {
        final int length = frame.capacity();
        result.wrap(frame, 0, length);
        result.senderId(Registry.REGISTRY_ID).epoch(registry.epoch());
        result.takeovers(kept.takeovers);
        return sendOwnedCopyOf(registry.endpointOf(kept.submitterId), frame, length);
    }

    /**
     * Hands {@code frame} to the transport without copying it; an {@link OffHeapFrame} with a reference of the
     * transport's own (the caller keeps its own); whether it was taken.
     */
    private boolean sendOwnedCopyOf(final String endpoint, final DirectBuffer frame, final int length) {
        OffHeapFrame.retainIfOffHeap(frame);
        if (sender.sendOwnedToEndpoint(endpoint, (MutableDirectBuffer)frame, length)) {
            return true;
        }
        OffHeapFrame.releaseIfOffHeap(frame);
        return false;
    }

    /** The registry's host closes: every run kept here is forgotten, its frames given back. */
    @Override
    public void onAgentClose() {
        scratch.clear();
        scratch.addAll(roots.values());
        for (final KeptRoot kept : scratch) {
            forget(kept);
        }
        scratch.clear();
    }

    /** The run is over here: forgotten, and the registry's references to its frames given back. */
    private void forget(final KeptRoot kept) {
        roots.remove(kept.runId);
        if (kept.unsentForward != null) {
            OffHeapFrame.releaseIfOffHeap(kept.unsentForward);
            kept.unsentForward = null;
            unsentForwards--;
        }
        OffHeapFrame.releaseIfOffHeap(kept.frame);
    }

    /** Sends again the forwards a full queue refused (rare: the loop runs only while there are some). */
    private int resendForwards() {
        int work = 0;
        for (final KeptRoot kept : roots.values()) {
            if (kept.unsentForward != null && registry.isAlive(kept.submitterId)) {
                if (forward(kept.unsentForward, kept)) {
                    OffHeapFrame.releaseIfOffHeap(kept.unsentForward); // the transport has its own reference
                    kept.unsentForward = null;
                    unsentForwards--;
                    work++;
                }
            }
        }
        return work;
    }

    /** The run's submitter is gone: its outcome goes to the registry's owner, and the master ends the computation. */
    private void reportUnclaimed(final KeptRoot kept) {
        forget(kept);
        onUnclaimedResult.accept(kept.unclaimedLine);
        if (!sendEndNotice(kept)) {
            unsentEndNotices.add(kept); // a full queue: without it the master would never end its computation
        }
    }

    /** Sends again the END notices a full queue refused; drops those whose master is gone (nobody to end). */
    private int resendEndNotices() {
        int work = 0;
        for (int i = unsentEndNotices.size() - 1; i >= 0; i--) {
            if (sendEndNotice(unsentEndNotices.get(i))) {
                unsentEndNotices.remove(i);
                work++;
            }
        }
        return work;
    }

    /**
     * Tells the run's master that nobody waits for its outcome any more, so it ends the computation itself;
     * whether that is done (sent, or no longer needed: the master is gone).
     */
    private boolean sendEndNotice(final KeptRoot kept) {
        if (!registry.isAlive(kept.masterId)) {
            return true;
        }
        final MutableDirectBuffer frame = sender.frameBuffer(RunResultFlyweight.lengthBound("", "", 0));
        result.wrap(frame, 0, frame.capacity());
        result.headerDefaults(RunResultFlyweight.TYPE).senderId(Registry.REGISTRY_ID).epoch(registry.epoch());
        result.result(kept.runId, kept.masterId, kept.takeovers, RunResultFlyweight.OUTCOME_END_NOTICE, "", "",
            new UnsafeBuffer(new byte[0]), 0, 0);
        return sender.sendToEndpoint(registry.endpointOf(kept.masterId), result.frameLength());
    }

    @Override
    public boolean isHousekeeping() {
        return false;
    }

    /** After a change of the member list: every root whose master died or left goes to a new master. */
    @Override
    public int doWork(final long nowNs) {
        final int epoch = registry.epoch();
        int work = unsentForwards == 0 ? 0 : resendForwards();
        if (rootsUnsent) {
            work += resendRoots();
        }
        if (!unsentEndNotices.isEmpty()) {
            work += resendEndNotices();
        }
        if (epoch == seenEpoch || roots.isEmpty()) {
            seenEpoch = epoch;
            return work;
        }
        seenEpoch = epoch;
        scratch.clear();
        scratch.addAll(roots.values());
        for (final KeptRoot kept : scratch) {
            if (kept.unclaimedLine != null) {
                // its outcome went to the submitter; if the submitter died before saying it arrived, it is unclaimed
                if (!registry.isAlive(kept.submitterId)) {
                    reportUnclaimed(kept);
                    work++;
                }
                continue;
            }
            if (registry.isAlive(kept.masterId)) {
                continue;
            }
            final int master = choose(kept.submitterId);
            if (master < 0) {
                forget(kept);
                onUnclaimedResult.accept("run " + (kept.runId >>> 32) + "." + (int)kept.runId + " of `" +
                    kept.jobTypeName + "` is lost: its master died and no member is left to run it");
                continue;
            }
            kept.masterId = master;
            kept.takeovers++;
            masterChanges++;
            sendRoot(kept);
            work++;
        }
        return work;
    }

    /** The alive member with the lowest id but {@code submitterId}; the submitter if it is the only one; -1: none. */
    private int choose(final int submitterId) {
        final int id = registry.lowestAliveExcept(submitterId);
        if (id >= 0) {
            return id;
        }
        return registry.isAlive(submitterId) ? submitterId : -1;
    }

    /**
     * Sends again the ROOTs a full queue refused, to masters still alive (a dead one's root goes to a new master
     * on the member-list change anyway). Rare: runs only while there are some.
     */
    private int resendRoots() {
        int work = 0;
        boolean still = false;
        for (final KeptRoot kept : roots.values()) {
            if (kept.rootUnsent && registry.isAlive(kept.masterId)) {
                if (sendRoot(kept)) {
                    work++;
                } else {
                    still = true;
                }
            }
        }
        rootsUnsent = still;
        return work;
    }

    /**
     * Sends the root to its master; whether it went. A refused one is marked and sent again, or the run would wait
     * forever for a master that never heard of it.
     */
    private boolean sendRoot(final KeptRoot kept) {
        final MutableDirectBuffer frame = sender.frameBuffer(RootFlyweight.lengthBound(kept.jobTypeName,
            kept.arguments.capacity()));
        root.wrap(frame, 0, frame.capacity());
        root.headerDefaults(RootFlyweight.TYPE).senderId(Registry.REGISTRY_ID).epoch(registry.epoch());
        root.root(kept.runId, kept.masterId, kept.takeovers, kept.jobTypeName, kept.arguments, 0,
            kept.arguments.capacity());
        final boolean sent = sender.sendToEndpoint(registry.endpointOf(kept.masterId), root.frameLength());
        kept.rootUnsent = !sent;
        rootsUnsent |= !sent;
        return sent;
    }

    /** A run under way: its root, who submitted it, who runs it. */
    private static final class KeptRoot {
        final long runId;
        final int submitterId;
        /** Whether the submitter waits for the value (it asked the registry to choose the master). */
        final boolean delegated;
        final String jobTypeName;
        /** The root's encoded arguments (a view of the ROOT frame as it came, if that was large). */
        final UnsafeBuffer arguments;
        int masterId;
        int takeovers;
        /** Once the outcome was forwarded to the submitter: how it ended, in case the submitter never says it arrived. */
        String unclaimedLine;
        /** The master's RUN_RESULT while its forward waits for room in the queue; null once it went. */
        DirectBuffer unsentForward;
        /** The ROOT frame {@link #arguments} is a view of, if that was large (the registry holds a reference); else null. */
        final DirectBuffer frame;
        /** Its last ROOT to its master was refused by a full queue: to be sent again. */
        boolean rootUnsent;

        KeptRoot(final long runId, final int submitterId, final boolean delegated, final String jobTypeName,
            final UnsafeBuffer arguments, final DirectBuffer frame) {
            this.frame = frame;
            this.runId = runId;
            this.submitterId = submitterId;
            this.delegated = delegated;
            this.jobTypeName = jobTypeName;
            this.arguments = arguments;
        }
    }
}
