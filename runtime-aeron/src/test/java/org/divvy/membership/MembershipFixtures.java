package org.divvy.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.FrameSender;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;

/** What the registry's tests share: a sender that records frames and cuts, and joining as a node does. */
final class MembershipFixtures {
    private MembershipFixtures() {
    }

    /** Records frames per endpoint and cuts: what membership sends, checked as a receiver would. */
    static final class RecordingSender implements FrameSender {
        final List<String> sent = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        final List<String> cuts = new ArrayList<>();
        final FrameValidator validator = new FrameValidator(new FrameCounters());
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[256 * 1024]);
        /** Sends to refuse from now on, as a full outbound queue does, and where the refused ones were going. */
        int refusals;
        final List<String> refused = new ArrayList<>();

        @Override
        public MutableDirectBuffer frameBuffer(final long minCapacity) {
            return frame;
        }

        @Override
        public int maxFrameBytes() {
            return frame.capacity();
        }

        @Override
        public boolean sendTo(final int nodeId, final int frameLength) {
            throw new AssertionError("membership sends by endpoint");
        }

        @Override
        public int broadcast(final int frameLength) {
            throw new AssertionError("membership sends by endpoint");
        }

        @Override
        public boolean sendToEndpoint(final String endpoint, final int length) {
            if (refusals > 0) {
                refusals--;
                refused.add(endpoint);
                return false; // as a full queue refuses: nothing sent
            }
            final int type = validator.validateHeader(frame, 0, length);
            assertTrue(type != FrameValidator.INVALID, "sent an invalid frame");
            final byte[] copy = new byte[length];
            frame.getBytes(0, copy);
            sent.add(endpoint + " " + NAMES.getOrDefault(type, "type " + type));
            frames.add(copy);
            return true;
        }

        @Override
        public void cut(final String endpoint) {
            cuts.add(endpoint);
        }

        @Override
        public boolean isIdle() {
            return true;
        }

        MemberListFlyweight lastList() {
            for (int i = frames.size() - 1; i >= 0; i--) {
                if (frames.get(i)[HeaderFlyweight.TYPE_OFFSET] == MemberListFlyweight.TYPE) {
                    final MemberListFlyweight list = new MemberListFlyweight();
                    list.wrap(new UnsafeBuffer(frames.get(i)), 0, frames.get(i).length);
                    return list;
                }
            }
            return null;
        }

        void clear() {
            sent.clear();
            frames.clear();
        }
    }

    static final Map<Integer, String> NAMES = Map.of(JoinFlyweight.TYPE, "JOIN", MemberListFlyweight.TYPE,
        "MEMBER_LIST", MembershipMessages.HEARTBEAT, "HEARTBEAT", MembershipMessages.LEAVE, "LEAVE",
        JoinChallengeFlyweight.TYPE, "JOIN_CHALLENGE", JoinRefusedFlyweight.TYPE, "JOIN_REFUSED");

    static JoinFlyweight join(final String site, final String endpoint) {
        return join(site, endpoint, 77, 0, new byte[0]);
    }

    static JoinFlyweight join(final String site, final String endpoint, final long nonce, final long cookie,
        final byte[] digest) {
        final JoinFlyweight join = new JoinFlyweight();
        join.wrap(new UnsafeBuffer(new byte[256]), 0, 256);
        join.headerDefaults(JoinFlyweight.TYPE);
        join.fields(nonce, cookie, site, endpoint, digest);
        return join;
    }

    /** The last frame sent, as a challenge, removed from the record. */
    static JoinChallengeFlyweight takeChallenge(final RecordingSender outbox, final String endpoint) {
        assertEquals(endpoint + " JOIN_CHALLENGE", outbox.sent.remove(outbox.sent.size() - 1));
        final byte[] bytes = outbox.frames.remove(outbox.frames.size() - 1);
        final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
        challenge.wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        return challenge;
    }

    /** Joins as a node does: a JOIN, then again with the cookie of the registry's challenge. */
    static boolean admit(final Registry registry, final RecordingSender outbox, final String site,
        final String endpoint, final byte[] digest, final long nowNs) {
        assertTrue(registry.onJoin(join(site, endpoint, 77, 0, digest), nowNs));
        final JoinChallengeFlyweight challenge = takeChallenge(outbox, endpoint);
        assertEquals(77, challenge.nonce());
        assertEquals(registry.runKeyId(), challenge.runKeyId());
        assertEquals("r:1", challenge.registryEndpoint());
        return registry.onJoin(join(site, endpoint, 77, challenge.cookie(), digest), nowNs);
    }

    static boolean admit(final Registry registry, final RecordingSender outbox, final String site,
        final String endpoint, final long nowNs) {
        return admit(registry, outbox, site, endpoint, new byte[0], nowNs);
    }
}
