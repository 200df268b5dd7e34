package org.divvy.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** GMAC computed here gives javax.crypto's AES-GCM tag over no plaintext, bit for bit. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GmacTest {
    private static final HexFormat HEX = HexFormat.of();

    /** The tag of {@code aad} as javax.crypto computes it: AES-GCM with no plaintext. */
    private static byte[] jdkTag(final byte[] key, final byte[] nonce, final byte[] aad) throws Exception {
        final Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        gcm.updateAAD(aad);
        return gcm.doFinal();
    }

    private static byte[] tag(final byte[] key, final byte[] nonce, final byte[] aad) throws Exception {
        final Gmac gmac = new Gmac();
        gmac.reset(new Gmac.Key(new SecretKeySpec(key, "AES")), nonce, 0);
        gmac.update(aad, 0, aad.length);
        final byte[] tag = new byte[Gmac.TAG_LENGTH];
        gmac.finish(tag, 0);
        return tag;
    }

    @Test
    void shouldGiveThePublishedTags() throws Exception {
        // The GCM specification's (McGrew and Viega) test case 1: zero key and nonce, nothing to authenticate
        assertArrayEquals(HEX.parseHex("58e2fccefa7e3061367f1d57a4e7455a"),
            tag(new byte[16], new byte[12], new byte[0]));
        // NIST CAVP gcmEncryptExtIV128.rsp, PTlen = 0, AADlen = 128, count 0
        final byte[] key = HEX.parseHex("77be63708971c4e240d1cb79e8d77feb");
        final byte[] nonce = HEX.parseHex("e0e00f19fed7ba0136a797f3");
        final byte[] aad = HEX.parseHex("7a43ec1d9c0a5a78a0b16533a6213cab");
        final byte[] expected = HEX.parseHex("209fcc8d3675ed938e9c7166709dd946");
        assertArrayEquals(expected, jdkTag(key, nonce, aad), "the vector, as the JDK computes it");
        assertArrayEquals(expected, tag(key, nonce, aad));
    }

    @Test
    void shouldGiveTheJdksTagForAnyKeyNonceAndDataInAnyParts() throws Exception {
        final SplittableRandom random = new SplittableRandom(20261123);
        final Gmac gmac = new Gmac();
        final byte[] tag = new byte[Gmac.TAG_LENGTH + 3];
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(400));
        for (int round = 0; round < 5_000; round++) {
            final byte[] key = new byte[16];
            final byte[] nonce = new byte[Gmac.NONCE_LENGTH + 5];
            final byte[] aad = new byte[random.nextInt(301)];
            random.nextBytes(key);
            random.nextBytes(nonce);
            random.nextBytes(aad);
            final int nonceOffset = random.nextInt(6);
            final byte[] nonceUsed = Arrays.copyOfRange(nonce, nonceOffset, nonceOffset + Gmac.NONCE_LENGTH);
            final byte[] expected = jdkTag(key, nonceUsed, aad);
            // 1 to 3 parts at random boundaries, each from an array, a buffer over an array or a direct buffer
            final int parts = 1 + random.nextInt(3);
            final int[] ends = new int[parts];
            for (int p = 0; p < parts - 1; p++) {
                ends[p] = random.nextInt(aad.length + 1);
            }
            ends[parts - 1] = aad.length;
            Arrays.sort(ends);
            gmac.reset(new Gmac.Key(new SecretKeySpec(key, "AES")), nonce, nonceOffset);
            int start = 0;
            for (final int end : ends) {
                switch (random.nextInt(3)) {
                    case 0 -> gmac.update(aad, start, end - start);
                    case 1 -> gmac.update(new UnsafeBuffer(aad), start, end - start);
                    default -> {
                        final int at = random.nextInt(50);
                        direct.putBytes(at, aad, start, end - start);
                        gmac.update(direct, at, end - start);
                    }
                }
                start = end;
            }
            final int tagOffset = random.nextInt(4);
            gmac.finish(tag, tagOffset);
            assertArrayEquals(expected, Arrays.copyOfRange(tag, tagOffset, tagOffset + Gmac.TAG_LENGTH),
                "round " + round + ", " + aad.length + " bytes in " + parts + " parts");
        }
    }
}
