package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.membership.Member;
import org.divvy.membership.MemberListFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.aeron.driver.Configuration;

/**
 * A member list larger than one datagram: the registry's answer to a JOIN (the list with the joiner's id) then travels
 * as several Aeron fragments, reassembled by the joiner's subscription. Long site labels (64 characters, the most a
 * label may have) make the list of {@value #NODES} members longer than Aeron's MTU, as 64 members with short labels
 * are in perf's write-latency harness; every node must still join and see the same list.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LargeMemberListJoinTest {
    private static final int NODES = 32;

    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    private static String site(final int node) {
        return ("site-" + (node % 4) + "-").repeat(10).substring(0, 64);
    }

    @Test
    void shouldJoinEveryNodeWhenTheMemberListSpansSeveralDatagrams() {
        final List<DivvyNode> nodes = cluster.startJoined(NODES, i -> cluster.nodeSettings().site(site(i)));

        final DivvyNode registry = nodes.get(0);
        final List<Member> expected = registry.networkForTest().members().list();
        assertEquals(NODES, expected.size());
        long listBytes = MemberListFlyweight.MEMBERS_OFFSET;
        for (final Member member : expected) {
            listBytes += MemberListFlyweight.MIN_MEMBER_LENGTH + member.site().length() + member.endpoint().length();
        }
        assertTrue(listBytes > 2L * Configuration.mtuLength(), "the list spans more than two datagrams: " + listBytes +
            " bytes, MTU " + Configuration.mtuLength());
        for (final DivvyNode node : nodes) {
            assertEquals(expected, node.networkForTest().members().list(), "node " + node.nodeId() + "'s member list");
        }
        final DivvyNode last = nodes.get(NODES - 1);
        assertTrue(last.networkForTest().traffic().messagesReceived(MemberListFlyweight.TYPE) >= 1,
            "the last joiner took the registry's list");
        assertEquals(0, last.networkForTest().frameCounters().totalDropped(), last.networkForTest().frameCounters().toString());
    }
}
