package org.divvy.security;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;

import org.agrona.DirectBuffer;

/**
 * AES-128-GMAC computed incrementally, without allocating: the tag {@code AES/GCM/NoPadding} gives over no
 * plaintext, bit for bit (NIST SP 800-38D with a 96-bit nonce and a 128-bit tag). {@link #reset} starts a tag
 * under a {@link Key} and a nonce, {@link #update} adds authenticated data (the parts concatenate, as
 * {@code Cipher.updateAAD} calls do) and {@link #finish} writes the tag:
 * {@code GHASH_H(A || pad || [len(A)]64 || [0]64) XOR E_K(nonce || 0x00000001)}.
 *
 * <p>AES is {@code javax.crypto}'s ({@code AES/ECB/NoPadding}, one block per call, the AES-NI intrinsic);
 * GHASH is here, in long arithmetic with per-key tables of multiples of H, 8 bits of input a step (Shoup's
 * method, as mbedtls' {@code gcm_mult} does with 4): about 60 ns a block measured on a shared 2-core machine, where
 * 4 bits a step took twice that, and 16 tables of 256 products (64 KB a key, no reduction between lookups) or
 * 4 interleaved chains were no faster. Why not {@code AES/GCM/NoPadding}: JDK 17's GCM initialises its cipher
 * anew and allocates about 1.3 KB per tag, which cost more than the work itself on the small frames a node sends.
 *
 * <p>Not constant-time with respect to cache timing: GHASH reads its tables at indices that depend on H and the
 * data hashed. AES itself is the JDK's.
 *
 * <p>Not thread-safe: one thread uses a {@code Gmac} and the keys it is reset with.
 */
final class Gmac {
    static final int BLOCK_LENGTH = 16;
    static final int NONCE_LENGTH = 12;
    static final int TAG_LENGTH = 16;

    private static final VarHandle BIG_ENDIAN_LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** R = 11100001 || 0^120, the reduction of x^128 in GCM's bit-reflected order, as the high long. */
    private static final long R = 0xE1L << 56;
    /**
     * What the 8 bits shifted out of the low end when Z is multiplied by x^8 reduce to, XORed into the high
     * long: bit p of the byte (0: the highest power) becomes x^(128 + 7 - p), that is R shifted right by 7 - p.
     */
    private static final long[] REDUCE_BYTE = new long[256];

    static {
        for (int shiftedOut = 0; shiftedOut < 256; shiftedOut++) {
            long reduced = 0;
            for (int bit = 0; bit < 8; bit++) {
                if ((shiftedOut & (1 << bit)) != 0) {
                    reduced ^= R >>> (7 - bit);
                }
            }
            REDUCE_BYTE[shiftedOut] = reduced;
        }
    }

    /**
     * One AES-128 key, made ready once: its cipher (initialised for single blocks) and the products of its hash
     * key H = E_K(0^128) with every byte value, for GHASH.
     */
    static final class Key {
        private final Cipher aes;
        /** Index b: b·H, the byte b read as the first 8 coefficients of a GCM field element (b's top bit first). */
        private final long[] productHigh = new long[256];
        private final long[] productLow = new long[256];

        Key(final SecretKey key) throws GeneralSecurityException {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, key);
            final byte[] hashKey = aes.doFinal(new byte[BLOCK_LENGTH]);
            long high = (long) BIG_ENDIAN_LONGS.get(hashKey, 0);
            long low = (long) BIG_ENDIAN_LONGS.get(hashKey, 8);
            // 0x80 is 1 in the field, so 0x80·H = H; each lower bit is one more power of x (a right shift, reduced)
            for (int bit = 0x80; bit > 0; bit >>>= 1) {
                productHigh[bit] = high;
                productLow[bit] = low;
                final long carry = -(low & 1) & R;
                low = (high << 63) | (low >>> 1);
                high = (high >>> 1) ^ carry;
            }
            // the product is linear: b·H is the XOR of the products of b's bits
            for (int bit = 2; bit < 256; bit <<= 1) {
                for (int below = 1; below < bit; below++) {
                    productHigh[bit | below] = productHigh[bit] ^ productHigh[below];
                    productLow[bit | below] = productLow[bit] ^ productLow[below];
                }
            }
        }

