package org.divvy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.ObjectJob;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.Members;
import org.divvy.scheduling.Scheduler;
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

    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final Members members = new Members("A");
    private final RecordingFrameSender sender = new RecordingFrameSender();
    private final OffHeapMemory offHeap = new OffHeapMemory("foreign-jobs-close", errors::add);
    private final CodecThread codec = new CodecThread("foreign-jobs-close-codec", errors::add);
    private final Scheduler scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "foreign-jobs-close");

    @AfterEach
    void stop() {
        codec.close();
        scheduler.close();
        offHeap.close();
    }

    @Test
    void shouldGiveBackTheFrameOfALargeResultItsOwnerRefusedWhenTheNodeCloses() throws InterruptedException {
        members.selfId(SELF);
        for (final int id : new int[] {OWNER, SELF}) {
            members.update(new Member(id, "A", "127.0.0.1:" + (40_000 + id), MemberState.ALIVE));
        }
        sender.maxFrameBytes = 1 << 20;
        sender.offHeap = offHeap;
        sender.refusing.add(OWNER); // its queue is full
        scheduler.start();
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, Long.MAX_VALUE, 0);
        foreign.adopt(new BytesJob(RESULT_BYTES), Stamp.ROOT, false, OWNER, 1, 4, false);
        Await.within(Duration.ofSeconds(10)).stepping(() -> foreign.doWork(System.nanoTime()))
            .until(() -> offHeap.liveFrames() == 1, "the result encoded on the codec thread, off the heap");
        final CountDownLatch encoded = new CountDownLatch(1);
        codec.submit(encoded::countDown, () -> { }); // runs after the encode: the result is in the inbox
        assertTrue(encoded.await(10, TimeUnit.SECONDS));
        foreign.doWork(System.nanoTime()); // offered to the owner, refused: it waits with its frame
        assertEquals(1, offHeap.liveFrames(), "the refused result waits with its frame");
        assertEquals(List.of(), sender.sentTo);

        codec.close(); // as the agent closes: the codec thread first, then the duties
        foreign.onAgentClose();
        assertEquals(0, offHeap.liveBytes(), "off-heap bytes left after the node closed");
        assertEquals(0, offHeap.liveFrames());
        assertEquals(List.of(), errors);
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
