package org.divvy.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.function.IntPredicate;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.divvy.ClusterSecret;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.protocol.HeaderFlyweight;

/**
 * Signs the frames a node sends and checks the ones it receives. Every Aeron message carries a
 * {@value #TRAILER_LENGTH}-byte trailer after the frame:
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 Frame (header and body) ...                  ...
 *  +---------------------------------------------------------------+
 *  |                 Key Id (0: the join key; else the run's)      |
 *  +---------------------------------------------------------------+
 *  |                 Sequence Number (per stream)                  |
 *  +---------------------------------------------------------------+
 *  |                 Stream Instance (random, 64 bits)             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Tag (AES-128-GMAC, 128 bits)                  |
 *  |                                                              ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The tag is AES-GCM's over no plaintext, with the frame, the receiver's endpoint (run key only) and the
 * first 16 bytes of the trailer as the authenticated data, and {@code instance || sequence} as the 96-bit
 * nonce: GMAC, from {@code javax.crypto}. Chosen over HMAC-SHA256 because it is 3 times cheaper on a small
 * frame here (AES-NI and carry-less multiply are intrinsics of the JDK; SHA-256 is not accelerated on this
 * CPU): measured 0.5 µs against 1.6 µs per 60-byte frame.
 *
 * <p><b>Streams.</b> Each sender's way to one receiver (a transport link's publication, one Aeron session)
 * has a {@link Signer}: a random instance and a sequence number that grows by one per signed message. Aeron
 * delivers one session in order, so a receiver accepts from each instance only sequence numbers above the
 * last it accepted: a replayed frame is older and is dropped. A nonce never repeats under a key: instances
 * are random and a signer draws a new one before its sequence would wrap (and whenever its publication is
 * made anew).
 *
 * <p><b>Keys and binding.</b> Keys are AES-128 from HMAC-SHA256 over the secret. The <em>join key</em>
 * authenticates only the join handshake ({@code isHandshakeType}), which nonces protect (see
 * {@code Registry}); a joiner does not know the run yet. The <em>run key</em> comes from the secret and the
 * run id (random, chosen by the registry, told to a joiner in the handshake) and authenticates everything
 * else, bound to the receiver's endpoint: a frame recorded in an earlier run with the same secret fails
 * here, and so does a frame copied from its way to another member (it would be fresh there, since that
 * member has not seen the stream). Last-sequence entries exist only for instances whose frames were
 * authentic, so a forger cannot grow the table.
 *
 * <p>Owned by the network agent thread. javax.crypto's GCM allocates per call (a nonce parameter and, in
 * JDK 17, a buffer for the authenticated data): about 1.3 KB per small frame.
 */
public final class FrameAuthenticator {
    public static final int KEY_ID_OFFSET = 0;
    public static final int SEQUENCE_OFFSET = 4;
    public static final int INSTANCE_OFFSET = 8;
    public static final int TAG_OFFSET = 16;
    public static final int TAG_LENGTH = 16;
    /** Bytes after every frame. */
    public static final int TRAILER_LENGTH = TAG_OFFSET + TAG_LENGTH;
    /** The key id of the join key. */
    public static final int JOIN_KEY_ID = 0;
    /**
     * The largest frame accepted under the join key (1 KiB): handshake frames are small, and checking a
     * large one would let anyone without the secret spend the agent's time on tags.
     */
    public static final int MAX_JOIN_KEY_FRAME = 1024;

    private static final int TAG_BITS = TAG_LENGTH * 8;
    private static final int NONCE_LENGTH = 12;
    private static final int SCRATCH_BYTES = 64 * 1024;
    private static final long NO_SEQUENCE = -1;

    private final byte[] secret;
    private final IntPredicate isHandshakeType;
    private final AuthenticationCounters counters;
    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec joinKey;
    private final Cipher signer;
    private final Cipher verifier;
    private final byte[] nonce = new byte[NONCE_LENGTH];
    private final byte[] scratch = new byte[SCRATCH_BYTES];
    private final byte[] tag = new byte[TAG_LENGTH];
    private final byte[] noPlaintext = new byte[TAG_LENGTH];
    /** Per sender stream instance, the last sequence number accepted. */
    private final Long2LongHashMap lastSequence = new Long2LongHashMap(NO_SEQUENCE);

    /** The stream of the message accepted last, and its last sequence before: for {@link #unaccept}. */
    private long acceptedInstance;
    private long sequenceBeforeAccepted = NO_SEQUENCE;
    private SecretKeySpec runKey;
    private int runKeyId = JOIN_KEY_ID;
    private byte[] selfEndpoint = new byte[0];

