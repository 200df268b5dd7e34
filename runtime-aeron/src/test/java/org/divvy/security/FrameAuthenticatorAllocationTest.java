package org.divvy.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import com.sun.management.ThreadMXBean;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.stealing.StealRequestFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Signing and checking frames allocates nothing per frame (javax.crypto's GCM took about 1.3 KB a call). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FrameAuthenticatorAllocationTest {
    private static final String RECEIVER = "127.0.0.1:40001";
    private static final int FRAMES = 10_000;
    /** Room for what the measuring itself or the JVM may allocate in this thread; 10,000 frames at 1.3 KB are 13 MB. */
    private static final long ALLOWED_BYTES = 64 * 1024;

    @Test
    void shouldSignAndCheckFramesWithoutAllocating() {
        final FrameAuthenticator sender = TestAuthenticators.inRun(1);
        final FrameAuthenticator receiver = TestAuthenticators.inRun(1);
        receiver.bindTo(RECEIVER);
        final FrameAuthenticator.Signer stream = sender.signerFor(RECEIVER);
        final int frameLength = StealRequestFlyweight.FRAME_LENGTH;
        final UnsafeBuffer message = new UnsafeBuffer(new byte[frameLength + FrameAuthenticator.TRAILER_LENGTH]);
        new HeaderFlyweight().wrap(message, 0, frameLength).headerDefaults(StealRequestFlyweight.TYPE)
            .frameLength(frameLength);
        final UnsafeBuffer frame = new UnsafeBuffer(message, 0, frameLength);
        final UnsafeBuffer trailer = new UnsafeBuffer(message, frameLength, FrameAuthenticator.TRAILER_LENGTH);
        final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
            "this JVM counts each thread's allocations");

        signAndCheck(stream, receiver, frame, trailer, message, FRAMES); // warm-up
        final long before = threads.getCurrentThreadAllocatedBytes();
        signAndCheck(stream, receiver, frame, trailer, message, FRAMES);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < ALLOWED_BYTES, allocated + " bytes allocated for " + FRAMES + " frames");
        assertEquals(0, receiver.counters().totalDropped());
    }

    private static void signAndCheck(final FrameAuthenticator.Signer stream, final FrameAuthenticator receiver,
        final UnsafeBuffer frame, final UnsafeBuffer trailer, final UnsafeBuffer message, final int frames) {
        for (int i = 0; i < frames; i++) {
            stream.sign(StealRequestFlyweight.TYPE, frame, 0, frame.capacity(), null, 0, 0, trailer);
            stream.sent();
            if (receiver.verify(message, 0, message.capacity()) != frame.capacity()) {
                throw new AssertionError("an authentic frame was dropped at " + i + ": " + receiver.counters());
            }
        }
    }
}
