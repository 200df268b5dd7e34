package org.divvy.membership;

/**
 * What a node's membership reports to the other mechanisms; called on the agent thread, must not block.
 * Every method does nothing by default: a mechanism implements what it needs.
 */
public interface MembershipListener {
    /** The registry accepted this node under {@code selfId}. */
    default void onJoined(final int selfId) {
    }

    /** No registry answered within the join timeout; {@code message} says what to fix. */
    default void onJoinFailed(final String message) {
    }

    /**
     * A member appeared or changed state (also called for every member of the first list). A member that
     * died or left is cut already: nothing more is received from it or sent to it.
     */
    default void onMemberChanged(final Member member) {
    }

    /**
     * The registry orders this node to leave gracefully ({@code divvy leave}); told once. Must not block: the
     * leave itself (which waits for results to be handed over) runs on another thread.
     */
    default void onLeaveOrdered() {
    }

    /** The registry was silent for the heartbeat timeout, or declared this node dead: the node should stop. */
    default void onRegistryLost(final String message) {
    }
}