    /**
     * @param isHandshakeType the frame types that travel under the join key (JOIN and the registry's answers).
     */
    public FrameAuthenticator(final ClusterSecret secret, final IntPredicate isHandshakeType,
        final AuthenticationCounters counters) {
        this.secret = secret.bytes();
        this.isHandshakeType = isHandshakeType;
        this.counters = counters;
        this.joinKey = deriveKey("divvy join key v1", 0);
        try {
            signer = Cipher.getInstance("AES/GCM/NoPadding");
            verifier = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("this JVM has no AES/GCM, which frame authentication needs: " + e);
        }
    }

    /**
     * The authenticator of a node (or registry, or tool) with {@code config}'s cluster secret; an error that
     * says what to set when there is none.
     */
    public static FrameAuthenticator of(final NodeConfig config, final IntPredicate isHandshakeType) {
        final ClusterSecret secret = config.clusterSecret();
        if (secret == null) {
            throw new DivvyException(NodeConfig.missingSecretMessage());
        }
        return new FrameAuthenticator(secret, isHandshakeType, new AuthenticationCounters());
    }

    public AuthenticationCounters counters() {
        return counters;
    }

    /** The id of the run key in use; {@link #JOIN_KEY_ID} before this node knows its run. */
    public int runKeyId() {
        return runKeyId;
    }

    /** This node's endpoint ({@code host:port}, as members know it): run-key frames must be addressed to it. */
    public void bindTo(final String endpoint) {
        selfEndpoint = endpoint.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Uses the run key of run {@code id} from now on, for every frame that is not part of a join, sent and
     * received. The registry's node calls it at start; a joiner when the registry's challenge tells it the run.
     */
    public void useRunKey(final int id) {
        if (id == JOIN_KEY_ID) {
            throw new DivvyException("run key id 0 is the join key's");
        }
        if (id != runKeyId) {
            runKey = deriveKey("divvy run key v1", id);
            runKeyId = id;
        }
    }

    /** A signer for the stream to the member at {@code receiverEndpoint} (its own endpoint, as members know it). */
    public Signer signerFor(final String receiverEndpoint) {
        return new Signer(receiverEndpoint.getBytes(StandardCharsets.UTF_8));
    }

    private SecretKeySpec deriveKey(final String label, final int id) {
        try {
            final Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(secret, "HmacSHA256"));
            hmac.update(label.getBytes(StandardCharsets.US_ASCII));
            hmac.update(new byte[] {(byte) id, (byte) (id >>> 8), (byte) (id >>> 16), (byte) (id >>> 24)});
            final byte[] key = new byte[16];
            System.arraycopy(hmac.doFinal(), 0, key, 0, key.length);
            return new SecretKeySpec(key, "AES");
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("cannot derive the frame keys: " + e);
        }
    }

    /** One stream's sending state: its instance, next sequence number and receiver. Agent thread only. */
    public final class Signer {
        private final byte[] receiver;
        private long instance;
        private long nextSequence;

        private Signer(final byte[] receiver) {
            this.receiver = receiver;
            restart();
        }

        /** A new stream (the publication was made anew): a new instance, sequence numbers from 0. */
        public void restart() {
            instance = random.nextLong();
            nextSequence = 0;
        }

        /**
         * Signs the message made of {@code first} and {@code second} (length 0 when there is one part), whose
         * frame type is {@code type}: writes the trailer into {@code trailer} at 0. Call once per offer: each
         * call takes a new sequence number.
         */
        public void sign(final int type, final DirectBuffer first, final int firstOffset, final int firstLength,
            final DirectBuffer second, final int secondOffset, final int secondLength, final MutableDirectBuffer trailer) {
            if (nextSequence > 0xFFFF_FFFFL) {
                restart(); // a nonce never repeats under a key
            }
            final boolean join = runKeyId == JOIN_KEY_ID || isHandshakeType.test(type);
            final int sequence = (int) nextSequence++;
            trailer.putInt(KEY_ID_OFFSET, join ? JOIN_KEY_ID : runKeyId, HeaderFlyweight.BYTE_ORDER);
            trailer.putInt(SEQUENCE_OFFSET, sequence, HeaderFlyweight.BYTE_ORDER);
            trailer.putLong(INSTANCE_OFFSET, instance, HeaderFlyweight.BYTE_ORDER);
            try {
                signer.init(Cipher.ENCRYPT_MODE, join ? joinKey : runKey, nonceSpec(instance, sequence));
                addAad(signer, first, firstOffset, firstLength);
                if (secondLength > 0) {
                    addAad(signer, second, secondOffset, secondLength);
                }
                if (!join) {
                    signer.updateAAD(receiver);
                }
                addAad(signer, trailer, 0, TAG_OFFSET);
                signer.doFinal(tag, 0);
            } catch (final GeneralSecurityException e) {
                throw new DivvyException("cannot sign a frame: " + e);
            }
            trailer.putBytes(TAG_OFFSET, tag, 0, TAG_LENGTH);
        }
    }

