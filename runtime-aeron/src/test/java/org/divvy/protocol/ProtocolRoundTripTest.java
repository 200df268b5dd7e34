package org.divvy.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProtocolRoundTripTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FrameCounters counters = new FrameCounters();
    private final FrameValidator validator = new FrameValidator(counters);

    private static UnsafeBuffer bytes(final String s) {
        return new UnsafeBuffer(s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] copy(final UnsafeBuffer b, final int offset, final int length) {
        final byte[] out = new byte[length];
        b.getBytes(offset, out);
        return out;
    }

    private <T extends HeaderFlyweight> T header(final T fly, final int type) {
        fly.wrap(buffer, 0, buffer.capacity());
        fly.headerDefaults(type).senderId(7).epoch(3).flags(0x1234);
        return fly;
    }

    private void assertHeader(final HeaderFlyweight fly, final int type) {
        assertEquals(HeaderFlyweight.CURRENT_VERSION, fly.version());
        assertEquals(type, fly.type());
        assertEquals(7, fly.senderId());
        assertEquals(3, fly.epoch());
        assertEquals(0x1234, fly.flags());
    }

    /** Every valid frame this test builds, for the truncation test. */
    private List<byte[]> allValidFrames() {
        final List<byte[]> frames = new ArrayList<>();
        header(new JoinFlyweight(), MessageType.JOIN).siteAndEndpoint("site-a", "127.0.0.1:4000");
        frames.add(current());
        final MemberListFlyweight list = header(new MemberListFlyweight(), MessageType.MEMBER_LIST);
        list.assignedId(2).appendMember(0, 0, "a", "h:1").appendMember(2, 2, "bé", "h:2");
        frames.add(current());
        header(new HeaderFlyweight(), MessageType.LEAVE);
        frames.add(current());
        header(new HeaderFlyweight(), MessageType.HEARTBEAT);
        frames.add(current());
        header(new HeaderFlyweight(), MessageType.RUN_STARTED);
        frames.add(current());
        header(new StealRequestFlyweight(), MessageType.STEAL_REQUEST).requestId(99).thiefId(7).wideArea(true);
        frames.add(current());
        header(new StealReplyFlyweight(), MessageType.STEAL_REPLY).requestId(5).none();
        frames.add(current());
        header(new StealReplyFlyweight(), MessageType.STEAL_REPLY).requestId(5).ownerJobId(77)
            .job("a.B#c", bytes("012"), 0, 3, bytes("args"), 0, 4);
        frames.add(current());
        header(new JobResultFlyweight(), MessageType.JOB_RESULT).ownerJobId(77).value(bytes("v"), 0, 1);
        frames.add(current());
        header(new JobResultFlyweight(), MessageType.JOB_RESULT).ownerJobId(77).exception("x.Y", "m", "at z");
        frames.add(current());
        header(new JobResultFlyweight(), MessageType.JOB_RESULT).ownerJobId(77).aborted();
        frames.add(current());
        header(new AbortFlyweight(), MessageType.ABORT).count(2).jobId(0, 1).jobId(1, 2);
        frames.add(current());
        header(new TerminateFlyweight(), MessageType.TERMINATE).exitCode(3);
        frames.add(current());
        header(new ChunkFlyweight(), MessageType.CHUNK).messageId(1).chunkIndex(0).chunkCount(2).totalLength(100)
            .frameLength(ChunkFlyweight.PAYLOAD_OFFSET + 50);
        frames.add(current());
        return frames;
    }

    private byte[] current() {
        final int length = buffer.getInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, HeaderFlyweight.BYTE_ORDER);
        return copy(buffer, 0, length);
    }

    private int validateCurrent() {
        return validator.validate(buffer, 0, buffer.getInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, HeaderFlyweight.BYTE_ORDER));
    }

    @Test
    void shouldRoundTripJoin() {
        header(new JoinFlyweight(), MessageType.JOIN).siteAndEndpoint("site-a", "127.0.0.1:4000");
        assertEquals(MessageType.JOIN, validateCurrent());
        final JoinFlyweight read = new JoinFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, MessageType.JOIN);
        assertEquals("site-a", read.site());
        assertEquals("127.0.0.1:4000", read.endpoint());
    }

    @Test
    void shouldRoundTripMemberList() {
        header(new MemberListFlyweight(), MessageType.MEMBER_LIST).assignedId(2)
            .appendMember(0, 0, "a", "h:1").appendMember(2, 2, "bé", "h:2");
        assertEquals(MessageType.MEMBER_LIST, validateCurrent());
        final MemberListFlyweight read = new MemberListFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, MessageType.MEMBER_LIST);
        assertEquals(2, read.assignedId());
        final List<String> seen = new ArrayList<>();
        assertEquals(2, read.forEachMember((id, state, site, endpoint) -> seen.add(id + "/" + state + "/" + site + "/" + endpoint)));
        assertEquals(List.of("0/0/a/h:1", "2/2/bé/h:2"), seen);
    }

    @Test
    void shouldRoundTripHeaderOnlyTypes() {
        for (final int type : new int[] {MessageType.LEAVE, MessageType.HEARTBEAT, MessageType.RUN_STARTED}) {
            header(new HeaderFlyweight(), type);
            assertEquals(type, validateCurrent());
            final HeaderFlyweight read = new HeaderFlyweight();
            read.wrap(buffer, 0, HeaderFlyweight.HEADER_LENGTH);
            assertHeader(read, type);
        }
    }

    @Test
    void shouldRoundTripStealRequest() {
        header(new StealRequestFlyweight(), MessageType.STEAL_REQUEST).requestId(Long.MAX_VALUE).thiefId(7).wideArea(true);
        assertEquals(MessageType.STEAL_REQUEST, validateCurrent());
        final StealRequestFlyweight read = new StealRequestFlyweight();
        read.wrap(buffer, 0, StealRequestFlyweight.FRAME_LENGTH);
        assertHeader(read, MessageType.STEAL_REQUEST);
        assertEquals(Long.MAX_VALUE, read.requestId());
        assertEquals(7, read.thiefId());
        assertTrue(read.wideArea());
    }

    @Test
    void shouldRoundTripStealReplyNoneAndJob() {
        header(new StealReplyFlyweight(), MessageType.STEAL_REPLY).requestId(5).none();
        assertEquals(MessageType.STEAL_REPLY, validateCurrent());
        final StealReplyFlyweight read = new StealReplyFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertEquals(5, read.requestId());
        assertFalse(read.hasJob());

        header(new StealReplyFlyweight(), MessageType.STEAL_REPLY).requestId(6).ownerJobId(-77)
            .job("org.x.Fib#fib", bytes("0211"), 0, 4, bytes("arguments"), 0, 9);
        assertEquals(MessageType.STEAL_REPLY, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, MessageType.STEAL_REPLY);
        assertEquals(6, read.requestId());
        assertTrue(read.hasJob());
        assertEquals(-77, read.ownerJobId());
        assertEquals("org.x.Fib#fib", read.jobTypeName());
        assertEquals("0211", new String(copy(buffer, read.stampOffset(), read.stampLength()), StandardCharsets.UTF_8));
        assertEquals("arguments", new String(copy(buffer, read.argumentsOffset(), read.argumentsLength()), StandardCharsets.UTF_8));
    }

    @Test
    void shouldRoundTripJobResultOutcomes() {
        final JobResultFlyweight read = new JobResultFlyweight();
        header(new JobResultFlyweight(), MessageType.JOB_RESULT).ownerJobId(42).value(bytes("result"), 0, 6);
        assertEquals(MessageType.JOB_RESULT, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, MessageType.JOB_RESULT);
        assertEquals(42, read.ownerJobId());
        assertEquals(JobResultFlyweight.OUTCOME_VALUE, read.outcome());
        assertArrayEquals("result".getBytes(StandardCharsets.UTF_8), copy(buffer, read.resultOffset(), read.resultLength()));

        header(new JobResultFlyweight(), MessageType.JOB_RESULT).ownerJobId(43).exception("java.lang.IllegalStateException", "boom", "at a.b(C.java:1)");
        assertEquals(MessageType.JOB_RESULT, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertEquals(JobResultFlyweight.OUTCOME_EXCEPTION, read.outcome());
        assertEquals("java.lang.IllegalStateException", read.exceptionClassName());
        assertEquals("boom", read.exceptionMessage());
        assertEquals("at a.b(C.java:1)", read.exceptionStackTrace());

        header(new JobResultFlyweight(), MessageType.JOB_RESULT).ownerJobId(44).aborted();
        assertEquals(MessageType.JOB_RESULT, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertEquals(44, read.ownerJobId());
        assertEquals(JobResultFlyweight.OUTCOME_ABORTED, read.outcome());
    }

    @Test
    void shouldRoundTripAbortTerminateAndChunk() {
        header(new AbortFlyweight(), MessageType.ABORT).count(3).jobId(0, 10).jobId(1, 11).jobId(2, 12);
        assertEquals(MessageType.ABORT, validateCurrent());
        final AbortFlyweight abort = new AbortFlyweight();
        abort.wrap(buffer, 0, buffer.capacity());
        assertEquals(3, abort.count());
        assertEquals(12, abort.jobId(2));

        header(new TerminateFlyweight(), MessageType.TERMINATE).exitCode(-2);
        assertEquals(MessageType.TERMINATE, validateCurrent());
        final TerminateFlyweight terminate = new TerminateFlyweight();
        terminate.wrap(buffer, 0, buffer.capacity());
        assertEquals(-2, terminate.exitCode());

        header(new ChunkFlyweight(), MessageType.CHUNK).messageId(9).chunkIndex(1).chunkCount(3).totalLength(300)
            .frameLength(ChunkFlyweight.PAYLOAD_OFFSET + 100);
        assertEquals(MessageType.CHUNK, validateCurrent());
        final ChunkFlyweight chunk = new ChunkFlyweight();
        chunk.wrap(buffer, 0, buffer.capacity());
        assertEquals(9, chunk.messageId());
        assertEquals(1, chunk.chunkIndex());
        assertEquals(3, chunk.chunkCount());
        assertEquals(300, chunk.totalLength());
        assertEquals(0, counters.totalDropped());
    }

    @Test
    void shouldCountAndDropEveryTruncationOfEveryValidFrame() {
        long expectedDrops = 0;
        for (final byte[] frame : allValidFrames()) {
            final UnsafeBuffer whole = new UnsafeBuffer(frame);
            assertTrue(validator.validate(whole, 0, frame.length) != FrameValidator.INVALID, MessageType.name(frame[1]));
            for (int length = 0; length < frame.length; length++) {
                final byte[] cut = new byte[length];
                System.arraycopy(frame, 0, cut, 0, length);
                assertEquals(FrameValidator.INVALID, validator.validate(new UnsafeBuffer(cut), 0, length));
                expectedDrops++;
            }
        }
        assertEquals(expectedDrops, counters.totalDropped());
    }

    @Test
    void shouldCountBadVersionUnknownTypeAndBadLength() {
        header(new HeaderFlyweight(), MessageType.HEARTBEAT).version(2);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        assertEquals(1, counters.badVersion.get());

        header(new HeaderFlyweight(), 200);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        assertEquals(1, counters.unknownType.get());

        header(new HeaderFlyweight(), MessageType.HEARTBEAT);
        assertEquals(FrameValidator.INVALID, validator.validate(buffer, 0, HeaderFlyweight.HEADER_LENGTH + 4));
        assertEquals(1, counters.badLength.get());

        header(new AbortFlyweight(), MessageType.ABORT).count(1).count(Integer.MAX_VALUE)
            .frameLength(AbortFlyweight.frameLengthFor(1));
        assertEquals(FrameValidator.INVALID, validateCurrent());
        assertEquals(1, counters.malformed.get());
    }

    @Test
    void shouldNeverThrowOnRandomBytes() {
        final Random random = new Random(42);
        final List<byte[]> valid = allValidFrames();
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            final byte[] frame;
            if (i % 2 == 0) {
                frame = new byte[random.nextInt(80)];
                random.nextBytes(frame);
                if (frame.length > 1 && random.nextBoolean()) {
                    frame[0] = HeaderFlyweight.CURRENT_VERSION;
                }
            } else {
                // A valid frame with a few random bytes flipped: reaches the per-type checks.
                frame = valid.get(random.nextInt(valid.size())).clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    frame[random.nextInt(frame.length)] = (byte)random.nextInt();
                }
            }
            final UnsafeBuffer b = new UnsafeBuffer(frame);
            final int type = validator.validate(b, 0, frame.length);
            if (type != FrameValidator.INVALID) {
                accepted++;
                readEverything(b, type, frame.length);
            }
        }
        assertEquals(200_000, accepted + counters.totalDropped());
    }

    /** A frame the validator accepted must be fully readable without an exception. */
    private static void readEverything(final UnsafeBuffer b, final int type, final int length) {
        switch (type) {
            case MessageType.JOIN -> {
                final JoinFlyweight f = new JoinFlyweight();
                f.wrap(b, 0, length);
                f.site();
                f.endpoint();
            }
            case MessageType.MEMBER_LIST -> {
                final MemberListFlyweight f = new MemberListFlyweight();
                f.wrap(b, 0, length);
                f.forEachMember((id, state, site, endpoint) -> { });
            }
            case MessageType.STEAL_REPLY -> {
                final StealReplyFlyweight f = new StealReplyFlyweight();
                f.wrap(b, 0, length);
                if (f.hasJob()) {
                    f.jobTypeName();
                    copy(b, f.stampOffset(), f.stampLength());
                    copy(b, f.argumentsOffset(), f.argumentsLength());
                }
            }
            case MessageType.JOB_RESULT -> {
                final JobResultFlyweight f = new JobResultFlyweight();
                f.wrap(b, 0, length);
                if (f.outcome() == JobResultFlyweight.OUTCOME_VALUE) {
                    copy(b, f.resultOffset(), f.resultLength());
                } else if (f.outcome() == JobResultFlyweight.OUTCOME_EXCEPTION) {
                    f.exceptionClassName();
                    f.exceptionMessage();
                    f.exceptionStackTrace();
                }
            }
            case MessageType.ABORT -> {
                final AbortFlyweight f = new AbortFlyweight();
                f.wrap(b, 0, length);
                for (int i = 0; i < f.count(); i++) {
                    f.jobId(i);
                }
            }
            default -> {
            }
        }
    }
}
