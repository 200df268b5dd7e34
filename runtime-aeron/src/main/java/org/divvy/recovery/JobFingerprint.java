package org.divvy.recovery;

import org.agrona.DirectBuffer;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.WireWriter;

/**
 * What a job computes, in 64 bits: a hash of its type's name and of its encoded receiver and arguments. An orphan
 * result is reused for a restarted job only when their stamps and fingerprints agree: a stamp names a place in the
 * spawn tree, which is only reproducible if every job spawns its children in the same order every time it runs; an
 * application whose spawn order depends on shared state or randomness gives child n of the rerun the stamp of another
 * job, whose result would be a wrong answer. The fingerprint turns that mistake into recomputation.
 *
 * <p>Computed only on recovery paths (a finished orphan kept, a restarted job whose stamp is in the table), never per
 * spawn or steal. The scratch writer has no shared-object context: a shared object is written as its id, without
 * attaching it to any node.
 */
public final class JobFingerprint {
    /** No fingerprint: the job could not be encoded; it never matches, so it is recomputed. */
    public static final long NONE = 0;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private JobFingerprint() {
    }

    /** The fingerprint of {@code job}, encoded into {@code scratch} (reset first); {@link #NONE} if it cannot be encoded. */
    public static long of(final Job job, final WireWriter scratch) {
        final JobType type;
        try {
            type = job.type();
            scratch.reset();
            job.encodeArguments(scratch);
        } catch (final RuntimeException notEncodable) {
            return NONE;
        }
        long h = FNV_OFFSET;
        final String name = type == null ? "" : type.name();
        for (int i = 0, n = name.length(); i < n; i++) {
            h = (h ^ name.charAt(i)) * FNV_PRIME;
        }
        h = (h ^ 0xff) * FNV_PRIME; // separates the name from the arguments
        final DirectBuffer bytes = scratch.buffer();
        for (int i = 0, n = scratch.length(); i < n; i++) {
            h = (h ^ (bytes.getByte(i) & 0xff)) * FNV_PRIME;
        }
        h = mix(h);
        return h == NONE ? 1 : h;
    }

    /** MurmurHash3's finaliser: every input bit reaches every output bit (FNV alone mixes the last bytes poorly). */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb53fe85a1a87L;
        h ^= h >>> 33;
        return h;
    }
}
