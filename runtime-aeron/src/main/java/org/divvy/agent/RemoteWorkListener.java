package org.divvy.agent;

import org.agrona.DirectBuffer;
import org.divvy.membership.Member;

/**
 * What the network delivers to the scheduler. Called on the network agent thread: implementations must
 * not block and must not keep the buffers beyond the call (copy or decode what they need); typically
 * they enqueue work for the workers.
 *
 * <p>Only frames from alive members reach these methods (thesis §3.1: a dead member's traffic is cut).
 */
public interface RemoteWorkListener {
    /** The registry accepted this node under {@code selfId}; steals and results may flow now. */
    void onJoined(int selfId);

    /** No registry answered within the join timeout; {@code message} says what to fix. */
    void onJoinFailed(String message);

    /** A member appeared, died or left. A dead member's stolen jobs must be re-queued (thesis §3.3). */
    void onMembershipChange(Member member);

    /** The registry is unreachable or declared this node dead; the node should stop. */
    void onRegistryLost(String message);

    /** A thief asks for a job; answer with {@link NetworkProxy#replyJob} or {@link NetworkProxy#replyNone}. */
    void onStealRequest(int thiefId, long requestId, boolean wideArea);

    /** The victim had nothing to give. */
    void onStealFailed(int victimId, long requestId);

    /**
     * The victim sent a job. The stamp and encoded arguments lie in {@code buffer} at the given offsets,
     * valid during the call only.
     */
    void onStolenJob(
        int victimId, long requestId, long ownerJobId, String jobTypeName,
        DirectBuffer buffer, int stampOffset, int stampLength, int argumentsOffset, int argumentsLength);

    /** A job stolen from this node completed on {@code thiefId}; its encoded result lies in {@code buffer}. */
    void onJobResult(int thiefId, long ownerJobId, DirectBuffer buffer, int offset, int length);

    /** A job stolen from this node threw on {@code thiefId}. */
    void onJobFailed(int thiefId, long ownerJobId, String exceptionClassName, String message, String stackTrace);

    /** A job stolen from this node was aborted on {@code thiefId}. */
    void onJobAborted(int thiefId, long ownerJobId);

    /** The owner {@code senderId} cancels its job {@code ownerJobId} (which this node stole). */
    void onAbort(int senderId, long ownerJobId);

    /** The root job finished: exit with {@code exitCode}. */
    void onTerminate(int senderId, int exitCode);

    /**
     * Member {@code senderId} started a run: work will appear there soon, so an idle node should end its
     * deep idle and ask for work now. Does nothing by default.
     */
    default void onRunStarted(final int senderId) {
    }

    /**
     * Messages of {@code messageType} to {@code peerId} were not delivered: the peer is dead or gone,
     * or its outbound queue was full. Steal requests and results to it will never be answered.
     */
    void onUndeliverable(int peerId, int messageType, int count);

    /**
     * Called once per duty cycle of the agent, after inbound frames were handled, with the cycle's clock
     * reading: the place for the scheduler side's own timers (remote steals, retries). Returns the work
     * done, 0 when idle, so the agent's idle strategy can back off. Does nothing by default.
     */
    default int onDutyCycle(final long nowNs) {
        return 0;
    }

    /**
     * Whether the node has nothing to do right now (no local work, nothing outstanding, nothing received
     * since the last call that a computation needs); asked once per duty cycle, after {@link #onDutyCycle}.
     * A node quiet long enough enters {@link DeepIdle deep idle}. By default never quiet.
     */
    default boolean isQuiet() {
        return false;
    }
}
