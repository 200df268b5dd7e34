package org.divvy.membership;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.security.FrameAuthenticator;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.FrameHandler;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.Transport;

/**
 * The operator's side of {@code divvy leave}: a process that is no member asks the registry to make members leave
 * gracefully. It sends a {@link LeaveRequestFlyweight LEAVE_REQUEST} under the join key (the cluster secret), answers
 * the registry's {@link JoinChallengeFlyweight JOIN_CHALLENGE} by sending it again with the cookie, and waits for the
 * {@link LeaveAnswerFlyweight LEAVE_ANSWER}. A tool, not a node: it owns its transport and drives it on the caller's
 * thread, retrying every {@link #RETRY_INTERVAL_NS} until the answer or the deadline.
 */
public final class LeaveRequester {
    /** How often the request is sent again while no answer came (a registry still starting, a lost frame). */
    static final long RETRY_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(500);

    private final LeaveRequestFlyweight request = new LeaveRequestFlyweight();
    private final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
    private final LeaveAnswerFlyweight answerFrame = new LeaveAnswerFlyweight();
    private final long nonce = new SecureRandom().nextLong();
    private long cookie;
    private boolean challenged;
    /** The ids asked for (each once, in the order given) and the registry's answer for each, null until it came. */
    private int[] ids;
    private String[] answers;
    private int answered;
    /** Set by a challenge for this request: send again with the cookie without waiting for the retry interval. */
    private boolean justChallenged;
    /** Bound once: the poll loop runs every millisecond until the answers came. */
    private final FrameHandler onFrame = this::onFrame;

    private LeaveRequester() {
    }

    /**
     * Asks the registry at {@code config.join()} to make the members {@code nodeIds} leave; returns its answer, a
     * line per node. {@code config} gives this tool's address, Aeron directory and the cluster secret. Throws
     * {@link DivvyException} saying what to check when no answer comes within {@code timeoutMs}.
     */
    public static String request(final NodeConfig config, final int[] nodeIds, final long timeoutMs) {
        if (config.join() == null) {
            throw new DivvyException("divvy leave needs the registry's address (--join HOST:PORT)");
        }
        if (nodeIds.length == 0 || nodeIds.length > LeaveRequestFlyweight.MAX_NODE_IDS) {
            throw new DivvyException("name 1 to " + LeaveRequestFlyweight.MAX_NODE_IDS + " node ids to leave, not "
                + nodeIds.length);
        }
        final FrameCounters counters = new FrameCounters();
        try (Transport transport = new AeronTransport(config, new FrameValidator(counters), new TrafficCounters(),
            FrameAuthenticator.of(config, MembershipMessages::isHandshakeType), Throwable::printStackTrace)) {
            return new LeaveRequester().exchange(transport, config.join(), Arrays.stream(nodeIds).distinct()
                .toArray(), timeoutMs);
        }
    }

    /** Returns the answers, a line per node id, once all came. */
    private String exchange(final Transport transport, final String registry, final int[] nodeIds, final long timeoutMs) {
        ids = nodeIds;
        answers = new String[nodeIds.length];
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[LeaveRequestFlyweight.lengthBound(transport.endpoint(),
            nodeIds.length)]);
        final int link = transport.linkTo(registry);
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long nextSendNs = startNs;
        while (answered < ids.length) {
            final long nowNs = System.nanoTime();
            if (nowNs - deadlineNs >= 0) {
                throw new DivvyException("no answer from the registry at " + registry + " within " + timeoutMs + " ms"
                    + (challenged ? " after its challenge (" + answered + " of " + ids.length + " nodes answered)" : "")
                    + ": is the run still going, is " + registry + " its registry's address (the --join of its nodes), "
                    + "is the cluster secret the same (DIVVY_SECRET or --secret-file), and can the registry reach this "
                    + "process at " + transport.endpoint() + " (--bind an address it can reach)?");
            }
            if (nowNs - nextSendNs >= 0) {
                request.wrap(frame, 0, frame.capacity());
                request.headerDefaults(LeaveRequestFlyweight.TYPE).senderId(HeaderFlyweight.UNASSIGNED_ID);
                request.fields(nonce, cookie, transport.endpoint(), nodeIds);
                transport.send(link, frame, 0, request.frameLength());
                nextSendNs = nowNs + RETRY_INTERVAL_NS;
            }
            int work = transport.doDriverWork();
            work += transport.doOutboundWork(16);
            work += transport.poll(onFrame, 16);
            if (justChallenged) {
                justChallenged = false;
                nextSendNs = nowNs; // answer the challenge at once
            }
            if (work == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        return String.join("\n", answers) + "\n";
    }

    private void onFrame(final int type, final DirectBuffer buffer, final int offset, final int length) {
        if (type == JoinChallengeFlyweight.TYPE) {
            challenge.wrap(buffer, offset, length);
            if (!wellFormed(challenge, JoinChallengeFlyweight.MIN_BODY_LENGTH, length)) {
                return;
            }
            if (challenge.nonce() == nonce && challenge.cookie() != cookie) {
                cookie = challenge.cookie();
                challenged = true;
                justChallenged = true;
            }
        } else if (type == LeaveAnswerFlyweight.TYPE) {
            answerFrame.wrap(buffer, offset, length);
            if (wellFormed(answerFrame, LeaveAnswerFlyweight.MIN_BODY_LENGTH, length) && answerFrame.nonce() == nonce
                && challenged) {
                for (int i = 0; i < ids.length; i++) {
                    if (ids[i] == answerFrame.nodeId() && answers[i] == null) {
                        answers[i] = answerFrame.text();
                        answered++;
                        break;
                    }
                }
            }
        }
    }

    /** As the dispatcher checks a frame before its handler sees it: long enough, and its body well formed. */
    private static boolean wellFormed(final HeaderFlyweight flyweight, final int minBodyLength, final int length) {
        return length >= HeaderFlyweight.HEADER_LENGTH + minBodyLength && flyweight.isBodyWellFormed(length);
    }
}
