package org.divvy.agent;

/** A member directory for tests of the receive path where the cut rule is not under test. */
public final class EveryoneIsAMember implements MemberDirectory {
    @Override
    public int selfId() {
        return 0;
    }

    @Override
    public int epoch() {
        return 0;
    }

    @Override
    public String aliveEndpoint(final int nodeId) {
        return null;
    }

    @Override
    public int[] aliveOthers() {
        return new int[0];
    }

    @Override
    public int senderStatus(final int senderId) {
        return MEMBER;
    }
}
