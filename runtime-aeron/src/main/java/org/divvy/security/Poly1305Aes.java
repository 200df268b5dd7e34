package org.divvy.security;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.DirectBuffer;

/**
 * Poly1305-AES (Bernstein, FSE 2005): the tag of a message m under the 32-byte key (k, r) and a 16-byte nonce n
 * is {@code Poly1305_r(m) + AES_k(n) mod 2^128}. A Wegman–Carter MAC: each tag is masked by a fresh AES output,
 * so it is secure as long as a nonce is never used twice under one key (forgery probability about
 * {@code 8·ceil(L/16)/2^106} per attempt for L-byte messages, plus AES's distinguishing advantage). The nonce is
 * authenticated with the message: a tag checked under another nonce fails.
 *
 * <p>AES is {@code javax.crypto}'s ({@code AES/ECB/NoPadding}, one block per tag, the AES-NI intrinsic); one
 * call per block measured 20–24 ns here, and 64 blocks in one call were no cheaper per block on JDK 17, so masks
 * are not computed ahead. {@link #reset}, {@link #update} and {@link #finish} allocate nothing.
 *
 * <p>Not thread-safe: one thread uses a {@code Poly1305Aes} and the keys it is reset with.
 */
final class Poly1305Aes {
    static final int KEY_LENGTH = 32;
    static final int NONCE_LENGTH = 16;
    static final int TAG_LENGTH = Poly1305.TAG_LENGTH;

    private static final VarHandle LITTLE_ENDIAN_LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** One key (k, r), made ready once: k's AES cipher initialised for single blocks, and r. */
    static final class Key {
        private final Cipher aes;
        private final long rLow;
        private final long rHigh;

        /** The key {@code k || r} (Bernstein's order: AES key first), {@link #KEY_LENGTH} bytes from {@code offset}. */
        Key(final byte[] key, final int offset) throws GeneralSecurityException {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, offset, 16, "AES"));
            rLow = (long) LITTLE_ENDIAN_LONGS.get(key, offset + 16);
            rHigh = (long) LITTLE_ENDIAN_LONGS.get(key, offset + 24);
        }

        /** Encrypts the block {@code in} into {@code out} (distinct arrays: the same one would make AES copy it). */
        private void encryptBlock(final byte[] in, final byte[] out) {
            try {
                aes.update(in, 0, NONCE_LENGTH, out, 0);
            } catch (final GeneralSecurityException e) {
                throw new IllegalStateException("AES failed on one block: " + e, e);
            }
        }
    }

    private final Poly1305 poly1305 = new Poly1305();
    private final byte[] nonce = new byte[NONCE_LENGTH];
    private final byte[] mask = new byte[NONCE_LENGTH];
    private long maskLow;
    private long maskHigh;

    /** Starts a tag under {@code key} with the 16-byte {@code nonce} at {@code nonceOffset}. */
    void reset(final Key key, final byte[] nonce, final int nonceOffset) {
        System.arraycopy(nonce, nonceOffset, this.nonce, 0, NONCE_LENGTH);
        start(key);
    }

    /**
     * Starts a tag under {@code key} with the nonce {@code instance || sequence || 0^32}, each little-endian: a
     * stream's message number {@code sequence}.
     */
    void reset(final Key key, final long instance, final int sequence) {
        LITTLE_ENDIAN_LONGS.set(nonce, 0, instance);
        LITTLE_ENDIAN_LONGS.set(nonce, 8, sequence & 0xFFFF_FFFFL);
        start(key);
    }

    private void start(final Key key) {
        key.encryptBlock(nonce, mask);
        maskLow = (long) LITTLE_ENDIAN_LONGS.get(mask, 0);
        maskHigh = (long) LITTLE_ENDIAN_LONGS.get(mask, 8);
        poly1305.reset(key.rLow, key.rHigh);
    }

    /** Adds {@code length} bytes of {@code data} from {@code offset} to the message. */
    void update(final DirectBuffer data, final int offset, final int length) {
        poly1305.update(data, offset, length);
    }

    /** Writes the tag of the message since {@link #reset} into {@code tag} at {@code offset} (16 bytes). */
    void finish(final byte[] tag, final int offset) {
        poly1305.finish(maskLow, maskHigh, tag, offset);
    }
}
