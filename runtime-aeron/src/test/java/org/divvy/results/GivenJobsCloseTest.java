package org.divvy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.divvy.agent.DeepIdle;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.NetworkAgent;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.testing.NumberJob;
import org.divvy.testing.RecordingFrameSender;
import org.divvy.transport.LoopbackNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A large result is read on the codec thread, which holds a reference to its received frame until then; a node that
 * closes before the codec thread got to it gives the frame back: its agent stops the codec thread first, and the task
 * it drops releases what it held.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GivenJobsCloseTest {
    private static final int SELF = 0;
    private static final int THIEF = 1;
    /** A JOB_RESULT this long is handed to its handler in a buffer of its own and read on the codec thread. */
    private static final int LARGE_FRAME_BYTES = 100_000;

    private final ClosingNodeParts node = new ClosingNodeParts("given-jobs-close");
    private final FrameDispatcher dispatcher = new FrameDispatcher(new FrameCounters(), node.members, node.errors::add);
    private final GivenJobs given = new GivenJobs(node.scheduler, node.members, new RecordingFrameSender(), node.codec,
        new RemoteExceptions(Map.of()), 0);

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void shouldGiveBackTheFrameOfAResultWhoseReadTheClosingNodeDropped() throws InterruptedException {
        node.members(SELF, SELF, THIEF);
        given.register(dispatcher);
        final NetworkAgent agent = NetworkAgent.builder().transport(new LoopbackNetwork().newTransport(new FrameCounters()))
            .clock(new SystemNanoClock(), new CachedNanoClock()).dispatcher(dispatcher).deepIdle(new DeepIdle(Long.MAX_VALUE))
            .errorHandler(node.errors::add).codec(node.codec).duty(given).build();

        final CountDownLatch busy = new CountDownLatch(1);
        final CountDownLatch never = new CountDownLatch(1);
        node.codec.submit(() -> { // a long encode of another mechanism: the read waits behind it
            busy.countDown();
            try {
                never.await();
            } catch (final InterruptedException closing) {
                // the codec thread closes
            }
        }, () -> { });
        assertTrue(busy.await(10, TimeUnit.SECONDS));

        final long ownerJobId = given.claim(new NumberJob(7), THIEF);
        assertNotEquals(GivenJobs.NOT_CLAIMED, ownerJobId);
        given.onGiven(ownerJobId);
        final OffHeapFrame frame = node.offHeap.allocate(LARGE_FRAME_BYTES);
        final JobResultFlyweight result = new JobResultFlyweight();
        result.wrap(frame, 0, LARGE_FRAME_BYTES);
        result.headerDefaults(JobResultFlyweight.TYPE);
        result.ownerJobId(ownerJobId).valueWrittenInPlace(LARGE_FRAME_BYTES);
        frame.putInt(JobResultFlyweight.PAYLOAD_OFFSET, LARGE_FRAME_BYTES - JobResultFlyweight.PAYLOAD_OFFSET
            - HeaderFlyweight.VAR_LENGTH_PREFIX, HeaderFlyweight.BYTE_ORDER);
        frame.putInt(HeaderFlyweight.SENDER_ID_OFFSET, THIEF, HeaderFlyweight.BYTE_ORDER);
        frame.putInt(HeaderFlyweight.EPOCH_OFFSET, node.members.epoch(), HeaderFlyweight.BYTE_ORDER);
        dispatcher.onFrame(JobResultFlyweight.TYPE, frame, 0, LARGE_FRAME_BYTES);
        frame.release(); // the transport's reference, given back after the handler's call
        assertEquals(1, node.offHeap.liveFrames(), "the read queued on the codec thread holds the frame");

        agent.onClose();
        assertEquals(0, node.offHeap.liveBytes(), "off-heap bytes left after the node closed");
        assertEquals(0, node.offHeap.liveFrames());
        assertEquals(List.of(), node.errors);
    }
}
