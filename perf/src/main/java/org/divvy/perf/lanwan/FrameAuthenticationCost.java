package org.divvy.perf.lanwan;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.ClusterSecret;
import org.divvy.membership.MembershipMessages;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.security.AuthenticationCounters;
import org.divvy.security.FrameAuthenticator;
import org.divvy.stealing.StealRequestFlyweight;

/**
 * What authentication adds to a steal round trip, measured alone: signing and checking a STEAL_REQUEST-sized
 * frame with the node's {@link FrameAuthenticator} (Poly1305-AES), in one thread. A round trip signs two frames
 * and checks two, so it costs twice the figure. Median of rounds, after a warm-up.
 */
final class FrameAuthenticationCost {
    private static final int ROUNDS = 9;
    private static final int PER_ROUND = 200_000;
    private static final String RECEIVER = "127.0.0.1:40000";

    private FrameAuthenticationCost() {
    }

    /** Nanoseconds to sign and then check one frame of a steal request's size. */
    static double signAndVerifyNs() {
        final ClusterSecret secret = ClusterSecret.generate();
        final FrameAuthenticator.Signer sender = authenticator(secret).signerFor(RECEIVER);
        final FrameAuthenticator receiver = authenticator(secret);
        receiver.bindTo(RECEIVER);
        final int frameLength = StealRequestFlyweight.FRAME_LENGTH;
        final UnsafeBuffer message = new UnsafeBuffer(new byte[frameLength + FrameAuthenticator.TRAILER_LENGTH]);
        new HeaderFlyweight().wrap(message, 0, frameLength).headerDefaults(StealRequestFlyweight.TYPE).frameLength(frameLength);
        final UnsafeBuffer frame = new UnsafeBuffer(message, 0, frameLength);
        final UnsafeBuffer trailer = new UnsafeBuffer(message, frameLength, FrameAuthenticator.TRAILER_LENGTH);
        final double[] rounds = new double[ROUNDS];
        for (int warm = 0; warm < 3; warm++) {
            round(sender, receiver, frame, trailer, message, frameLength);
        }
        for (int r = 0; r < ROUNDS; r++) {
            rounds[r] = round(sender, receiver, frame, trailer, message, frameLength);
        }
        java.util.Arrays.sort(rounds);
        return rounds[ROUNDS / 2];
    }

    private static double round(final FrameAuthenticator.Signer sender, final FrameAuthenticator receiver, final UnsafeBuffer frame,
        final UnsafeBuffer trailer, final UnsafeBuffer message, final int frameLength) {
        final long start = System.nanoTime();
        for (int i = 0; i < PER_ROUND; i++) {
            sender.sign(StealRequestFlyweight.TYPE, frame, 0, frameLength, null, 0, 0, trailer);
            sender.sent();
            if (receiver.verify(message, 0, message.capacity()) != frameLength) {
                throw new IllegalStateException("an authentic frame failed: " + receiver.counters());
            }
        }
        return (System.nanoTime() - start) / (double) PER_ROUND;
    }

    private static FrameAuthenticator authenticator(final ClusterSecret secret) {
        final FrameAuthenticator authenticator = new FrameAuthenticator(secret,
            MembershipMessages::isHandshakeType, new AuthenticationCounters());
        authenticator.useRunKey(1);
        return authenticator;
    }
}
