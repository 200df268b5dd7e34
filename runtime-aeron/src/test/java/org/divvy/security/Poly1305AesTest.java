package org.divvy.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Poly1305-AES gives the tags of Bernstein's paper, and its stream nonces are the documented bytes. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class Poly1305AesTest {
    private static final HexFormat HEX = HexFormat.of();

    private static byte[] tag(final String k, final String r, final String nonce, final String message) throws Exception {
        final Poly1305Aes mac = new Poly1305Aes();
        mac.reset(new Poly1305Aes.Key(HEX.parseHex(k + r), 0), HEX.parseHex(nonce), 0);
        final byte[] m = HEX.parseHex(message);
        mac.update(new UnsafeBuffer(m), 0, m.length);
        final byte[] tag = new byte[Poly1305Aes.TAG_LENGTH];
        mac.finish(tag, 0);
        return tag;
    }

    /** "The Poly1305-AES message-authentication code" (FSE 2005), appendix B: (k, r, n, m) and the tag. */
    @Test
    void shouldGiveThePapersTags() throws Exception {
        assertArrayEquals(HEX.parseHex("f4c633c3044fc145f84f335cb81953de"), tag("ec074c835580741701425b623235add6",
            "851fc40c3467ac0be05cc20404f3f700", "fb447350c4e868c52ac3275cf9d4327e", "f3f6"));
        assertArrayEquals(HEX.parseHex("dd3fab2251f11ac759f0887129cc2ee7"), tag("75deaa25c09f208e1dc4ce6b5cad3fbf",
            "a0f3080000f46400d0c7e9076c834403", "61ee09218d29b0aaed7e154a2c5509cc", ""));
        assertArrayEquals(HEX.parseHex("0ee1c16bb73f0f4fd19881753c01cdbe"), tag("6acb5f61a7176dd320c5c1eb2edcdc74",
            "48443d0bb0d21109c89a100b5ce2c208", "ae212a55399729595dea458bc621ff0e",
            "663cea190ffb83d89593f3f476b6bc24d7e679107ea26adb8caf6652d0656136"));
        assertArrayEquals(HEX.parseHex("5154ad0d2cb26e01274fc51148491f1b"), tag("e1a5668a4d5b66a5f68cc5424ed5982d",
            "12976a08c4426d0ce8a82407c4f48207", "9ae831e743978d3a23527c7128149e3a",
            "ab0812724a7f1e342742cbed374d94d136c6b8795d45b3819830f2c04491faf0990c62e48b8018b2c3e4a0fa3134cb67fa83e158c994d961c4cb21095c1bf9"));
    }

    @Test
    void shouldUseInstanceThenSequenceLittleEndianAsTheNonce() throws Exception {
        final byte[] key = HEX.parseHex("ec074c835580741701425b623235add6851fc40c3467ac0be05cc20404f3f700");
        final Poly1305Aes.Key ready = new Poly1305Aes.Key(key, 0);
        final UnsafeBuffer frame = new UnsafeBuffer(HEX.parseHex("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c"));
        final Poly1305Aes mac = new Poly1305Aes();
        final byte[] byStream = new byte[16];
        mac.reset(ready, 0x0807060504030201L, 0xfcfdfeff);
        mac.update(frame, 0, frame.capacity());
        mac.finish(byStream, 0);
        final byte[] byBytes = new byte[16];
        mac.reset(ready, HEX.parseHex("0102030405060708fffefdfc00000000"), 0);
        mac.update(frame, 0, frame.capacity());
        mac.finish(byBytes, 0);
        assertArrayEquals(byBytes, byStream);
        // s is AES_k(nonce) as javax.crypto computes it: the tag minus Poly1305's part with s = 0 is that block
        final Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, 0, 16, "AES"));
        final byte[] s = aes.doFinal(HEX.parseHex("0102030405060708fffefdfc00000000"));
        final Poly1305 poly1305 = new Poly1305();
        poly1305.reset(java.nio.ByteBuffer.wrap(key, 16, 16).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(),
            java.nio.ByteBuffer.wrap(key, 24, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
        poly1305.update(frame, 0, frame.capacity());
        final byte[] withS = new byte[16];
        poly1305.finish(java.nio.ByteBuffer.wrap(s, 0, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(),
            java.nio.ByteBuffer.wrap(s, 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(), withS, 0);
        assertArrayEquals(withS, byStream);
        // and the next sequence number gives another mask
        mac.reset(ready, 0x0807060504030201L, 0xfcfdff00);
        mac.update(frame, 0, frame.capacity());
        final byte[] next = new byte[16];
        mac.finish(next, 0);
        assertFalse(Arrays.equals(next, byStream));
    }
}
