package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.examples.fib.FibApp;
import org.divvy.examples.knapsack.KnapsackApp;
import org.divvy.examples.mergesort.MergeSortApp;
import org.divvy.examples.nqueens.NQueensApp;
import org.divvy.examples.raytracer.RayTracerApp;
import org.divvy.examples.barneshut.BarnesHutApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.examples.tsp.TspApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/**
 * Every example app, at a small size (the divide-and-share ones in both modes), on 1, 2 and 4 networked nodes in this JVM (real UDP on
 * 127.0.0.1, one shared embedded media driver) under RS and CRS: the master's answer equals the
 * sequential one and passes the app's own check. Jobs travel through the generated codecs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DistributedExamplesTest {
    private static MediaDriver driver;

    @BeforeAll
    static void launchDriver() {
        driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024));
    }

    @AfterAll
    static void closeDriver() {
        driver.close();
    }

    private static List<ExampleApp> smallApps() {
        return List.of(
            new FibApp(32, 16),
            new NQueensApp(11, 3),
            new KnapsackApp(24, 5, 8),
            // SIMULATED WORK: each leaf still searches (then parks), so the answer is the real one
            Launcher.parse("knapsack", "--items", "20", "--spawn-depth", "8", "--simulate-leaf-us", "200").app(),
            new RayTracerApp(160, 120, 2, 256),
            new MergeSortApp(400_000, 5000, 3),
            Launcher.parse("uts", "--tree", "T4", "-d", "10", "-b", "4", "--spawn-depth", "4").app(),
            new TspApp(30, 5, 3),
            new SatApp("uuf150-020", 4, 200),
            new SatApp("uf150-016", 4, 200),
            new BarnesHutApp(2000, 2, 250),
            // divide and share: the bound found by the search (no first tour) is a shared object, and the
            // positions are one, written each step, their force jobs guarded by the step number
            Launcher.parse("tsp", "--instance", "fri26", "--no-first-tour", "--spawn-depth", "3", "--mode", "share").app(),
            new BarnesHutApp(2000, 2, 250, Mode.SHARE));
    }

    private static NodeConfig config(final String site, final String join, final StealPolicy policy) {
        return NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024)
            .site(site).join(join).policy(policy)
            .heartbeatIntervalMs(100)
            .build();
    }

    @ParameterizedTest(name = "{0} nodes, {1}, sites {2}")
    @CsvSource({"1, RS, A", "1, CRS, A", "2, RS, A A", "2, CRS, A B", "4, RS, A A B B", "4, CRS, A A B B"})
    void shouldComputeTheSameAnswersOnSeveralNodes(final int count, final StealPolicy policy, final String siteList) {
        final String[] sites = siteList.split(" ");
        assertEquals(count, sites.length);
        final List<DivvyNode> nodes = new ArrayList<>();
        try {
            final DivvyNode master = DivvyNode.start(config(sites[0], null, policy));
            nodes.add(master);
            for (int i = 1; i < count; i++) {
                nodes.add(DivvyNode.start(config(sites[i], master.endpoint(), policy)));
            }
            for (final DivvyNode node : nodes) { // a thief that has not heard of the others yet steals nothing
                node.awaitMembers(count, Duration.ofSeconds(20));
            }
            final StringBuilder given = new StringBuilder();
            for (final ExampleApp app : smallApps()) {
                final Problem<?> problem = app.prepare();
                final AppResult parallel = ExampleRunner.runParallel(app.name(), master, problem).result();
                assertTrue(parallel.passed(), parallel.report());
                final AppResult sequential = ExampleRunner.runSequential(app.name(), problem).result();
                assertEquals(sequential.answer(), parallel.answer(), app.name() + " on " + count + " nodes, " + policy);
                given.append(app.name()).append(' ').append(master.networkStatistics().jobsGiven())
                    .append(String.format(" (%.0f ms/%.0f ms seq), ", parallel.elapsedNs() / 1e6, sequential.elapsedNs() / 1e6));
            }
            System.out.println(count + " nodes " + policy + ": jobs given by the master so far: " + given);
            if (count > 1) {
                assertTrue(master.networkStatistics().jobsGiven() > 0, "jobs travelled to other nodes: " + given);
            }
            master.close(); // terminates the computation on every node
            for (int i = 1; i < count; i++) {
                assertEquals(0, nodes.get(i).awaitTermination());
            }
        } finally {
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
        }
    }
}