    /**
     * Checks the message at {@code offset} (frame and trailer): key, size, sequence, tag. Counts and drops
     * what fails.
     *
     * @return the length of the authentic frame without its trailer, or -1 if it must be dropped.
     */
    public int verify(final DirectBuffer buffer, final int offset, final int length) {
        final int frameLength = length - TRAILER_LENGTH;
        if (frameLength < HeaderFlyweight.HEADER_LENGTH) {
            AuthenticationCounters.count(counters.unauthenticated);
            return -1;
        }
        final int at = offset + frameLength;
        final int keyId = buffer.getInt(at + KEY_ID_OFFSET, HeaderFlyweight.BYTE_ORDER);
        final boolean join = keyId == JOIN_KEY_ID;
        final SecretKeySpec key;
        if (join) {
            key = frameLength <= MAX_JOIN_KEY_FRAME &&
                isHandshakeType.test(buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF) ? joinKey : null;
        } else {
            key = keyId == runKeyId ? runKey : null;
        }
        if (key == null) {
            AuthenticationCounters.count(counters.wrongKey);
            return -1;
        }
        final long sequence = buffer.getInt(at + SEQUENCE_OFFSET, HeaderFlyweight.BYTE_ORDER) & 0xFFFF_FFFFL;
        final long senderInstance = buffer.getLong(at + INSTANCE_OFFSET, HeaderFlyweight.BYTE_ORDER);
        buffer.getBytes(at + TAG_OFFSET, tag, 0, TAG_LENGTH);
        try {
            verifier.init(Cipher.DECRYPT_MODE, key, nonceSpec(senderInstance, (int) sequence));
            addAad(verifier, buffer, offset, frameLength);
            if (!join) {
                verifier.updateAAD(selfEndpoint);
            }
            addAad(verifier, buffer, at, TAG_OFFSET);
            verifier.doFinal(tag, 0, TAG_LENGTH, noPlaintext, 0);
        } catch (final AEADBadTagException e) {
            AuthenticationCounters.count(counters.badTag);
            return -1;
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("cannot check a frame's tag: " + e);
        }
        // Checked after the tag, so a forger cannot make an authentic stream's next frame look replayed.
        if (sequence <= lastSequence.get(senderInstance)) {
            AuthenticationCounters.count(counters.replayed);
            return -1;
        }
        acceptedInstance = senderInstance;
        sequenceBeforeAccepted = lastSequence.put(senderInstance, sequence);
        return frameLength;
    }

    /**
     * Takes back the acceptance of the message {@link #verify} accepted last (the transport left it in its
     * stream, to be delivered again later): its next delivery must not look like a replay.
     */
    public void unaccept(final DirectBuffer buffer, final int offset, final int length) {
        final long senderInstance = buffer.getLong(offset + length - TRAILER_LENGTH + INSTANCE_OFFSET, HeaderFlyweight.BYTE_ORDER);
        if (senderInstance == acceptedInstance) {
            if (sequenceBeforeAccepted == NO_SEQUENCE) {
                lastSequence.remove(senderInstance);
            } else {
                lastSequence.put(senderInstance, sequenceBeforeAccepted);
            }
        }
    }

    private GCMParameterSpec nonceSpec(final long senderInstance, final int sequence) {
        for (int i = 0; i < 8; i++) {
            nonce[i] = (byte) (senderInstance >>> (8 * i));
        }
        for (int i = 0; i < 4; i++) {
            nonce[8 + i] = (byte) (sequence >>> (8 * i));
        }
        return new GCMParameterSpec(TAG_BITS, nonce);
    }

    /** Feeds {@code length} bytes of {@code buffer} as authenticated data, through an array in slices. */
    private void addAad(final Cipher cipher, final DirectBuffer buffer, final int offset, final int length) {
        final byte[] array = buffer.byteArray();
        if (array != null) {
            cipher.updateAAD(array, (int) (buffer.addressOffset() - org.agrona.BufferUtil.ARRAY_BASE_OFFSET) + offset,
                length);
            return;
        }
        for (int done = 0; done < length; ) {
            final int slice = Math.min(SCRATCH_BYTES, length - done);
            buffer.getBytes(offset + done, scratch, 0, slice);
            cipher.updateAAD(scratch, 0, slice);
            done += slice;
        }
    }
}
