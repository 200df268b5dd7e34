package org.divvy.protocol;

/**
 * The message types of the protocol: the {@code type} byte of {@link HeaderFlyweight}, and for each
 * the minimum body length (bytes after the header) a frame of that type must have before any field is
 * read.
 */
public final class MessageType {
    /** A node asks the registry to join: {@link JoinFlyweight}. */
    public static final int JOIN = 1;
    /** The registry's member list, sent to a joiner (then it is the JOIN_ACK) and after every change: {@link MemberListFlyweight}. */
    public static final int MEMBER_LIST = 2;
    /** A node leaves gracefully; header only. */
    public static final int LEAVE = 3;
    /** Liveness between a node and the registry; header only. */
    public static final int HEARTBEAT = 4;
    /** A thief asks a victim for a job: {@link StealRequestFlyweight}. */
    public static final int STEAL_REQUEST = 5;
    /** A victim's answer to a steal request, a job or none: {@link StealReplyFlyweight}. */
    public static final int STEAL_REPLY = 6;
    /** The outcome of a stolen job, sent back to its owner: {@link JobResultFlyweight}. */
    public static final int JOB_RESULT = 7;
    /** Cancel jobs by their owner's ids: {@link AbortFlyweight}. */
    public static final int ABORT = 8;
    /** The root job finished: every node exits. {@link TerminateFlyweight}. */
    public static final int TERMINATE = 9;
    /** One piece of a message larger than a publication's maximum message length: {@link ChunkFlyweight}. */
    public static final int CHUNK = 10;
    /**
     * The master started a run; header only. Peers end their deep idle and steal at once instead of
     * noticing the new work only after their idle park and steal pause.
     */
    public static final int RUN_STARTED = 11;

    /** The largest type code in use; codes above it are unknown. */
    public static final int MAX_TYPE = RUN_STARTED;

    private static final int[] MIN_BODY_LENGTH = {
        -1, // 0 is not a type
        JoinFlyweight.MIN_BODY_LENGTH,
        MemberListFlyweight.MIN_BODY_LENGTH,
        0,
        0,
        StealRequestFlyweight.BODY_LENGTH,
        StealReplyFlyweight.MIN_BODY_LENGTH,
        JobResultFlyweight.MIN_BODY_LENGTH,
        AbortFlyweight.MIN_BODY_LENGTH,
        TerminateFlyweight.BODY_LENGTH,
        ChunkFlyweight.MIN_BODY_LENGTH,
        0,
    };

    private static final String[] NAMES = {
        "UNKNOWN", "JOIN", "MEMBER_LIST", "LEAVE", "HEARTBEAT", "STEAL_REQUEST", "STEAL_REPLY", "JOB_RESULT",
        "ABORT", "TERMINATE", "CHUNK", "RUN_STARTED",
    };

    private MessageType() {
    }

    /** Whether {@code type} is a type this version of the protocol knows. */
    public static boolean isKnown(final int type) {
        return type >= 1 && type <= MAX_TYPE;
    }

    /** Bytes after the header a frame of a known {@code type} needs at least. */
    public static int minBodyLength(final int type) {
        return MIN_BODY_LENGTH[type];
    }

    /** The name of {@code type}, or {@code UNKNOWN}. */
    public static String name(final int type) {
        return isKnown(type) ? NAMES[type] : NAMES[0];
    }
}
