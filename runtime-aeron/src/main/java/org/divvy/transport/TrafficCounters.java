package org.divvy.transport;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;


/**
 * Messages and bytes sent and received per message type code (the header's type byte), and outbound
 * messages that were not delivered, by reason. A received message counts once its header is valid, before
 * its type and body are checked (the dispatcher counts those it drops in its frame counters). Written only by the network agent thread; readable from any thread.
 */
public final class TrafficCounters {
    /** Every code the header's one type byte can hold. */
    public static final int TYPE_CODES = 256;

    private final AtomicLongArray messagesSent = new AtomicLongArray(TYPE_CODES);
    private final AtomicLongArray bytesSent = new AtomicLongArray(TYPE_CODES);
    private final AtomicLongArray messagesReceived = new AtomicLongArray(TYPE_CODES);
    private final AtomicLongArray bytesReceived = new AtomicLongArray(TYPE_CODES);

    /** Messages refused because a peer's outbound queue was full; the sender keeps each and retries, or runs the job itself. */
    public final AtomicLong droppedQueueFull = new AtomicLong();
    /** Messages dropped because their peer died or left before they could be delivered. */
    public final AtomicLong droppedPeerGone = new AtomicLong();
    /** Messages larger than the transport accepts at all. */
    public final AtomicLong droppedTooLarge = new AtomicLong();
    /** Messages not sent because the transport failed (a publication could not be created); each error is reported. */
    public final AtomicLong sendErrors = new AtomicLong();
    /** Publications closed by Aeron (CLOSED, MAX_POSITION_EXCEEDED) and created again. */
    public final AtomicLong publicationsRecreated = new AtomicLong();
    /** Publications closed because they took nothing for {@code idlePublicationCloseMs}; the next frame opens another. */
    public final AtomicLong publicationsClosedIdle = new AtomicLong();
    /**
     * Received STREAM_CONTINUES frames held in their stream because the closed publication they continue had a gap
     * and its image was still here (its tail may come yet); each counts once however long it waits.
     */
    public final AtomicLong continuationsHeld = new AtomicLong();

    void onSent(final int type, final int bytes) {
        add(messagesSent, type, 1);
        add(bytesSent, type, bytes);
    }

    void onReceived(final int type, final int bytes) {
        add(messagesReceived, type, 1);
        add(bytesReceived, type, bytes);
    }

    static void add(final AtomicLong counter, final long delta) {
        counter.lazySet(counter.get() + delta);
    }

    private static void add(final AtomicLongArray counters, final int type, final long delta) {
        final int index = type & 0xFF;
        counters.lazySet(index, counters.get(index) + delta);
    }

    public long messagesSent(final int type) {
        return messagesSent.get(type);
    }

    public long bytesSent(final int type) {
        return bytesSent.get(type);
    }

    public long messagesReceived(final int type) {
        return messagesReceived.get(type);
    }

    public long bytesReceived(final int type) {
        return bytesReceived.get(type);
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("TrafficCounters{");
        for (int type = 1; type < TYPE_CODES; type++) {
            if (messagesSent(type) + messagesReceived(type) > 0) {
                sb.append("type ").append(type).append(": sent ").append(messagesSent(type)).append('/')
                    .append(bytesSent(type)).append("B received ").append(messagesReceived(type)).append('/')
                    .append(bytesReceived(type)).append("B, ");
            }
        }
        return sb.append("droppedQueueFull=").append(droppedQueueFull).append(", droppedPeerGone=").append(droppedPeerGone)
            .append(", droppedTooLarge=").append(droppedTooLarge).append(", sendErrors=").append(sendErrors).append(", publicationsRecreated=")
            .append(publicationsRecreated).append(", publicationsClosedIdle=").append(publicationsClosedIdle).append(", continuationsHeld=").append(continuationsHeld).append('}').toString();
    }
}
