package org.divvy.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.ClusterSecret;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.membership.JoinFlyweight;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.stealing.StealRequestFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Signing and checking frames: what passes, and every reason a frame is dropped. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FrameAuthenticatorTest {
    private static final int RUN = 4711;
    private static final String RECEIVER = "127.0.0.1:40001";

    private final FrameAuthenticator sender = TestAuthenticators.inRun(RUN);
    private final FrameAuthenticator receiver = TestAuthenticators.inRun(RUN);

    FrameAuthenticatorTest() {
        receiver.bindTo(RECEIVER);
    }

    /** A signed message to {@link #RECEIVER} on a new stream of {@code by}. */
    private static UnsafeBuffer signed(final FrameAuthenticator by, final int type, final int bodyLength) {
        return signed(by.signerFor(RECEIVER), type, bodyLength);
    }

    /** A signed message: frame then trailer, as the transport puts it on the wire. */
    private static UnsafeBuffer signed(final FrameAuthenticator.Signer by, final int type, final int bodyLength) {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[HeaderFlyweight.HEADER_LENGTH + bodyLength]);
        new HeaderFlyweight().wrap(frame, 0, frame.capacity()).headerDefaults(type).senderId(3).frameLength(frame.capacity());
        for (int i = HeaderFlyweight.HEADER_LENGTH; i < frame.capacity(); i++) {
            frame.putByte(i, (byte) i);
        }
        final UnsafeBuffer message = new UnsafeBuffer(new byte[frame.capacity() + FrameAuthenticator.TRAILER_LENGTH]);
        message.putBytes(0, frame, 0, frame.capacity());
        final UnsafeBuffer trailer = new UnsafeBuffer(message, frame.capacity(), FrameAuthenticator.TRAILER_LENGTH);
        by.sign(type, frame, 0, frame.capacity(), null, 0, 0, trailer);
        by.sent(); // as the transport does when the publication takes it
        return message;
    }

    @Test
    void shouldAcceptAnAuthenticFrameOnceAndDropItsReplay() {
        final UnsafeBuffer message = signed(sender, StealRequestFlyweight.TYPE, 12);
        assertEquals(message.capacity() - FrameAuthenticator.TRAILER_LENGTH, receiver.verify(message, 0, message.capacity()));
        assertEquals(-1, receiver.verify(message, 0, message.capacity()));
        assertEquals(1, receiver.counters().replayed.get());
        assertEquals(1, receiver.counters().totalDropped());
    }

    @Test
    void shouldDropAFrameWithAnyByteChanged() {
        final FrameAuthenticator.Signer stream = sender.signerFor(RECEIVER);
        final UnsafeBuffer message = signed(stream, StealRequestFlyweight.TYPE, 40);
        for (int i = 0; i < message.capacity(); i++) {
            final UnsafeBuffer copy = new UnsafeBuffer(message.byteArray().clone());
            copy.putByte(i, (byte) (copy.getByte(i) ^ 0x10));
            assertEquals(-1, receiver.verify(copy, 0, copy.capacity()), "byte " + i);
        }
        // a change in the key id is the wrong key; anywhere else, a bad tag
        assertEquals(4, receiver.counters().wrongKey.get());
        assertEquals(message.capacity() - 4, receiver.counters().badTag.get());
        assertEquals(message.capacity() - FrameAuthenticator.TRAILER_LENGTH, receiver.verify(message, 0, message.capacity()),
            "the original is still fresh: failed copies do not move its stream on");
    }

    @Test
    void shouldDropFramesOfAnotherSecretOrAnotherRun() {
        final UnsafeBuffer foreign = signed(TestAuthenticators.with(TestAuthenticators.OTHER_SECRET), JoinFlyweight.TYPE, 8);
        assertEquals(FrameAuthenticator.REFUSED_JOIN, receiver.verify(foreign, 0, foreign.capacity()),
            "told apart, so the node can say that someone with another secret knocks");
        assertEquals(1, receiver.counters().badTag.get());
        final UnsafeBuffer otherRun = signed(TestAuthenticators.inRun(RUN + 1), StealRequestFlyweight.TYPE, 8);
        assertEquals(-1, receiver.verify(otherRun, 0, otherRun.capacity()));
        assertEquals(1, receiver.counters().wrongKey.get());
    }

    @Test
    void shouldHearOnlyTheHandshakeUnderTheJoinKey() {
        final FrameAuthenticator joiner = TestAuthenticators.member(); // has not learnt the run yet
        final UnsafeBuffer join = signed(joiner, JoinFlyweight.TYPE, 8);
        assertTrue(receiver.verify(join, 0, join.capacity()) > 0);
        final UnsafeBuffer steal = signed(joiner, StealRequestFlyweight.TYPE, 8);
        assertEquals(-1, receiver.verify(steal, 0, steal.capacity()));
        assertEquals(1, receiver.counters().wrongKey.get());
        // and a member of the run signs its handshake frames with the join key too, which a joiner can check
        final UnsafeBuffer challenge = signed(sender, JoinFlyweight.TYPE, 8);
        assertTrue(joiner.verify(challenge, 0, challenge.capacity()) > 0, "not bound: the joiner need not know its endpoint");
    }

    @Test
    void shouldDropWhatIsTooShortToCarryATrailer() {
        final UnsafeBuffer tiny = new UnsafeBuffer(new byte[HeaderFlyweight.HEADER_LENGTH + FrameAuthenticator.TRAILER_LENGTH - 1]);
        assertEquals(-1, receiver.verify(tiny, 0, tiny.capacity()));
        assertEquals(1, receiver.counters().unauthenticated.get());
    }

    @Test
    void shouldAcceptEachStreamInOrderOnlyAndNothingTwice() {
        final FrameAuthenticator.Signer stream = sender.signerFor(RECEIVER);
        final UnsafeBuffer m0 = signed(stream, StealRequestFlyweight.TYPE, 4);
        final UnsafeBuffer m1 = signed(stream, StealRequestFlyweight.TYPE, 4);
        final UnsafeBuffer m2 = signed(stream, StealRequestFlyweight.TYPE, 4);
        assertTrue(receiver.verify(m1, 0, m1.capacity()) > 0);
        assertEquals(-1, receiver.verify(m0, 0, m0.capacity()), "older than the last of its stream: a replay");
        assertTrue(receiver.verify(m2, 0, m2.capacity()) > 0);
        assertEquals(-1, receiver.verify(m1, 0, m1.capacity()));
        assertEquals(2, receiver.counters().replayed.get());
        // another stream of the same sender (another link, or its publication made anew) has its own order
        final UnsafeBuffer other = signed(sender, StealRequestFlyweight.TYPE, 4);
        assertTrue(receiver.verify(other, 0, other.capacity()) > 0);
        stream.restart();
        final UnsafeBuffer restarted = signed(stream, StealRequestFlyweight.TYPE, 4);
        assertTrue(receiver.verify(restarted, 0, restarted.capacity()) > 0, "a new instance starts at 0 again");
    }

    @Test
    void shouldReportMessagesLostFromAStreamAndStillDeliverTheNext() {
        final FrameAuthenticator.Signer stream = sender.signerFor(RECEIVER);
        final UnsafeBuffer m0 = signed(stream, StealRequestFlyweight.TYPE, 4);
        signed(stream, StealRequestFlyweight.TYPE, 4); // lost
        signed(stream, StealRequestFlyweight.TYPE, 4); // lost
        final UnsafeBuffer m3 = signed(stream, StealRequestFlyweight.TYPE, 4);
        final UnsafeBuffer m4 = signed(stream, StealRequestFlyweight.TYPE, 4);
        assertTrue(receiver.verify(m0, 0, m0.capacity()) > 0);
        assertEquals(0, receiver.lostBeforeAccepted());
        assertTrue(receiver.verify(m3, 0, m3.capacity()) > 0, "authentic: delivered");
        assertEquals(2, receiver.lostBeforeAccepted(), "the two before it never came");
        receiver.unaccept(m3, 0, m3.capacity()); // left in its stream (no room to reassemble): not taken yet
        assertTrue(receiver.verify(m3, 0, m3.capacity()) > 0, "offered again");
        assertEquals(2, receiver.lostBeforeAccepted(), "the same skip");
        receiver.countSkipped(); // taken: counted once
        assertTrue(receiver.verify(m4, 0, m4.capacity()) > 0);
        assertEquals(0, receiver.lostBeforeAccepted());
        assertEquals(2, receiver.counters().lostInTransit.get());
        assertEquals(0, receiver.counters().totalDropped());
    }

    @Test
    void shouldSignARefusedOfferAgainWithTheSameSequenceNumber() {
        final FrameAuthenticator.Signer stream = sender.signerFor(RECEIVER);
        final UnsafeBuffer trailer = new UnsafeBuffer(new byte[FrameAuthenticator.TRAILER_LENGTH]);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[HeaderFlyweight.HEADER_LENGTH]);
        stream.sign(StealRequestFlyweight.TYPE, frame, 0, frame.capacity(), null, 0, 0, trailer);
        final int refused = trailer.getInt(FrameAuthenticator.SEQUENCE_OFFSET, HeaderFlyweight.BYTE_ORDER);
        stream.sign(StealRequestFlyweight.TYPE, frame, 0, frame.capacity(), null, 0, 0, trailer);
        assertEquals(refused, trailer.getInt(FrameAuthenticator.SEQUENCE_OFFSET, HeaderFlyweight.BYTE_ORDER),
            "the publication did not take it: the number is not used up, or the receiver would see a hole");
        stream.sent();
        stream.sign(StealRequestFlyweight.TYPE, frame, 0, frame.capacity(), null, 0, 0, trailer);
        assertEquals(refused + 1, trailer.getInt(FrameAuthenticator.SEQUENCE_OFFSET, HeaderFlyweight.BYTE_ORDER));
    }

    @Test
    void shouldDropARunFrameSignedForAnotherReceiver() {
        // copied from its way to another member, where it was fresh: here it fails its tag
        final UnsafeBuffer toOther = signed(sender.signerFor("127.0.0.1:40002"), StealRequestFlyweight.TYPE, 8);
        assertEquals(-1, receiver.verify(toOther, 0, toOther.capacity()));
        assertEquals(1, receiver.counters().badTag.get());
        // a handshake frame is not bound (a joiner may address the registry by an alias): its nonce protects it
        final UnsafeBuffer join = signed(sender.signerFor("localhost:40001"), JoinFlyweight.TYPE, 8);
        assertTrue(receiver.verify(join, 0, join.capacity()) > 0);
    }

    @Test
    void shouldCheckUnderTheKeyOfTheRunAndEndpointWhicheverIsLearntFirst() {
        // a transport binds its endpoint at start and learns the run at its join; the test fixture does the reverse
        final FrameAuthenticator boundFirst = TestAuthenticators.member();
        boundFirst.bindTo(RECEIVER);
        boundFirst.useRunKey(RUN);
        final FrameAuthenticator.Signer stream = sender.signerFor(RECEIVER);
        final UnsafeBuffer first = signed(stream, StealRequestFlyweight.TYPE, 8);
        assertTrue(boundFirst.verify(first, 0, first.capacity()) > 0);
        // a signer made before its run is known signs run frames under the run's key once it is
        final FrameAuthenticator joiner = TestAuthenticators.member();
        final FrameAuthenticator.Signer early = joiner.signerFor(RECEIVER);
        signed(early, JoinFlyweight.TYPE, 8);
        joiner.useRunKey(RUN);
        final UnsafeBuffer afterJoin = signed(early, StealRequestFlyweight.TYPE, 8);
        assertTrue(receiver.verify(afterJoin, 0, afterJoin.capacity()) > 0);
        joiner.useRunKey(RUN + 1);
        final UnsafeBuffer nextRun = signed(early, StealRequestFlyweight.TYPE, 8);
        assertEquals(-1, receiver.verify(nextRun, 0, nextRun.capacity()), "signed under run " + (RUN + 1) + "'s key now");
        assertEquals(1, receiver.counters().wrongKey.get());
        final FrameAuthenticator inNextRun = TestAuthenticators.inRun(RUN + 1);
        inNextRun.bindTo(RECEIVER);
        assertTrue(inNextRun.verify(nextRun, 0, nextRun.capacity()) > 0);
    }

    @Test
    void shouldDropALargeFrameUnderTheJoinKeyWithoutCheckingItsTag() {
        final UnsafeBuffer big = signed(TestAuthenticators.member(), JoinFlyweight.TYPE, FrameAuthenticator.MAX_JOIN_KEY_FRAME);
        assertEquals(-1, receiver.verify(big, 0, big.capacity()));
        assertEquals(1, receiver.counters().wrongKey.get());
    }

    @Test
    void shouldSignAMessageInTwoPartsAsTheBytesInARow() {
        final UnsafeBuffer whole = new UnsafeBuffer(new byte[100 + FrameAuthenticator.TRAILER_LENGTH]);
        new HeaderFlyweight().wrap(whole, 0, 100).headerDefaults(10).frameLength(100);
        final UnsafeBuffer trailer = new UnsafeBuffer(whole, 100, FrameAuthenticator.TRAILER_LENGTH);
        sender.signerFor(RECEIVER).sign(10, new UnsafeBuffer(whole, 0, 30), 0, 30, new UnsafeBuffer(whole, 30, 70), 0, 70,
            trailer);
        assertEquals(100, receiver.verify(whole, 0, whole.capacity()));
    }

    @Test
    void shouldReadTheSecretFromAFileOrTheEnvironmentAndNeverShowIt(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("secret");
        Files.writeString(file, "0123456789abcdef-from-a-file\n", StandardCharsets.UTF_8);
        final NodeConfig config = NodeConfig.builder().networked(true).set(org.divvy.NodeSettings.SECRET_FILE, file.toString())
            .build();
        assertEquals(ClusterSecret.ofText("0123456789abcdef-from-a-file"), config.clusterSecret(), "one line break trimmed");
        assertFalse(config.clusterSecret().toString().contains("0123"));
        assertTrue(config.clusterSecret().toString().contains(file.toString()));
        Files.writeString(file, "short", StandardCharsets.UTF_8);
        final DivvyException tooShort = assertThrows(DivvyException.class, config::clusterSecret);
        assertTrue(tooShort.getMessage().contains("has 5 bytes, must have at least 16"), tooShort.getMessage());
        final DivvyException missing = assertThrows(DivvyException.class, () -> NodeConfig.builder().networked(true)
            .set(org.divvy.NodeSettings.SECRET_FILE, dir.resolve("nope").toString()).build().clusterSecret());
        assertTrue(missing.getMessage().startsWith("cannot read the cluster secret file " + dir.resolve("nope")),
            missing.getMessage());
        // Surefire gives the tests' nodes their secret in DIVVY_SECRET
        assertEquals(TestAuthenticators.SECRET, NodeConfig.builder().networked(true).build().clusterSecret());
        final ClusterSecret given = ClusterSecret.generate();
        assertEquals(given, NodeConfig.builder().networked(true).secret(given).build().clusterSecret());
        assertFalse(ClusterSecret.generate().equals(given));
    }
}
