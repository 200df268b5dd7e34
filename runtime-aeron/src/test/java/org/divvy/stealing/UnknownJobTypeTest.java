package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.agent.NetworkProxy;
import org.divvy.agent.NetworkService;
import org.divvy.agent.RemoteWorkListener;
import org.divvy.membership.Member;
import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TestDriver;
import org.divvy.transport.TransportSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * A raw peer (a network service with a hand-written listener) answers a Divvy node's steal request
 * with a job of a type the node does not know: the node counts it, treats the steal as failed and
 * returns a failure naming the type, so the owner does not wait forever.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnknownJobTypeTest {
    /** Gives every thief a job of an unknown type once, then nothing; records the failure it gets back. */
    private static final class RawVictim implements RemoteWorkListener {
        final CompletableFuture<String> failure = new CompletableFuture<>();
        volatile NetworkProxy proxy;
        private boolean given;

        @Override
        public void onStealRequest(final int thiefId, final long requestId, final boolean wideArea) {
            if (proxy == null) {
                return; // not set yet: the thief's request times out and it asks again
            }
            if (given) {
                proxy.replyNone(thiefId, requestId);
                return;
            }
            given = true;
            final UnsafeBuffer empty = new UnsafeBuffer(new byte[1]); // a root stamp: length 0
            proxy.replyJob(thiefId, requestId, 77, "no.such.App#method", empty, 0, 1, empty, 0, 0);
        }

        @Override
        public void onJobFailed(final int thiefId, final long ownerJobId, final String className, final String message,
            final String stackTrace) {
            failure.complete(ownerJobId + " " + className + ": " + message);
        }

        @Override
        public void onJoined(final int selfId) {
        }

        @Override
        public void onJoinFailed(final String message) {
        }

        @Override
        public void onMembershipChange(final Member member) {
        }

        @Override
        public void onRegistryLost(final String message) {
        }

        @Override
        public void onStealFailed(final int victimId, final long requestId) {
        }

        @Override
        public void onStolenJob(final int victimId, final long requestId, final long ownerJobId, final String jobTypeName,
            final DirectBuffer buffer, final int stampOffset, final int stampLength, final int argumentsOffset,
            final int argumentsLength) {
        }

        @Override
        public void onJobResult(final int thiefId, final long ownerJobId, final DirectBuffer buffer, final int offset,
            final int length) {
        }

        @Override
        public void onJobAborted(final int thiefId, final long ownerJobId) {
        }

        @Override
        public void onAbort(final int senderId, final long ownerJobId) {
        }

        @Override
        public void onTerminate(final int senderId, final int exitCode) {
        }

        @Override
        public void onUndeliverable(final int peerId, final int messageType, final int count) {
        }
    }

    @Test
    void shouldReturnAFailureForAJobOfAnUnknownType() throws Exception {
        try (MediaDriver driver = TestDriver.launch()) {
            final NodeConfig config = NodeConfig.builder().workers(1).networked(true).aeronDirectory(driver.aeronDirectoryName())
                .termLengthBytes(64 * 1024).policy(StealPolicy.RS).heartbeatTimeoutMs(3000).build();
            try (DivvyNode node = DivvyNode.start(config)) {
                final RawVictim victim = new RawVictim();
                final NetworkService raw = NetworkService.start(
                    TransportSettings.builder().aeronDirectoryName(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).build(),
                    MembershipSettings.builder().joinEndpoint(node.endpoint()).heartbeatTimeoutNs(TimeUnit.SECONDS.toNanos(3)).build(),
                    NetworkService.DEFAULT_COMMAND_RING_BYTES, victim, Throwable::printStackTrace);
                try {
                    victim.proxy = raw.newAgentThreadProxy();
                    node.awaitMembers(2, Duration.ofSeconds(10));
                    final String failure = victim.failure.get(15, TimeUnit.SECONDS);
                    assertTrue(failure.startsWith("77 " + DivvyException.class.getName() + ": job type `no.such.App#method` is unknown on node 0"),
                        failure);
                    assertEquals(0, node.networkStatistics().remoteSteals(), "counted as a failed steal");
                } finally {
                    raw.close();
                }
            }
        }
    }
}
