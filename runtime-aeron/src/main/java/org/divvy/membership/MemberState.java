package org.divvy.membership;

/** The state of a member in the registry's list; its ordinal is the wire code. */
public enum MemberState {
    /** Joined and heard from within the heartbeat timeout. */
    ALIVE,
    /** Silent for longer than the heartbeat timeout: treated as crashed, its traffic is cut. */
    DEAD,
    /** Left gracefully. */
    LEFT;

    private static final MemberState[] VALUES = values();

    /** The state for a wire code, or null if the code is unknown. */
    static MemberState fromCode(final int code) {
        return code >= 0 && code < VALUES.length ? VALUES[code] : null;
    }

    /** The wire code. */
    int code() {
        return ordinal();
    }
}