        /** Encrypts the block {@code in} into {@code out} (distinct arrays: the same one would make AES copy it). */
        private void encryptBlock(final byte[] in, final byte[] out) {
            try {
                aes.update(in, 0, BLOCK_LENGTH, out, 0);
            } catch (final GeneralSecurityException e) {
                throw new IllegalStateException("AES failed on one block: " + e, e);
            }
        }
    }

    /** The counter block J0 = nonce || 0x00000001; its encryption masks the hash. */
    private final byte[] counterBlock = new byte[BLOCK_LENGTH];
    private final byte[] encryptedCounter = new byte[BLOCK_LENGTH];
    /** The start of a block the data so far ends inside of, {@link #pendingLength} bytes. */
    private final byte[] pending = new byte[BLOCK_LENGTH];
    private Key key;
    private int pendingLength;
    private long aadLength;
    /** The hash so far, Y, as two big-endian halves. */
    private long hashHigh;
    private long hashLow;

    Gmac() {
        counterBlock[BLOCK_LENGTH - 1] = 1;
    }

    /** Starts a tag under {@code key} with the 12-byte {@code nonce} at {@code nonceOffset}. */
    void reset(final Key key, final byte[] nonce, final int nonceOffset) {
        this.key = key;
        System.arraycopy(nonce, nonceOffset, counterBlock, 0, NONCE_LENGTH);
        pendingLength = 0;
        aadLength = 0;
        hashHigh = 0;
        hashLow = 0;
    }

    /** Adds {@code length} bytes of {@code data} from {@code offset} to the authenticated data. */
    void update(final byte[] data, final int offset, final int length) {
        int at = offset;
        int left = length;
        aadLength += length;
        if (pendingLength > 0) {
            final int taken = Math.min(BLOCK_LENGTH - pendingLength, left);
            System.arraycopy(data, at, pending, pendingLength, taken);
            pendingLength += taken;
            at += taken;
            left -= taken;
            if (pendingLength < BLOCK_LENGTH) {
                return;
            }
            absorbPending();
        }
        for (; left >= BLOCK_LENGTH; at += BLOCK_LENGTH, left -= BLOCK_LENGTH) {
            absorb((long) BIG_ENDIAN_LONGS.get(data, at), (long) BIG_ENDIAN_LONGS.get(data, at + 8));
        }
        System.arraycopy(data, at, pending, 0, left);
        pendingLength = left;
    }

    /** Adds {@code length} bytes of {@code data} from {@code offset} to the authenticated data. */
    void update(final DirectBuffer data, final int offset, final int length) {
        int at = offset;
        int left = length;
        aadLength += length;
        if (pendingLength > 0) {
            final int taken = Math.min(BLOCK_LENGTH - pendingLength, left);
            data.getBytes(at, pending, pendingLength, taken);
            pendingLength += taken;
            at += taken;
            left -= taken;
            if (pendingLength < BLOCK_LENGTH) {
                return;
            }
            absorbPending();
        }
        for (; left >= BLOCK_LENGTH; at += BLOCK_LENGTH, left -= BLOCK_LENGTH) {
            absorb(data.getLong(at, ByteOrder.BIG_ENDIAN), data.getLong(at + 8, ByteOrder.BIG_ENDIAN));
        }
        data.getBytes(at, pending, 0, left);
        pendingLength = left;
    }

    /** Writes the tag of the data since {@link #reset} into {@code tag} at {@code offset} (16 bytes). */
    void finish(final byte[] tag, final int offset) {
        if (pendingLength > 0) {
            Arrays.fill(pending, pendingLength, BLOCK_LENGTH, (byte) 0);
            absorbPending();
        }
        absorb(aadLength * Byte.SIZE, 0); // the lengths block: the data's bits, then the (empty) ciphertext's
        key.encryptBlock(counterBlock, encryptedCounter);
        BIG_ENDIAN_LONGS.set(tag, offset, hashHigh ^ (long) BIG_ENDIAN_LONGS.get(encryptedCounter, 0));
        BIG_ENDIAN_LONGS.set(tag, offset + 8, hashLow ^ (long) BIG_ENDIAN_LONGS.get(encryptedCounter, 8));
    }

    private void absorbPending() {
        absorb((long) BIG_ENDIAN_LONGS.get(pending, 0), (long) BIG_ENDIAN_LONGS.get(pending, 8));
        pendingLength = 0;
    }

    /**
     * Y = (Y XOR X)·H, one byte of Y XOR X at a time from its last (the highest powers of x): Z = Z·x^8 XOR b·H,
     * Horner's rule.
     */
    private void absorb(final long blockHigh, final long blockLow) {
        final long[] high = key.productHigh;
        final long[] low = key.productLow;
        final long xHigh = hashHigh ^ blockHigh;
        final long xLow = hashLow ^ blockLow;
        long zHigh = 0;
        long zLow = 0;
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            final int b = (int) (xLow >>> shift) & 0xFF;
            final int shiftedOut = (int) zLow & 0xFF;
            zLow = (zHigh << 56) | (zLow >>> 8);
            zHigh = (zHigh >>> 8) ^ REDUCE_BYTE[shiftedOut] ^ high[b];
            zLow ^= low[b];
        }
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            final int b = (int) (xHigh >>> shift) & 0xFF;
            final int shiftedOut = (int) zLow & 0xFF;
            zLow = (zHigh << 56) | (zLow >>> 8);
            zHigh = (zHigh >>> 8) ^ REDUCE_BYTE[shiftedOut] ^ high[b];
            zLow ^= low[b];
        }
        hashHigh = zHigh;
        hashLow = zLow;
    }
}
