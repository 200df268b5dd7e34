package org.divvy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.divvy.bulk.OffHeapMemory;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.JobTypeProvider;
import org.divvy.codegen.LongJob;
import org.divvy.codegen.ObjectJob;
import org.divvy.codegen.Spawns;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every big message of a run (the ROOT, the stolen jobs, their results, the RUN_RESULT) travels in off-heap frames,
 * and each is freed once its last holder is done: after the run, every node's off-heap memory is back to zero, also
 * when the run fails, and a node that closes gives back the frames it still holds (the registry's kept root mid-run). Two or three networked nodes in one JVM over real UDP (64 KiB terms: every big message is
 * chunked).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OffHeapFramesTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    private static final int DATA_BYTES = 4 * 1024 * 1024;
    private static final int LEAF_BYTES = 512 * 1024;

    private List<DivvyNode> start(final int nodes) {
        return cluster.startJoined(nodes, i -> cluster.nodeSettings().acceptableHeartbeatPauseMs(2_000));
    }

    private static byte[] data() {
        final byte[] data = new byte[DATA_BYTES];
        new Random(11).nextBytes(data);
        return data;
    }

    private static byte[] reversed(final byte[] data) {
        final byte[] out = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            out[i] = data[data.length - 1 - i];
        }
        return out;
    }

    private static OffHeapMemory memoryOf(final DivvyNode node) {
        return node.networkForTest().offHeapMemory();
    }

    private static void awaitAllFreed(final List<DivvyNode> nodes) {
        Await.within(Duration.ofSeconds(20)).until(() -> nodes.stream().allMatch(n -> memoryOf(n).liveBytes() == 0 &&
            memoryOf(n).liveFrames() == 0), () -> "every node's off-heap frames freed; live bytes: " +
            nodes.stream().map(n -> memoryOf(n).liveBytes() + " in " + memoryOf(n).liveFrames() + " frames").toList());
    }

    @Test
    void shouldFreeEveryOffHeapFrameOfARunWithBigRootJobsResultsAndValue() {
        final List<DivvyNode> two = start(2);
        final byte[] data = data();
        final RunReport<byte[]> report = two.get(0).submit(Root.of(() -> BigJobs.spawnReverse(data, LEAF_BYTES, false)));
        assertArrayEquals(reversed(data), report.value());
        assertEquals(two.get(1).nodeId(), report.masterId());
        assertTrue(two.get(0).networkStatistics().jobsGiven() + two.get(1).networkStatistics().jobsGiven() > 0,
            "big jobs were stolen");
        for (final DivvyNode node : two) {
            assertTrue(memoryOf(node).allocatedFrames() > 0, "node " + node.nodeId() + " received or sent off the heap");
        }
        awaitAllFreed(two);
    }

    @Test
    void shouldFreeEveryOffHeapFrameOfARunThatFails() {
        final List<DivvyNode> three = start(3);
        final byte[] data = data();
        final RemoteJobException e = assertThrows(RemoteJobException.class,
            () -> three.get(0).submit(Root.of(() -> BigJobs.spawnReverse(data, LEAF_BYTES, true))));
        assertTrue(e.getMessage().contains("a leaf failed"), e.getMessage());
        assertTrue(memoryOf(three.get(1)).allocatedFrames() > 0, "the master received the root off the heap");
        awaitAllFreed(three);
        final byte[] small = new byte[] {1, 2, 3};
        assertArrayEquals(new byte[] {3, 2, 1}, three.get(0).submit(Root.of(() -> BigJobs.spawnReverse(small, 1, false)))
            .value(), "the nodes still run roots");
        awaitAllFreed(three);
    }

    /**
     * The registry keeps a run's root (as the off-heap frame it came in) while the run lasts, to give it to a new
     * master; the node hosting it closes mid-run: the frame is given back, not leaked with the node.
     */
    @Test
    void shouldGiveBackTheRootItsRegistryKeepsWhenTheNodeClosesMidRun() throws Exception {
        final List<DivvyNode> two = start(2);
        HoldJob.started = new CountDownLatch(1);
        HoldJob.release = new CountDownLatch(1);
        final byte[] data = data();
        final CompletableFuture<RunReport<Long>> submitted = CompletableFuture.supplyAsync(
            () -> two.get(0).submit(Root.of(() -> BigJobs.spawnHold(data))));
        try {
            assertTrue(HoldJob.started.await(30, TimeUnit.SECONDS), "node 1 masters the run");
            assertTrue(memoryOf(two.get(0)).liveBytes() >= DATA_BYTES,
                "the registry on node 0 keeps the root off the heap while the run lasts: " + memoryOf(two.get(0)).liveBytes());
            two.get(0).close();
            awaitAllFreed(List.of(two.get(0)));
        } finally {
            HoldJob.release.countDown();
        }
        final ExecutionException e = assertThrows(ExecutionException.class, () -> submitted.get(30, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof DivvyException, "the submitter hears its node closed: " + e.getCause());
    }

    /** A spawnable the processor would generate: reverses a byte array by halves, each half a job that travels. */
    public static final class BigJobs implements JobTypeProvider {
        @Override
        public List<JobType> jobTypes() {
            return List.of(ReverseJob.TYPE, HoldJob.TYPE);
        }

        static HoldJob spawnHold(final byte[] data) {
            return Spawns.spawn(new HoldJob(data));
        }

        static ReverseJob spawnReverse(final byte[] data, final int leafBytes, final boolean failLeaves) {
            return Spawns.spawn(new ReverseJob(data, leafBytes, failLeaves));
        }

        static byte[] reverse(final byte[] data, final int leafBytes, final boolean failLeaves) {
            if (data.length <= leafBytes) {
                if (failLeaves) {
                    throw new IllegalStateException("a leaf failed");
                }
                return reversed(data);
            }
            final int half = data.length / 2;
            final byte[] first = new byte[half];
            final byte[] second = new byte[data.length - half];
            System.arraycopy(data, 0, first, 0, half);
            System.arraycopy(data, half, second, 0, second.length);
            final ReverseJob a = spawnReverse(first, leafBytes, failLeaves);
            final ReverseJob b = spawnReverse(second, leafBytes, failLeaves);
            Spawns.sync();
            final byte[] out = new byte[data.length];
            System.arraycopy(b.get(), 0, out, 0, second.length);
            System.arraycopy(a.get(), 0, out, second.length, half);
            return out;
        }
    }

    static final class ReverseJob extends ObjectJob<byte[]> {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.OffHeapFramesTest#reverse";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new ReverseJob(readArray(reader), reader.readInt(), reader.readBoolean());
            }
        };

        private final byte[] data;
        private final int leafBytes;
        private final boolean failLeaves;

        ReverseJob(final byte[] data, final int leafBytes, final boolean failLeaves) {
            this.data = data;
            this.leafBytes = leafBytes;
            this.failLeaves = failLeaves;
        }

        private static byte[] readArray(final WireReader reader) {
            final byte[] array = new byte[reader.readLength(1)];
            reader.readBytes(array, 0, array.length);
            return array;
        }

        private static void writeArray(final WireWriter writer, final byte[] array) {
            writer.writeInt(array.length).writeBytes(array, 0, array.length);
        }

        @Override
        protected byte[] call() {
            return BigJobs.reverse(data, leafBytes, failLeaves);
        }

        @Override
        protected void writeValue(final WireWriter writer, final byte[] value) {
            writeArray(writer, value);
        }

        @Override
        protected byte[] readValue(final WireReader reader) {
            return readArray(reader);
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writeArray(writer, data);
            writer.writeInt(leafBytes).writeBoolean(failLeaves);
        }
    }

    /** A root that holds its run open (it waits for the test) and answers its argument's length. */
    static final class HoldJob extends LongJob {
        static volatile CountDownLatch started = new CountDownLatch(0);
        static volatile CountDownLatch release = new CountDownLatch(0);

        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.OffHeapFramesTest#hold";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new HoldJob(ReverseJob.readArray(reader));
            }
        };

        private final byte[] data;

        HoldJob(final byte[] data) {
            this.data = data;
        }

        @Override
        protected long call() throws InterruptedException {
            started.countDown();
            release.await(60, TimeUnit.SECONDS);
            return data.length;
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            ReverseJob.writeArray(writer, data);
        }
    }
}
