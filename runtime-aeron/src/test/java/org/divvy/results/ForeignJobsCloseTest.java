package org.divvy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.ObjectJob;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.scheduling.Stamp;
import org.divvy.testing.Await;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A large result of a job run here for another node is encoded on the codec thread into an off-heap frame of its own,
 * and waits in {@link ForeignJobs} while its owner's queue is full; a node that closes then gives the frame back.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ForeignJobsCloseTest {
    private static final int SELF = 2;
    private static final int OWNER = 1;
    /** Larger than the agent encodes inline: encoded on the codec thread. */
    private static final int RESULT_BYTES = 100_000;

    private final ClosingNodeParts node = new ClosingNodeParts("foreign-jobs-close");
    private final RecordingFrameSender sender = new RecordingFrameSender();

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void shouldGiveBackTheFrameOfALargeResultItsOwnerRefusedWhenTheNodeCloses() throws InterruptedException {
        node.members(SELF, OWNER, SELF);
        sender.maxFrameBytes = 1 << 20;
        sender.offHeap = node.offHeap;
        sender.refusing.add(OWNER); // its queue is full
        node.scheduler.start();
        final ForeignJobs foreign = new ForeignJobs(node.scheduler, node.members, sender, node.codec, Long.MAX_VALUE, 0);
        foreign.adopt(new BytesJob(RESULT_BYTES), Stamp.ROOT, false, OWNER, 1, 4, false);
        Await.within(Duration.ofSeconds(10)).stepping(() -> foreign.doWork(System.nanoTime()))
            .until(() -> node.offHeap.liveFrames() == 1, "the result encoded on the codec thread, off the heap");
        final CountDownLatch encoded = new CountDownLatch(1);
        node.codec.submit(encoded::countDown, () -> { }); // runs after the encode: the result is in the inbox
        assertTrue(encoded.await(10, TimeUnit.SECONDS));
        foreign.doWork(System.nanoTime()); // offered to the owner, refused: it waits with its frame
        assertEquals(1, node.offHeap.liveFrames(), "the refused result waits with its frame");
        assertEquals(List.of(), sender.sentTo);

        node.codec.close(); // as the agent closes: the codec thread first, then the duties
        foreign.onAgentClose();
        assertEquals(0, node.offHeap.liveBytes(), "off-heap bytes left after the node closed");
        assertEquals(0, node.offHeap.liveFrames());
        assertEquals(List.of(), node.errors);
    }

    /** A job whose result is {@code length} bytes. */
    private static final class BytesJob extends ObjectJob<byte[]> {
        private static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "test.ForeignJobsCloseTest#bytes";
            }

            @Override
            public Job decode(final WireReader reader) {
                throw new UnsupportedOperationException();
            }
        };

        private final int length;

        BytesJob(final int length) {
            this.length = length;
        }

        @Override
        protected byte[] call() {
            return new byte[length];
        }

        @Override
        protected void writeValue(final WireWriter writer, final byte[] value) {
            writer.writeInt(value.length).writeBytes(value, 0, value.length);
        }

        @Override
        protected byte[] readValue(final WireReader reader) {
            throw new UnsupportedOperationException();
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeInt(length);
        }
    }
}
