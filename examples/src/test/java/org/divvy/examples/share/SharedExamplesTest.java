package org.divvy.examples.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.examples.AppResult;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.ExampleRunner;
import org.divvy.examples.Mode;
import org.divvy.examples.Problem;
import org.divvy.examples.locusroute.LocusRouteApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.testing.Await;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/**
 * The divide-and-share versions (--mode share) of SAT and LocusRoute, small, on 1, 2 and 4 networked nodes in this
 * JVM (real UDP on 127.0.0.1, one embedded media driver) under RS and CRS, without write combining and with
 * LocusRoute's 100 ms: each answer passes its app's check (SAT: the model satisfies every clause, or SATLIB's
 * label and the sequential solver say unsatisfiable as well; LocusRoute: within the stated bound of the
 * sequential router), and on several nodes the shared objects' writes reached other nodes' replicas.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedExamplesTest {
    private static final Pattern WRITES_RECEIVED = Pattern.compile("(\\d+) writes received");
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

    private static List<ExampleApp> sharingApps() {
        return List.of(
            new SatApp("uuf150-020", 4, 200, Mode.SHARE),
            new SatApp("uf150-016", 4, 200, Mode.SHARE),
            new LocusRouteApp(96, 1500, 2, 100, Mode.SHARE));
    }

    private static NodeConfig config(final String site, final String join, final StealPolicy policy, final long combiningMs) {
        return NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024)
            .site(site).join(join).policy(policy)
            .heartbeatIntervalMs(100)
            .sharedWriteCombiningMs(combiningMs)
            .build();
    }

    private static long writesReceived(final List<DivvyNode> nodes) {
        long received = 0;
        for (final DivvyNode node : nodes) {
            received += writesReceived(node);
        }
        return received;
    }

    /** The writes this node received from others' replicas since it started, from its statistics' shared-object line. */
    private static long writesReceived(final DivvyNode node) {
        final Matcher matcher = WRITES_RECEIVED.matcher(node.networkStatistics().extensions());
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    @ParameterizedTest(name = "{0} nodes, {1}, sites {2}, combining {3} ms")
    @CsvSource({"1, RS, A, 0", "1, CRS, A, 100", "2, RS, A A, 0", "2, CRS, A B, 100", "4, RS, A A B B, 0",
        "4, CRS, A A B B, 100"})
    void shouldPassTheChecksOnSeveralNodes(final int count, final StealPolicy policy, final String siteList,
        final long combiningMs) {
        final String[] sites = siteList.split(" ");
        assertEquals(count, sites.length);
        final List<DivvyNode> nodes = new ArrayList<>();
        try {
            final DivvyNode master = DivvyNode.start(config(sites[0], null, policy, combiningMs));
            nodes.add(master);
            for (int i = 1; i < count; i++) {
                nodes.add(DivvyNode.start(config(sites[i], master.endpoint(), policy, combiningMs)));
            }
            for (final DivvyNode node : nodes) {
                node.awaitMembers(count, Duration.ofSeconds(20));
            }
            final StringBuilder times = new StringBuilder();
            for (final ExampleApp app : sharingApps()) {
                final Problem<?> problem = app.prepare();
                final AppResult parallel = ExampleRunner.runParallel(app.name(), master, problem).result();
                assertTrue(parallel.passed(), parallel.report());
                if (app instanceof SatApp) { // satisfiable or not, as the sequential solver says (models may differ)
                    assertEquals(ExampleRunner.runSequential(app.name(), problem).result().answer(), parallel.answer());
                }
                times.append(app.name()).append(String.format(" %.0f ms: %s; ", parallel.elapsedNs() / 1e6,
                    parallel.check().detail()));
            }
            System.out.println(count + " nodes " + policy + ", combining " + combiningMs + " ms: " + times);
            if (count > 1) {
                assertTrue(master.networkStatistics().jobsGiven() > 0, "jobs travelled to other nodes: " + times);
                // the last writes may still wait out the combining delay when the answer arrives
                Await.within(Duration.ofSeconds(20)).until(() -> writesReceived(nodes) > 0,
                    () -> "writes reached other nodes' replicas: " + master.networkStatistics());
            }
            master.close();
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
