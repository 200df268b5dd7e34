package org.divvy.examples.uts;

/**
 * The splittable random number generator of UTS ({@code rng/brg_sha1.c} of the reference code): a
 * node's state is a 20-byte SHA-1 digest, here held as its five big-endian 32-bit words.
 *
 * <ul>
 *   <li>{@code rng_init(seed)}: SHA-1 of 16 zero bytes followed by the 4-byte big-endian seed;</li>
 *   <li>{@code rng_spawn(state, i)}: SHA-1 of the parent's 20 state bytes followed by the 4-byte
 *       big-endian child index {@code i};</li>
 *   <li>{@code rng_rand(state)}: bytes 16..19 read big-endian (the last word), masked to 31 bits;</li>
 *   <li>{@code rng_toProb(r)}: {@code r / 2^31}.</li>
 * </ul>
 *
 * <p>Both messages (20 and 24 bytes) fit one 64-byte SHA-1 block, so each digest is one compression
 * of a block built from ints: no {@code MessageDigest}, no byte arrays, no padding logic. The class
 * has no state; the 80-word message schedule is a per-call scratch array.
 */
public final class Sha1Rng {
    /** The number of 32-bit words in a state (a SHA-1 digest). */
    public static final int STATE_WORDS = 5;

    private Sha1Rng() {
    }

    /** The root state for root seed {@code seed} ({@code rng_init}). */
    public static int[] init(final int seed) {
        // 20-byte message: 16 zero bytes, then the seed; padding 0x80; bit length 160.
        return digestOfOneBlock(0, 0, 0, 0, seed, 0x8000_0000, 0, 160);
    }

    /** The state of child {@code childIndex} of the node with state {@code parent} ({@code rng_spawn}). */
    public static int[] spawn(final int[] parent, final int childIndex) {
        // 24-byte message: the parent's 20 bytes, then the index; padding 0x80; bit length 192.
        return digestOfOneBlock(parent[0], parent[1], parent[2], parent[3], parent[4], childIndex, 0x8000_0000, 192);
    }

    /** The state's random number in {@code [0, 2^31)} ({@code rng_rand}). */
    public static int rand(final int[] state) {
        return state[4] & 0x7fff_ffff;
    }

    /** The state's random number as a probability in {@code [0, 1)} ({@code rng_toProb(rng_rand)}). */
    public static double toProbability(final int[] state) {
        return rand(state) / 2147483648.0;
    }

    /**
     * SHA-1 (FIPS 180-4) of a one-block message whose first eight words are given, whose words 8..14
     * are zero and whose word 15 is {@code bitLength} (the length's high word, 14, is zero).
     */
    private static int[] digestOfOneBlock(final int w0, final int w1, final int w2, final int w3, final int w4,
        final int w5, final int w6, final int bitLength) {
        final int[] w = new int[80];
        w[0] = w0;
        w[1] = w1;
        w[2] = w2;
        w[3] = w3;
        w[4] = w4;
        w[5] = w5;
        w[6] = w6;
        w[15] = bitLength;
        for (int t = 16; t < 80; t++) {
            w[t] = Integer.rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
        }
        final int h0 = 0x67452301;
        final int h1 = 0xEFCDAB89;
        final int h2 = 0x98BADCFE;
        final int h3 = 0x10325476;
        final int h4 = 0xC3D2E1F0;
        int a = h0;
        int b = h1;
        int c = h2;
        int d = h3;
        int e = h4;
        for (int t = 0; t < 80; t++) {
            final int f;
            final int k;
            if (t < 20) {
                f = (b & c) | (~b & d);
                k = 0x5A827999;
            } else if (t < 40) {
                f = b ^ c ^ d;
                k = 0x6ED9EBA1;
            } else if (t < 60) {
                f = (b & c) | (b & d) | (c & d);
                k = 0x8F1BBCDC;
            } else {
                f = b ^ c ^ d;
                k = 0xCA62C1D6;
            }
            final int temp = Integer.rotateLeft(a, 5) + f + e + k + w[t];
            e = d;
            d = c;
            c = Integer.rotateLeft(b, 30);
            b = a;
            a = temp;
        }
        return new int[] {h0 + a, h1 + b, h2 + c, h3 + d, h4 + e};
    }
}
