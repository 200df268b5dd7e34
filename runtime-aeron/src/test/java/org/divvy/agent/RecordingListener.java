package org.divvy.agent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.agrona.DirectBuffer;
import org.divvy.membership.Member;

/** Records what the agent delivers, as text lines plus the raw payloads. */
final class RecordingListener implements RemoteWorkListener {
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<byte[]> payloads = new CopyOnWriteArrayList<>();
    volatile int selfId = -1;
    volatile String joinFailure;

    boolean has(final String event) {
        return events.contains(event);
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length) {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    @Override
    public void onJoined(final int selfId) {
        this.selfId = selfId;
        events.add("joined " + selfId);
    }

    @Override
    public void onJoinFailed(final String message) {
        joinFailure = message;
        events.add("joinFailed");
    }

    @Override
    public void onMembershipChange(final Member member) {
        events.add("member " + member.id() + " " + member.site() + " " + member.state());
    }

    @Override
    public void onRegistryLost(final String message) {
        events.add("registryLost");
    }

    @Override
    public void onStealRequest(final int thiefId, final long requestId, final boolean wideArea) {
        events.add("stealRequest " + thiefId + " " + requestId + " " + wideArea);
    }

    @Override
    public void onStealFailed(final int victimId, final long requestId) {
        events.add("stealFailed " + victimId + " " + requestId);
    }

    @Override
    public void onStolenJob(
        final int victimId, final long requestId, final long ownerJobId, final String jobTypeName,
        final DirectBuffer buffer, final int stampOffset, final int stampLength, final int argumentsOffset, final int argumentsLength) {
        payloads.add(copy(buffer, stampOffset, stampLength));
        payloads.add(copy(buffer, argumentsOffset, argumentsLength));
        events.add("stolenJob " + victimId + " " + requestId + " " + ownerJobId + " " + jobTypeName);
    }

    @Override
    public void onJobResult(final int thiefId, final long ownerJobId, final DirectBuffer buffer, final int offset, final int length) {
        payloads.add(copy(buffer, offset, length));
        events.add("result " + thiefId + " " + ownerJobId);
    }

    @Override
    public void onJobFailed(final int thiefId, final long ownerJobId, final String className, final String message, final String trace) {
        events.add("failed " + thiefId + " " + ownerJobId + " " + className + " " + message + " " + trace);
    }

    @Override
    public void onJobAborted(final int thiefId, final long ownerJobId) {
        events.add("aborted " + thiefId + " " + ownerJobId);
    }

    @Override
    public void onAbort(final int senderId, final long ownerJobId) {
        events.add("abort " + senderId + " " + ownerJobId);
    }

    @Override
    public void onTerminate(final int senderId, final int exitCode) {
        events.add("terminate " + senderId + " " + exitCode);
    }

    @Override
    public void onUndeliverable(final int peerId, final int messageType, final int count) {
        events.add("undeliverable " + peerId);
    }
}
