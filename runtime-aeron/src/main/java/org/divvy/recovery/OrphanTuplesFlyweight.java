package org.divvy.recovery;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * ORPHAN_TUPLES: (holder, stamp) pairs, each saying that node {@code holder} keeps the finished result of
 * the job with that stamp (thesis §3.3 step 4), with the {@link JobFingerprint} of that job: a restarted job reuses
 * the result only if its own fingerprint agrees (its stamp alone may name another job when spawn order varies). Broadcast by a holder after a recovery, all its new pairs
 * in one message (combining), and sent whole to a node that joined during a run and asked for the table
 * ({@code Table} flag set: the receiver then knows it has seen every pair the sender knows).
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |            Flags (int32; bit 0: Table, the rest 0)            |
 *  +---------------------------------------------------------------+
 *  |                          Pair Count                           |
 *  +---------------------------------------------------------------+
 *  |  Pair Count x { Holder Node Id (int32) | Fingerprint (int64)   |
 *  |                 Stamp (var bytes) }                           ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Loss-tolerant: a lost message only costs recomputation.
 */
public final class OrphanTuplesFlyweight extends HeaderFlyweight {
    /** The message type code (ORPHAN_TUPLES): which node holds which finished orphan result. */
    public static final int TYPE = 14;
    /** Flag: the message is the sender's whole table, the answer to a joiner's request. */
    public static final int TABLE = 1;
    public static final int FLAGS_FIELD_OFFSET = HEADER_LENGTH;
    public static final int COUNT_OFFSET = FLAGS_FIELD_OFFSET + 4;
    public static final int PAIRS_OFFSET = COUNT_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = PAIRS_OFFSET - HEADER_LENGTH;
    /** Where a pair's stamp field starts, after the holder id and the fingerprint. */
    private static final int STAMP_FIELD = 4 + 8;
    /** The least bytes a pair takes: a holder id, a fingerprint and an empty stamp's length. */
    static final int MIN_PAIR_LENGTH = STAMP_FIELD + VAR_LENGTH_PREFIX;

    public boolean isTable() {
        return (buffer.getInt(FLAGS_FIELD_OFFSET, BYTE_ORDER) & TABLE) != 0;
    }

    public int count() {
        return buffer.getInt(COUNT_OFFSET, BYTE_ORDER);
    }

    /** Starts a message of {@code count} pairs; append them with {@link #putPair}, then set the frame length. */
    public OrphanTuplesFlyweight start(final boolean table, final int count) {
        buffer.putInt(FLAGS_FIELD_OFFSET, table ? TABLE : 0, BYTE_ORDER);
        buffer.putInt(COUNT_OFFSET, count, BYTE_ORDER);
        return this;
    }

    /** Writes one pair at {@code at}; returns where the next one goes. */
    public int putPair(final int at, final int holderId, final long fingerprint, final DirectBuffer stamp,
        final int stampOffset, final int stampLength) {
        buffer.putInt(at, holderId, BYTE_ORDER);
        buffer.putLong(at + 4, fingerprint, BYTE_ORDER);
        return putVarBytes(at + STAMP_FIELD, stamp, stampOffset, stampLength);
    }

    /** The holder of the pair at {@code at}. */
    public int holderAt(final int at) {
        return buffer.getInt(at, BYTE_ORDER);
    }

    /** The fingerprint of the job of the pair at {@code at}. */
    public long fingerprintAt(final int at) {
        return buffer.getLong(at + 4, BYTE_ORDER);
    }

    /** The offset of the stamp bytes of the pair at {@code at}. */
    public int stampOffsetAt(final int at) {
        return at + STAMP_FIELD + VAR_LENGTH_PREFIX;
    }

    /** The length of the stamp of the pair at {@code at}. */
    public int stampLengthAt(final int at) {
        return varLength(at + STAMP_FIELD);
    }

    /** Where the pair after the one at {@code at} starts. */
    public int nextPair(final int at) {
        return skipVar(at + STAMP_FIELD);
    }

    /** The frame length of {@code count} pairs whose stamps take {@code stampBytes} in all. */
    public static long frameLengthFor(final int count, final long stampBytes) {
        return PAIRS_OFFSET + (long)count * MIN_PAIR_LENGTH + stampBytes;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        if ((buffer.getInt(FLAGS_FIELD_OFFSET, BYTE_ORDER) & ~TABLE) != 0) {
            return false;
        }
        final int count = count();
        if (count < 0 || count > (frameLength - PAIRS_OFFSET) / MIN_PAIR_LENGTH) {
            return false;
        }
        int at = PAIRS_OFFSET;
        for (int i = 0; i < count; i++) {
            if (at + STAMP_FIELD > frameLength) {
                return false;
            }
            at = varFieldEnd(at + STAMP_FIELD, frameLength);
            if (at < 0) {
                return false;
            }
        }
        return at == frameLength;
    }
}
