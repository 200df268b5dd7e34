package org.divvy.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.function.IntPredicate;

import javax.crypto.Mac;
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
 * The tag is AES-128-GMAC: AES-GCM's tag over no plaintext, with the frame and the receiver's endpoint (run key
 * only) as the authenticated data, and {@code instance || sequence} (each little-endian) as the 96-bit nonce. Chosen
 * over HMAC-SHA256 because AES is an intrinsic of the JDK (AES-NI) and SHA-256 is not accelerated on the CPUs
 * measured. The trailer's first 16 bytes are authenticated without being hashed: instance and sequence are the
 * nonce, which GMAC authenticates (the tag is masked with {@code E_K(nonce || 1)}, so a frame whose instance or
 * sequence was changed fails), and the key id chooses the key the tag is checked under. Hashing them as well, as
 * the first version did, cost one more GHASH block per frame signed and checked: a fifth of a steal request's.
 *
 * <p><b>Computed by {@link Gmac}, not {@code AES/GCM/NoPadding}.</b> The tag is {@code javax.crypto}'s bit for
 * bit (the tests check it against the JDK), but JDK 17's GCM initialises its cipher anew for every frame and
 * allocates about 1.3 KB per call: signing and checking a steal request's frame took 1.7 to 1.9 µs, and a
 * steal round trip (two frames signed, two checked) about 8 µs more than without authentication. {@code Gmac}
 * keeps an {@code AES/ECB} cipher and GHASH tables per key, made once, and allocates nothing per frame: measured
 * on a shared 2-core machine, 1.1 µs against 1.6 to 2.0 µs per frame signed and checked, and a steal round trip's
 * median 20 µs against 26 to 29 µs (19 µs without authentication; raw Aeron ping-pong 10 µs), its 99th percentile
 * 0.2 ms against 0.5 to 1.4 ms (no garbage to collect). Caveat:
 * its GHASH, table-driven in plain Java, is not constant-time with respect to cache timing (its table reads
 * depend on the hash key H and the data); AES is still the JDK's (the AES-NI intrinsic). Tags are compared in
 * constant time.
 *
 * <p><b>Streams.</b> Each sender's way to one receiver (a transport link's publication, one Aeron session)
 * has a {@link Signer}: a random instance and a sequence number that grows by one per message the
 * publication takes. Aeron delivers one session in order, so a receiver accepts from each instance only
 * sequence numbers above the last it accepted: a replayed frame is older and is dropped. A number that skips
 * some means messages of the stream were lost below Divvy (Aeron gave up on the stream and a new image
 * started later in it): the frame is still delivered, and the loss is counted and reported instead of
 * passing silently. A published nonce never repeats under a key: instances are random and a signer draws a
 * new one before its sequence would wrap (and whenever its publication is made anew).
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
 * <p>Owned by the network agent thread.
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

    /**
     * What {@link #verify} returns for a frame of the join handshake whose tag does not verify under this
     * node's join key: most likely a process with another secret trying to join (worth a log line).
     */
    public static final int REFUSED_JOIN = -2;

    private static final long NO_SEQUENCE = -1;

    private final byte[] secret;
    private final IntPredicate isHandshakeType;
    private final AuthenticationCounters counters;
    private final SecureRandom random = new SecureRandom();
    private final Gmac.Key joinKey;
    private final Gmac gmac = new Gmac();
    private final byte[] nonce = new byte[Gmac.NONCE_LENGTH];
    /** The tag computed here. */
    private final byte[] tag = new byte[TAG_LENGTH];
    /** When checking, the tag the message carries: compared with {@link #tag} as arrays, in constant time. */
    private final byte[] receivedTag = new byte[TAG_LENGTH];
    /** Per sender stream instance, the last sequence number accepted. */
    private final Long2LongHashMap lastSequence = new Long2LongHashMap(NO_SEQUENCE);

    /** Messages of its stream that never arrived before the one {@link #verify} accepted last. */
    private long lostBeforeAccepted;
    /** The stream of the message accepted last, and its last sequence before: for {@link #unaccept}. */
    private long acceptedInstance;
    private long sequenceBeforeAccepted = NO_SEQUENCE;
    private Gmac.Key runKey;
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

    private Gmac.Key deriveKey(final String label, final int id) {
        final byte[] key = new byte[16];
        try {
            final Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(secret, "HmacSHA256"));
            hmac.update(label.getBytes(StandardCharsets.US_ASCII));
            hmac.update(new byte[] {(byte) id, (byte) (id >>> 8), (byte) (id >>> 16), (byte) (id >>> 24)});
            System.arraycopy(hmac.doFinal(), 0, key, 0, key.length);
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("cannot derive the frame keys: " + e);
        }
        try {
            return new Gmac.Key(new SecretKeySpec(key, "AES"));
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("this JVM has no AES, which frame authentication needs: " + e);
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
         * frame type is {@code type}: writes the trailer into {@code trailer} at 0, with the stream's next
         * sequence number. Call before each offer, and {@link #sent()} when the publication took the message:
         * a refused offer is signed again with the same number, so the numbers a receiver sees have no holes
         * unless messages were lost. (A tag that was never sent reveals nothing, so signing another message
         * with that nonce after a refused offer is safe.)
         */
        public void sign(final int type, final DirectBuffer first, final int firstOffset, final int firstLength,
            final DirectBuffer second, final int secondOffset, final int secondLength, final MutableDirectBuffer trailer) {
            if (nextSequence > 0xFFFF_FFFFL) {
                restart(); // a nonce never repeats under a key
            }
            final boolean join = runKeyId == JOIN_KEY_ID || isHandshakeType.test(type);
            final int sequence = (int) nextSequence;
            trailer.putInt(KEY_ID_OFFSET, join ? JOIN_KEY_ID : runKeyId, HeaderFlyweight.BYTE_ORDER);
            trailer.putInt(SEQUENCE_OFFSET, sequence, HeaderFlyweight.BYTE_ORDER);
            trailer.putLong(INSTANCE_OFFSET, instance, HeaderFlyweight.BYTE_ORDER);
            gmac.reset(join ? joinKey : runKey, nonce(instance, sequence), 0);
            gmac.update(first, firstOffset, firstLength);
            if (secondLength > 0) {
                gmac.update(second, secondOffset, secondLength);
            }
            if (!join) {
                gmac.update(receiver, 0, receiver.length);
            }
            gmac.finish(tag, 0);
            trailer.putBytes(TAG_OFFSET, tag, 0, TAG_LENGTH);
        }

        /** The message signed last was taken by the publication: the next one gets the next sequence number. */
        public void sent() {
            nextSequence++;
        }
    }

    /**
     * Checks the message at {@code offset} (frame and trailer): key, size, sequence, tag. Counts and drops
     * what fails.
     *
     * @return the length of the authentic frame without its trailer; -1, or {@link #REFUSED_JOIN}, if it must be
     * dropped.
     */
    public int verify(final DirectBuffer buffer, final int offset, final int length) {
        lostBeforeAccepted = 0;
        final int frameLength = length - TRAILER_LENGTH;
        if (frameLength < HeaderFlyweight.HEADER_LENGTH) {
            AuthenticationCounters.count(counters.unauthenticated);
            return -1;
        }
        final int at = offset + frameLength;
        final int keyId = buffer.getInt(at + KEY_ID_OFFSET, HeaderFlyweight.BYTE_ORDER);
        final boolean join = keyId == JOIN_KEY_ID;
        final Gmac.Key key;
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
        gmac.reset(key, nonce(senderInstance, (int) sequence), 0);
        gmac.update(buffer, offset, frameLength);
        if (!join) {
            gmac.update(selfEndpoint, 0, selfEndpoint.length);
        }
        gmac.finish(tag, 0);
        buffer.getBytes(at + TAG_OFFSET, receivedTag, 0, TAG_LENGTH);
        if (!MessageDigest.isEqual(tag, receivedTag)) { // in constant time: how much matched tells a forger nothing
            AuthenticationCounters.count(counters.badTag);
            return join ? REFUSED_JOIN : -1;
        }
        // Checked after the tag, so a forger cannot make an authentic stream's next frame look replayed.
        final long last = lastSequence.get(senderInstance);
        if (sequence <= last) {
            AuthenticationCounters.count(counters.replayed);
            return -1;
        }
        if (sequence != last + 1) {
            // Authentic, so delivered; but the stream skipped messages (its image broke and a new one started
            // later in the stream, or this node dropped some): what they carried is gone, and the transport says
            // so once it has taken this one (countSkipped), not each time it leaves it in its stream.
            lostBeforeAccepted = sequence - last - 1;
        }
        acceptedInstance = senderInstance;
        sequenceBeforeAccepted = lastSequence.put(senderInstance, sequence);
        return frameLength;
    }

    /**
     * How many messages of its stream never arrived before the message {@link #verify} accepted last: 0 unless
     * its sequence number skipped some. The transport calls {@link #countSkipped()} when it takes the message.
     */
    public long lostBeforeAccepted() {
        return lostBeforeAccepted;
    }

    /** Counts {@link #lostBeforeAccepted()} in {@link AuthenticationCounters#lostInTransit}: the message was taken. */
    public void countSkipped() {
        counters.lostInTransit.lazySet(counters.lostInTransit.get() + lostBeforeAccepted);
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

    /** The nonce of a stream's message: {@code instance || sequence}, both little-endian. */
    private byte[] nonce(final long senderInstance, final int sequence) {
        for (int i = 0; i < 8; i++) {
            nonce[i] = (byte) (senderInstance >>> (8 * i));
        }
        for (int i = 0; i < 4; i++) {
            nonce[8 + i] = (byte) (sequence >>> (8 * i));
        }
        return nonce;
    }
}
