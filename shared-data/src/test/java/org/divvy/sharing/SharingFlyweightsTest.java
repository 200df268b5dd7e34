package org.divvy.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The shared-object messages' layouts and body checks: a malformed body is refused before any getter reads it. */
class SharingFlyweightsTest {
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);

    @Test
    void shouldWalkTheWritesOfAnUpdateAndRefuseBadLengths() {
        final ExpandableArrayBuffer writes = new ExpandableArrayBuffer(64);
        writes.putLong(0, 42L, SharedUpdateFlyweight.BYTE_ORDER);
        writes.putInt(8, 3, SharedUpdateFlyweight.BYTE_ORDER);
        writes.putInt(12, 4, SharedUpdateFlyweight.BYTE_ORDER);
        writes.putInt(16, 99, SharedUpdateFlyweight.BYTE_ORDER);
        final SharedUpdateFlyweight update = new SharedUpdateFlyweight();
        update.wrap(frame, 0, frame.capacity());
        update.headerDefaults(SharedUpdateFlyweight.TYPE);
        final int length = update.putWrites(1, writes, 0, 20);
        assertTrue(update.isBodyWellFormed(length));
        final int at = SharedUpdateFlyweight.WRITES_OFFSET;
        assertEquals(42L, update.objectId(at));
        assertEquals(3, update.methodId(at));
        assertEquals(4, update.argumentsLength(at));
        assertEquals(length, update.next(at));
        assertFalse(update.isBodyWellFormed(length + 1), "bytes after the last write");
        assertFalse(update.isBodyWellFormed(length - 1), "a write cut short");
        update.count(2);
        assertFalse(update.isBodyWellFormed(length), "more writes counted than the frame holds");
        update.count(-1);
        assertFalse(update.isBodyWellFormed(length));
        update.count(1);
        frame.putInt(at + 12, Integer.MAX_VALUE, SharedUpdateFlyweight.BYTE_ORDER);
        assertFalse(update.isBodyWellFormed(length), "an arguments length past the frame");
    }

    @Test
    void shouldCheckReplicaRepliesAndRequests() {
        final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
        reply.wrap(frame, 0, frame.capacity());
        reply.headerDefaults(ReplicaReplyFlyweight.TYPE);
        reply.start(7L, true, 10);
        final int length = ReplicaReplyFlyweight.STATE_OFFSET + 10;
        assertTrue(reply.isBodyWellFormed(length));
        assertEquals(7L, reply.objectId());
        assertTrue(reply.held());
        assertFalse(reply.isBodyWellFormed(length + 1));
        reply.start(7L, false, 10);
        assertFalse(reply.isBodyWellFormed(length), "a not-held reply carries no state");
        reply.start(7L, false, 0);
        assertTrue(reply.isBodyWellFormed(ReplicaReplyFlyweight.STATE_OFFSET));
        frame.putInt(ReplicaReplyFlyweight.HELD_OFFSET, 5, ReplicaReplyFlyweight.BYTE_ORDER);
        assertFalse(reply.isBodyWellFormed(ReplicaReplyFlyweight.STATE_OFFSET));

        final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
        request.wrap(frame, 0, frame.capacity());
        request.headerDefaults(ReplicaRequestFlyweight.TYPE);
        request.objectId(9L);
        assertEquals(9L, request.objectId());
        assertTrue(request.isBodyWellFormed(ReplicaRequestFlyweight.FRAME_LENGTH));
        assertFalse(request.isBodyWellFormed(ReplicaRequestFlyweight.FRAME_LENGTH + 8));
    }
}
