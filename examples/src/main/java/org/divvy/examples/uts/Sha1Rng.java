package org.divvy.examples.uts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The splittable random number generator of UTS ({@code rng/brg_sha1.c} of the reference code): a
 * node's state is a 20-byte SHA-1 digest.
 *
 * <ul>
 *   <li>{@code rng_init(seed)}: SHA-1 of 16 zero bytes followed by the 4-byte big-endian seed;</li>
 *   <li>{@code rng_spawn(state, i)}: SHA-1 of the parent's 20 state bytes followed by the 4-byte
 *       big-endian child index {@code i};</li>
 *   <li>{@code rng_rand(state)}: bytes 16..19 read big-endian (the last word), masked to 31 bits;</li>
 *   <li>{@code rng_toProb(r)}: {@code r / 2^31}.</li>
 * </ul>
 *
 * <p>The digests are the JDK's {@code MessageDigest} SHA-1, whose compression HotSpot replaces with the CPU's SHA
 * instructions where it has them ({@code -XX:+PrintIntrinsics} shows {@code SHA::implCompress0 (intrinsic)}): 60
 * ns a digest here, against 198 ns with {@code -XX:-UseSHA1Intrinsics}. A state that travels (a job's argument) is
 * its five big-endian words, an {@code int[5]}; the search kernel ({@link SubtreeSearch}) keeps states as bytes, as
 * the digest writes them, and allocates nothing per node.
 */
public final class Sha1Rng {
    /** The number of 32-bit words in a state (a SHA-1 digest). */
    public static final int STATE_WORDS = 5;
    /** The number of bytes in a state. */
    public static final int STATE_BYTES = 20;
    /** The bytes {@code rng_spawn} hashes: a state and a child index. */
    public static final int SPAWN_MESSAGE_BYTES = STATE_BYTES + Integer.BYTES;

    private static final VarHandle BIG_ENDIAN_INT =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Sha1Rng() {
    }

    /** A new SHA-1 digest; one per thread (a digest is not thread-safe). */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-1 MessageDigest, which every JDK must have", e);
        }
    }

    /** The root state for root seed {@code seed} ({@code rng_init}). */
    public static int[] init(final int seed) {
        final byte[] message = new byte[SPAWN_MESSAGE_BYTES];
        putInt(message, 16, seed);
        digest(newDigest(), message, 0, 20, message, 0);
        return readState(message, 0);
    }

    /** The state of child {@code childIndex} of the node with state {@code parent} ({@code rng_spawn}). */
    public static int[] spawn(final int[] parent, final int childIndex) {
        final byte[] message = new byte[SPAWN_MESSAGE_BYTES];
        writeState(parent, message, 0);
        putInt(message, STATE_BYTES, childIndex);
        digest(newDigest(), message, 0, SPAWN_MESSAGE_BYTES, message, 0);
        return readState(message, 0);
    }

    /**
     * {@code rng_spawn} on bytes: hashes the state at {@code parentOffset} of {@code path} followed by the index
     * already written after it, and writes the child's state at {@code childOffset}. Allocates nothing.
     */
    static void spawnInPlace(final MessageDigest sha1, final byte[] path, final int parentOffset, final int childOffset) {
        digest(sha1, path, parentOffset, SPAWN_MESSAGE_BYTES, path, childOffset);
    }

    private static void digest(final MessageDigest sha1, final byte[] message, final int offset, final int length,
        final byte[] out, final int outOffset) {
        sha1.update(message, offset, length);
        try {
            sha1.digest(out, outOffset, STATE_BYTES);
        } catch (final DigestException e) {
            throw new IllegalStateException("SHA-1 digest into " + out.length + " bytes at " + outOffset, e);
        }
    }

    /** The state's random number in {@code [0, 2^31)} ({@code rng_rand}). */
    public static int rand(final int[] state) {
        return state[4] & 0x7fff_ffff;
    }

    /** The random number of the state held at {@code offset} of {@code bytes}. */
    static int rand(final byte[] bytes, final int offset) {
        return getInt(bytes, offset + 16) & 0x7fff_ffff;
    }

    /** The state's random number as a probability in {@code [0, 1)} ({@code rng_toProb(rng_rand)}). */
    public static double toProbability(final int[] state) {
        return toProbability(rand(state));
    }

    /** A random number (31 bits) as a probability in {@code [0, 1)} ({@code rng_toProb}). */
    public static double toProbability(final int random) {
        return random / 2147483648.0;
    }

    /** Writes {@code state} as the 20 bytes a digest would hold, at {@code offset} of {@code to}. */
    static void writeState(final int[] state, final byte[] to, final int offset) {
        for (int i = 0; i < STATE_WORDS; i++) {
            putInt(to, offset + 4 * i, state[i]);
        }
    }

    /** The state held as 20 bytes at {@code offset} of {@code from}. */
    static int[] readState(final byte[] from, final int offset) {
        final int[] state = new int[STATE_WORDS];
        for (int i = 0; i < STATE_WORDS; i++) {
            state[i] = getInt(from, offset + 4 * i);
        }
        return state;
    }

    static void putInt(final byte[] to, final int offset, final int value) {
        BIG_ENDIAN_INT.set(to, offset, value);
    }

    private static int getInt(final byte[] from, final int offset) {
        return (int)BIG_ENDIAN_INT.get(from, offset);
    }
}
