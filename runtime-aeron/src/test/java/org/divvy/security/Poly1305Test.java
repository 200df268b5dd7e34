package org.divvy.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import javax.crypto.Cipher;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Poly1305 computed here gives the published tags and javax.crypto's, bit for bit: the JDK has no Poly1305 alone,
 * but its ChaCha20-Poly1305 over no plaintext is Poly1305 of the padded associated data and the lengths, under
 * the one-time key that ChaCha20's block 0 gives (RFC 8439 §2.6 and §2.8), which the JDK's ChaCha20 also gives.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Poly1305Test {
    private static final HexFormat HEX = HexFormat.of();

    /** Poly1305 of {@code message} under the 32-byte one-time key {@code r || s}, in {@code parts} random parts. */
    private static byte[] tag(final byte[] key, final byte[] message, final int parts, final SplittableRandom random) {
        final Poly1305 poly1305 = new Poly1305();
        final ByteBuffer keyHalves = ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN);
        poly1305.reset(keyHalves.getLong(0), keyHalves.getLong(8));
        final int[] ends = new int[parts];
        for (int p = 0; p < parts - 1; p++) {
            ends[p] = random.nextInt(message.length + 1);
        }
        ends[parts - 1] = message.length;
        Arrays.sort(ends);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(message.length + 64));
        int start = 0;
        for (final int end : ends) {
            if (random.nextBoolean()) {
                poly1305.update(new UnsafeBuffer(message), start, end - start);
            } else {
                final int at = random.nextInt(50);
                direct.putBytes(at, message, start, end - start);
                poly1305.update(direct, at, end - start);
            }
            start = end;
        }
        final byte[] tag = new byte[Poly1305.TAG_LENGTH + 3];
        final int offset = random.nextInt(4);
        poly1305.finish(keyHalves.getLong(16), keyHalves.getLong(24), tag, offset);
        return Arrays.copyOfRange(tag, offset, offset + Poly1305.TAG_LENGTH);
    }

    @Test
    void shouldGiveThePublishedTags() {
        final SplittableRandom random = new SplittableRandom(8439);
        // RFC 8439 §2.5.2
        assertArrayEquals(HEX.parseHex("a8061dc1305136c6c22b8baf0c0127a9"), tag(
            HEX.parseHex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
            "Cryptographic Forum Research Group".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 1, random));
        // RFC 8439 Appendix A.3, #11: h reaches p's neighbourhood, the final reduction's edge
        assertArrayEquals(HEX.parseHex("13000000000000000000000000000000"), tag(
            HEX.parseHex("0100000000000000040000000000000000000000000000000000000000000000"),
            HEX.parseHex("e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000"),
            1, random));
        // RFC 8439 Appendix A.3, #5: h = p - 1 + 2 carries through every limb
        assertArrayEquals(HEX.parseHex("03000000000000000000000000000000"), tag(
            HEX.parseHex("0200000000000000000000000000000000000000000000000000000000000000"),
            HEX.parseHex("ffffffffffffffffffffffffffffffff"), 1, random));
        // RFC 8439 Appendix A.3, #6: s makes the sum wrap past 2^128
        assertArrayEquals(HEX.parseHex("03000000000000000000000000000000"), tag(
            HEX.parseHex("02000000000000000000000000000000ffffffffffffffffffffffffffffffff"),
            HEX.parseHex("02000000000000000000000000000000"), 1, random));
    }

    @Test
    void shouldGiveTheJdksChaCha20Poly1305TagForAnyDataInAnyParts() throws Exception {
        final SplittableRandom random = new SplittableRandom(20261125);
        for (int round = 0; round < 3_000; round++) {
            final byte[] key = new byte[32];
            final byte[] nonce = new byte[12];
            random.nextBytes(key);
            random.nextBytes(nonce);
            final byte[] aad = new byte[random.nextInt(301)];
            if (round % 4 == 0) {
                Arrays.fill(aad, (byte) 0xff); // the largest chunks: carries everywhere
            } else {
                random.nextBytes(aad);
            }
            final Cipher aead = Cipher.getInstance("ChaCha20-Poly1305");
            aead.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
            aead.updateAAD(aad);
            final byte[] expected = aead.doFinal(); // no plaintext: the tag alone

            final Cipher chacha = Cipher.getInstance("ChaCha20");
            chacha.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new ChaCha20ParameterSpec(nonce, 0));
            final byte[] oneTimeKey = chacha.doFinal(new byte[32]); // block 0's first 32 bytes: r || s
            final int padded = (aad.length + 15) / 16 * 16;
            final ByteBuffer macData = ByteBuffer.allocate(padded + 16).order(ByteOrder.LITTLE_ENDIAN);
            macData.put(aad).position(padded);
            macData.putLong(aad.length).putLong(0); // the lengths of the associated data and of the (empty) ciphertext
            assertArrayEquals(expected, tag(oneTimeKey, macData.array(), 1 + random.nextInt(4), random),
                "round " + round + ", " + aad.length + " bytes of associated data");
        }
    }
}
