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
 *  |                 Tag (Poly1305-AES, 128 bits)                  |
 *  |                                                              ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p><b>The tag is Poly1305-AES</b> (Bernstein, FSE 2005; {@link Poly1305Aes}) over the frame, with
 * {@code instance || sequence || 0^32} (each little-endian) as the 128-bit nonce: {@code Poly1305_r(frame) +
 * AES_k(nonce) mod 2^128}, a standard Wegman–Carter MAC (Poly1305 is the MAC of TLS 1.3's and RFC 8439's
 * ChaCha20-Poly1305; the tests check it bit for bit against {@code javax.crypto}'s ChaCha20-Poly1305 and against
 * the published vectors). The trailer's first 16 bytes are authenticated without being hashed: instance and
 * sequence are the nonce, which the tag depends on through AES ({@code AES_k(nonce)}, so a frame whose instance
 * or sequence was changed fails), and the key id chooses the key the tag is checked under. Run-key frames are
 * bound to their receiver through the key: the run key of a stream is derived for the receiver's endpoint, so
 * the endpoint costs no hashing per frame.
 *
 * <p><b>Why Poly1305-AES</b> (measured on a shared 2-core machine, one thread, a steal request's 28-byte frame):
 * 67–68 ns per tag (about 50 ns of Poly1305 in 64-bit limbs, 21 ns for one AES block through {@code javax.crypto}),
 * against 213–219 ns for the AES-128-GMAC it replaced (the JDK's AES and GHASH in plain Java with 8-bit tables;
 * {@code AES/GCM/NoPadding} itself re-initialises and allocates about 1.3 KB per tag on JDK 17) and 229–246 ns for
 * HMAC-SHA256 through {@code javax.crypto} (on a CPU with SHA extensions; 1.7–2.3 µs without). A steal round trip
 * signs two frames and checks two: in the running nodes, sign + check went from 369–385 ns to 167–170 ns a frame. SipHash, designed for short inputs, was not chosen: it is a PRF with a 64-bit tag and no
 * standardised MAC profile, where Poly1305 comes with a security proof relative to AES and RFC-specified vectors.
 * Unlike the table-driven GHASH, Poly1305 here is constant-time (multiplications and masks, no table reads and
 * no branches on data); AES is the JDK's. Tags are compared in constant time.
 *
 * <p><b>Streams.</b> Each sender's way to one receiver (a transport link's publication, one Aeron session)
 * has a {@link Signer}: a random instance and a sequence number that grows by one per message the
 * publication takes. Aeron delivers one session in order, so a receiver accepts from each instance only
 * sequence numbers above the last it accepted: a replayed frame is older and is dropped. A number that skips
 * some means messages of the stream were lost below Divvy (Aeron gave up on the stream and a new image
 * started later in it): the frame is still delivered, and the loss is counted and reported instead of
 * passing silently. A published nonce never repeats under a key: instances are random and a signer draws a
 * new one before its sequence would wrap (and whenever its publication is made anew, except when the link
 * closed the last one for being idle: then the new publication continues the stream, its numbers going on,
 * behind a STREAM_CONTINUES; see {@code transport.Link.closeIfIdle}).
 *
 * <p><b>Keys and binding.</b> Keys are Poly1305-AES keys (k, r), the 32 bytes of HMAC-SHA256 over the secret and a
 * label. The <em>join key</em>
 * authenticates only the join handshake ({@code isHandshakeType}), which nonces protect (see
 * {@code Registry}); a joiner does not know the run yet. The <em>run key</em> comes from the secret and the
 * run id (random, chosen by the registry, told to a joiner in the handshake) and the receiver's endpoint, and
 * authenticates everything else: a frame recorded in an earlier run with the same secret fails
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
    private static final String JOIN_KEY_LABEL = "divvy join key v2";
    /** v2: Poly1305-AES keys bound to the receiver (v1 were AES-GMAC keys, the receiver hashed with each frame). */
    private static final String RUN_KEY_LABEL = "divvy run key v2";

    private final byte[] secret;
    private final IntPredicate isHandshakeType;
    private final AuthenticationCounters counters;
    private final SecureRandom random = new SecureRandom();
    private final Poly1305Aes.Key joinKey;
    private final Poly1305Aes mac = new Poly1305Aes();
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
    /** The run key of frames to this node: for {@link #runKeyId} and {@link #selfEndpoint}. */
    private Poly1305Aes.Key runKey;
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
        this.joinKey = deriveKey(JOIN_KEY_LABEL, JOIN_KEY_ID, new byte[0]); // a joiner may not know the endpoint yet
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
        if (runKeyId != JOIN_KEY_ID) {
            runKey = deriveKey(RUN_KEY_LABEL, runKeyId, selfEndpoint);
        }
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
            runKey = deriveKey(RUN_KEY_LABEL, id, selfEndpoint);
            runKeyId = id;
        }
    }

    /** A signer for the stream to the member at {@code receiverEndpoint} (its own endpoint, as members know it). */
    public Signer signerFor(final String receiverEndpoint) {
        return new Signer(receiverEndpoint.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The key HMAC-SHA256(secret, label || id (4 bytes, little-endian) || receiver): label and id have fixed
     * lengths, so the receiver's endpoint is the rest and no two inputs are the same. Made when a run or a stream
     * starts, never per frame.
     */
    private Poly1305Aes.Key deriveKey(final String label, final int id, final byte[] receiver) {
        final byte[] key;
        try {
            final Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(secret, "HmacSHA256"));
            hmac.update(label.getBytes(StandardCharsets.US_ASCII));
            hmac.update(new byte[] {(byte) id, (byte) (id >>> 8), (byte) (id >>> 16), (byte) (id >>> 24)});
            hmac.update(receiver);
            key = hmac.doFinal(); // 32 bytes: AES key k, then r
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("cannot derive the frame keys: " + e);
        }
        try {
            return new Poly1305Aes.Key(key, 0);
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("this JVM has no AES, which frame authentication needs: " + e);
        }
    }

    /** One stream's sending state: its instance, next sequence number and receiver. Agent thread only. */
    public final class Signer {
        private final byte[] receiver;
        private long instance;
        private boolean lastSignedUnderJoinKey = true;
        private long nextSequence;
        /** The run key of frames to {@link #receiver}, made for run {@link #keyId} (derived again when it changes). */
        private Poly1305Aes.Key key;
        private int keyId = JOIN_KEY_ID;

        private Signer(final byte[] receiver) {
            this.receiver = receiver;
            restart();
        }

        /**
         * A new stream (the publication was made anew, not continuing one closed idle): a new instance, sequence
         * numbers from 0.
         */
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
            lastSignedUnderJoinKey = join;
            final int sequence = (int) nextSequence;
            trailer.putInt(KEY_ID_OFFSET, join ? JOIN_KEY_ID : runKeyId, HeaderFlyweight.BYTE_ORDER);
            trailer.putInt(SEQUENCE_OFFSET, sequence, HeaderFlyweight.BYTE_ORDER);
            trailer.putLong(INSTANCE_OFFSET, instance, HeaderFlyweight.BYTE_ORDER);
            if (!join && keyId != runKeyId) {
                key = deriveKey(RUN_KEY_LABEL, runKeyId, receiver);
                keyId = runKeyId;
            }
            mac.reset(join ? joinKey : key, instance, sequence);
            mac.update(first, firstOffset, firstLength);
            if (secondLength > 0) {
                mac.update(second, secondOffset, secondLength);
            }
            mac.finish(tag, 0);
            trailer.putBytes(TAG_OFFSET, tag, 0, TAG_LENGTH);
        }

        /**
         * Whether frames outside the join handshake are signed under a run key (this node knows its run): only then
         * can a receiver check a frame of a transport-only type such as STREAM_CONTINUES, which is no handshake type.
         */
        public boolean signsUnderRunKey() {
            return runKeyId != JOIN_KEY_ID;
        }

        /**
         * Whether the message signed last was signed under the run key (not a join-handshake frame, nor any frame
         * before this node knew its run): a stream that carried one can be continued with a STREAM_CONTINUES.
         */
        public boolean lastSignedUnderRunKey() {
            return !lastSignedUnderJoinKey;
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
        final Poly1305Aes.Key key;
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
        mac.reset(key, senderInstance, (int) sequence);
        mac.update(buffer, offset, frameLength);
        mac.finish(tag, 0);
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
     * How many sender streams this node keeps a last sequence number of (one entry each, for replay protection): one
     * per stream instance that sent it an authentic frame. A link that closes an idle publication and opens another
     * goes on with the same instance, so reopening adds none.
     */
    public int streamsKnown() {
        return lastSequence.size();
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
}
