package org.divvy.recovery;

import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * ORPHAN_RESULTS: a node that leaves gracefully hands the finished orphan results it kept to a staying
 * node (thesis §3.5), which keeps them as if they were its own and announces them (ORPHAN_TUPLES). Each
 * entry is the job as a thief would have received it (stamp, type, receiver and arguments), so the
 * receiver holds a job it can answer RESULT_REQUESTs from, plus its result as the result codec writes it.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                          Entry Count                          |
 *  +---------------------------------------------------------------+
 *  |  Entry Count x { Stamp (var bytes) | Job Type Name (var       |
 *  |    string) | Receiver and Arguments (var bytes) | Result (var |
 *  |    bytes) }                                                  ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Loss-tolerant: a lost message only costs recomputation.
 */
public class OrphanResultsFlyweight extends HeaderFlyweight {
    /** The message type code (ORPHAN_RESULTS). */
    public static final int TYPE = 19;
    public static final int COUNT_OFFSET = HEADER_LENGTH;
    public static final int ENTRIES_OFFSET = COUNT_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = ENTRIES_OFFSET - HEADER_LENGTH;
    /** The fields of an entry, each a var field. */
    static final int FIELDS = 4;

    /** Where the entry count is: after the header, or after a subtype's fields. */
    private final int countOffset;

    public OrphanResultsFlyweight() {
        this(COUNT_OFFSET);
    }

    /** For a message whose entries follow fields of its own ({@link ResultCopiesFlyweight}): the count is at {@code countOffset}. */
    protected OrphanResultsFlyweight(final int countOffset) {
        this.countOffset = countOffset;
    }

    /** Where the first entry starts. */
    public final int entriesOffset() {
        return countOffset + 4;
    }

    public int count() {
        return buffer.getInt(countOffset, BYTE_ORDER);
    }

    public OrphanResultsFlyweight count(final int count) {
        buffer.putInt(countOffset, count, BYTE_ORDER);
        return this;
    }

    /** Writes one entry at {@code at}; returns where the next one goes. */
    public int putEntry(final int at, final DirectBuffer stamp, final int stampLength, final String jobTypeName,
        final DirectBuffer arguments, final int argumentsLength, final DirectBuffer result, final int resultLength) {
        final int typeAt = putVarBytes(at, stamp, 0, stampLength);
        final int argumentsAt = putVarString(typeAt, jobTypeName);
        return putVarBytes(putVarBytes(argumentsAt, arguments, 0, argumentsLength), result, 0, resultLength);
    }

    /** Writes {@code jobs} as entries from {@link #entriesOffset()}, their count included; returns the frame's end. */
    public int putEntries(final List<EncodedJob> jobs) {
        count(jobs.size());
        int at = entriesOffset();
        for (final EncodedJob e : jobs) {
            at = putEntry(at, new UnsafeBuffer(e.stamp()), e.stamp().length, e.typeName(), new UnsafeBuffer(e.arguments()),
                e.arguments().length, new UnsafeBuffer(e.result()), e.result().length);
        }
        return at;
    }

    /** The bytes an entry takes, at most. */
    public static long entryLengthBound(final int stampLength, final String jobTypeName, final int argumentsLength,
        final int resultLength) {
        return FIELDS * (long)VAR_LENGTH_PREFIX + stampLength + 3L * jobTypeName.length() + argumentsLength + resultLength;
    }

    /** Where the field {@code field} (0: stamp, 1: type name, 2: arguments, 3: result) of the entry at {@code at} starts. */
    public int fieldAt(final int at, final int field) {
        int f = at;
        for (int i = 0; i < field; i++) {
            f = skipVar(f);
        }
        return f;
    }

    /** The bytes of the var field at {@code at} start here. */
    public int dataOffset(final int fieldAt) {
        return fieldAt + VAR_LENGTH_PREFIX;
    }

    public int dataLength(final int fieldAt) {
        return varLength(fieldAt);
    }

    public String stringAt(final int fieldAt) {
        return getVarString(fieldAt);
    }

    /** Where the entry after the one at {@code at} starts. */
    public int nextEntry(final int at) {
        return fieldAt(at, FIELDS);
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int count = count();
        if (count < 0 || count > (frameLength - entriesOffset()) / (FIELDS * VAR_LENGTH_PREFIX)) {
            return false;
        }
        int at = entriesOffset();
        for (int i = 0; i < count * FIELDS; i++) {
            at = varFieldEnd(at, frameLength);
            if (at < 0) {
                return false;
            }
        }
        return at == frameLength;
    }
}
