package org.divvy.membership;

/** What a node's membership reports; called on the agent thread, must not block. */
public interface MembershipListener {
    /** The registry accepted this node under {@code selfId}. */
    void onJoined(int selfId);

    /** No registry answered within the join timeout; {@code message} says what to fix. */
    void onJoinFailed(String message);

    /** A member appeared or changed state (also called for every member of the first list). */
    void onMemberChanged(Member member);

    /** The registry was silent for the heartbeat timeout, or declared this node dead. */
    void onRegistryLost(String message);
}
