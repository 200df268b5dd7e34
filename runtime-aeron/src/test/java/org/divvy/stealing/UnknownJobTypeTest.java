package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.membership.MembershipListener;
import org.divvy.node.ProtocolPeer;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.results.JobResultFlyweight;
import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * A hand-written peer announces a run and answers a Divvy node's steal request with a job of a type the node does not know:
 * the node counts it, treats the steal as failed and returns a failure naming the type, so the owner does
 * not wait forever.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnknownJobTypeTest {
    @Test
    void shouldReturnAFailureForAJobOfAnUnknownType() throws Exception {
        try (MediaDriver driver = TestDriver.launch()) {
            final NodeConfig config = NodeConfig.builder().workers(1).networked(true).aeronDirectory(driver.aeronDirectoryName())
                .termLengthBytes(64 * 1024).policy(StealPolicy.RS).build();
            try (DivvyNode node = DivvyNode.start(config)) {
                final CompletableFuture<String> failure = new CompletableFuture<>();
                final ProtocolPeer victim = new ProtocolPeer(NodeConfig.builder().networked(true)
                    .aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).join(node.endpoint())
                    .build(), new MembershipListener() { }, new SystemNanoClock(), Throwable::printStackTrace);
                final StealRequestFlyweight request = new StealRequestFlyweight();
                final StealReplyFlyweight reply = new StealReplyFlyweight();
                final JobResultFlyweight result = new JobResultFlyweight();
                final boolean[] given = new boolean[1];
                victim.handle(StealRequestFlyweight.TYPE, "STEAL_REQUEST", new StealRequestFlyweight(),
                    StealRequestFlyweight.MIN_BODY_LENGTH, (thiefId, buffer, offset, length) -> {
                        request.wrap(buffer, offset, length);
                        final MutableDirectBuffer frame = victim.sender().frameBuffer(256);
                        reply.wrap(frame, 0, frame.capacity());
                        reply.headerDefaults(StealReplyFlyweight.TYPE);
                        if (given[0]) {
                            reply.requestId(request.requestId()).none();
                        } else {
                            given[0] = true;
                            final UnsafeBuffer emptyStamp = new UnsafeBuffer(new byte[1]); // a root stamp: length 0
                            reply.requestId(request.requestId()).ownerJobId(77)
                                .job("no.such.App#method", emptyStamp, 0, 1, emptyStamp, 0, 0);
                        }
                        victim.sender().sendTo(thiefId, reply.frameLength());
                        return 1;
                    });
                victim.handle(JobResultFlyweight.TYPE, "JOB_RESULT", new JobResultFlyweight(), JobResultFlyweight.MIN_BODY_LENGTH,
                    (thiefId, buffer, offset, length) -> {
                        result.wrap(buffer, offset, length);
                        if (result.outcome() == JobResultFlyweight.OUTCOME_EXCEPTION) {
                            failure.complete(result.ownerJobId() + " " + result.exceptionClassName() + ": " +
                                result.exceptionMessage());
                        }
                        return 1;
                    });
                final boolean[] runAnnounced = new boolean[1];
                victim.duty(nowNs -> {
                    // the peer masters a run (RUN_STARTED; a header-only one names no run, which only turns result copies off): the node asks peers for work only in a run
                    if (runAnnounced[0] || !victim.members().isAlive(0) || victim.members().selfId() < 0) {
                        return 0;
                    }
                    final MutableDirectBuffer frame = victim.sender().frameBuffer(HeaderFlyweight.HEADER_LENGTH);
                    new HeaderFlyweight().wrap(frame, 0, HeaderFlyweight.HEADER_LENGTH).headerDefaults(LifecycleHandler.RUN_STARTED);
                    runAnnounced[0] = victim.sender().sendTo(0, HeaderFlyweight.HEADER_LENGTH);
                    return 1;
                });
                victim.start();
                try {
                    node.awaitMembers(2, Duration.ofSeconds(10));
                    final String text = failure.get(15, TimeUnit.SECONDS);
                    assertTrue(text.startsWith("77 " + DivvyException.class.getName() +
                        ": job type `no.such.App#method` is unknown on node 0"), text);
                    assertEquals(0, node.networkStatistics().remoteSteals(), "counted as a failed steal");
                } finally {
                    victim.close();
                }
            }
        }
    }
}
