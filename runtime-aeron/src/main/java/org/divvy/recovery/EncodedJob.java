package org.divvy.recovery;

/**
 * A finished job as ORPHAN_RESULTS and RESULT_COPIES carry it: its stamp's bytes, its type's name, its receiver and
 * arguments and its result, each as the job's codecs wrote them, so a node that holds it can decode it into a job and
 * answer RESULT_REQUESTs from it.
 */
record EncodedJob(byte[] stamp, String typeName, byte[] arguments, byte[] result) {
    /** The bytes it takes in a message, at most. */
    long lengthBound() {
        return OrphanResultsFlyweight.entryLengthBound(stamp.length, typeName, arguments.length, result.length);
    }
}
