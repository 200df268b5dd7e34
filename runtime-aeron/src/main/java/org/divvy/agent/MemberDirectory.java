package org.divvy.agent;

/**
 * What the agent needs to know of membership to route frames: who this node is, where an alive member
 * is reached, and whether a sender's frames must be cut (thesis §3.1: once a member is suspected, all
 * traffic from it is dropped). Membership implements it; agent thread only.
 */
public interface MemberDirectory {
    /** {@link #senderStatus}: an alive member. */
    int MEMBER = 0;
    /** {@link #senderStatus}: an id no list named (not a member, or forged). */
    int UNKNOWN = 1;
    /** {@link #senderStatus}: a member that died or left. */
    int DEAD = 2;

    /** This node's id, or -1 before it joined. */
    int selfId();

    /** The epoch of the member list in use, stamped on every frame this node sends. */
    int epoch();

    /** The {@code host:port} of the alive member {@code nodeId}, or null if it is not an alive member. */
    String aliveEndpoint(int nodeId);

    /** The alive members other than this node, in id order; the caller must not change the array. */
    int[] aliveOthers();

    /** {@link #MEMBER}, {@link #UNKNOWN} or {@link #DEAD}. */
    int senderStatus(int senderId);
}
