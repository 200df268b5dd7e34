package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.divvy.NodeSettings;
import org.divvy.Setting;
import org.divvy.StealPolicy;
import org.divvy.examples.Launcher;
import org.divvy.examples.fib.FibApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CliParsingTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldAssignSitesInOrder() {
        final SiteLayout layout = SiteLayout.parse("A:2,B:2", 4);
        assertEquals(List.of("A", "A", "B", "B"), List.of(layout.siteOf(0), layout.siteOf(1), layout.siteOf(2),
            layout.siteOf(3)));
        assertEquals(List.of("A", "B"), layout.sites());
        assertEquals("A:2,B:2", layout.toString());
    }

    @Test
    void shouldPutEveryNodeInTheDefaultSiteWithoutSites() {
        final SiteLayout layout = SiteLayout.parse(null, 3);
        assertEquals(3, layout.nodes());
        assertEquals(List.of(SiteLayout.DEFAULT_SITE), layout.sites());
    }

    @Test
    void shouldRejectSitesThatDoNotAddUpToNodes() {
        final IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
            () -> SiteLayout.parse("A:1,B:2", 4));
        assertEquals("--sites=A:1,B:2 counts add up to 3, must equal --nodes=4", few.getMessage());
        final IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
            () -> SiteLayout.parse("A:3,B:2", 4));
        assertEquals("--sites=A:3,B:2 counts add up to 5, must equal --nodes=4", many.getMessage());
    }

    @Test
    void shouldRejectMalformedSites() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteLayout.parse("A2", 2)).getMessage()
            .contains("NAME:COUNT"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteLayout.parse("A:x", 2)).getMessage()
            .contains("'x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteLayout.parse("A:0,B:2", 2)).getMessage()
            .contains("count 0 of site A must be >= 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteLayout.parse("A:1,A:1", 2)).getMessage()
            .contains("listed twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SiteLayout.parse("A b:2", 2)).getMessage()
            .contains("site name 'A b'"));
    }

    private static String usageError(final String... args) {
        return assertThrows(ParameterException.class, () -> Launcher.parse(args)).getMessage();
    }

    @Test
    void shouldRejectNodesPerProcessThatCannotWork() {
        assertEquals("--nodes-per-process=0, must be in [1, 1024]", usageError("run", "--nodes-per-process", "0", "fib"));
        assertEquals("--nodes=0, must be in [1, 1024]", usageError("node", "--join", "h:1", "--nodes", "0"));
        assertEquals("--port 40001 with --nodes 2: the nodes of one process cannot share a port; leave --port at 0 "
            + "(any free port)", usageError("node", "--join", "h:1", "--nodes", "2", "--port", "40001"));
        assertEquals("--jvm-opt=-Daeron.dir with --nodes-per-process 2: the nodes of one process each need a directory "
            + "of their own; leave it unset",
            usageError("run", "--nodes", "3", "--nodes-per-process", "2", "--jvm-opt=-Daeron.dir=/dev/shm/x", "fib"));
        assertInstanceOf(RunCommand.class, Launcher.parse("run", "--nodes", "3", "--jvm-opt=-Daeron.dir=/dev/shm/x", "fib")
            .command(), "one node a process: its own directory");
    }

    @Test
    void shouldCheckNodeSettingFlagsWithTheTableAndNameTheFlag() {
        assertEquals("--join=10.0.0.5, must be HOST:PORT with a port in [1, 65535], e.g. 192.168.1.10:40123",
            usageError("node", "--join", "10.0.0.5"));
        assertEquals("--join=h:70000, must be HOST:PORT with a port in [1, 65535], e.g. 192.168.1.10:40123",
            usageError("run", "--join", "h:70000", "fib"));
        assertEquals("--acceptable-heartbeat-pause-ms=0, must be > 0", usageError("run", "--acceptable-heartbeat-pause-ms", "0", "fib"));
        assertEquals("--acceptable-heartbeat-pause-ms=soon, must be an integer",
            usageError("node", "--join", "h:1", "--acceptable-heartbeat-pause-ms", "soon"));
        assertEquals("--workers=0, must be in [1, 1024]", usageError("node", "--join", "h:1", "--workers", "0"));
        assertEquals("acceptableHeartbeatPauseMs=150, must be > 2 * heartbeatIntervalMs=200 or one lost heartbeat kills a node",
            usageError("run", "--acceptable-heartbeat-pause-ms", "150", "fib"));
    }

    @Test
    void shouldOfferEveryNodeSettingAsAFlagDerivedFromTheTable() {
        final CommandLine run = Launcher.commandLine().getSubcommands().get("run");
        final CommandLine node = Launcher.commandLine().getSubcommands().get("node");
        final CommandLine registry = Launcher.commandLine().getSubcommands().get("registry");
        for (final Setting<?> setting : NodeSettings.ALL) {
            final boolean everywhere = setting != NodeSettings.NETWORKED;
            assertEquals(everywhere && setting != NodeSettings.SITE, run.getCommandSpec().findOption(setting.flag()) != null,
                "run " + setting.flag());
            assertEquals(everywhere, node.getCommandSpec().findOption(setting.flag()) != null, "node " + setting.flag());
        }
        assertNotNull(registry.getCommandSpec().findOption("--acceptable-heartbeat-pause-ms"));
        assertNull(registry.getCommandSpec().findOption("--workers"));
        final NodeCommand parsed = assertInstanceOf(NodeCommand.class, Launcher.parse("node", "--join", "127.0.0.1:40123",
            "--idle-park-max-ns", "2000000", "--deep-idle-after-ms", "500", "--peer-routes", "127.0.0.1:1=127.0.0.1:2").command());
        assertEquals(2_000_000L, parsed.nodeConfig().idleParkMaxNs());
        assertEquals(500, parsed.nodeConfig().deepIdleAfterMs());
        assertEquals(Map.of("127.0.0.1:1", "127.0.0.1:2"), parsed.nodeConfig().peerRoutes());
        assertTrue(parsed.nodeConfig().networked());
    }

    @Test
    void shouldPassTheSettingsThatDifferFromTheDefaultsToChildrenButNotTheirOwn() {
        final RunCommand run = assertInstanceOf(RunCommand.class, Launcher.parse("run", "--nodes", "2", "--port", "40123",
            "--policy", "rs", "--acceptable-heartbeat-pause-ms", "5000", "--idle-park-max-ns", "2000000", "--bind", "127.0.0.2",
            "--workers", "1", "fib").command());
        assertEquals(40123, run.nodeConfig().port());
        assertEquals(List.of("--idle-park-max-ns", "2000000", "--bind", "127.0.0.2", "--policy", "RS",
            "--acceptable-heartbeat-pause-ms", "5000"), NodeSettingOptions.flags(run.nodeConfig(), NodeZeroRun.CHILD_SETTINGS));
        assertEquals(List.of("--idle-park-max-ns", "2000000", "--policy", "RS", "--acceptable-heartbeat-pause-ms", "5000"),
            NodeSettingOptions.flags(run.nodeConfig(), NodeZeroRun.REMOTE_SETTINGS));
        final NodeCommand child = assertInstanceOf(NodeCommand.class, Launcher.parse(concat(List.of("node", "--join",
            "127.0.0.1:40123"), NodeSettingOptions.flags(run.nodeConfig(), NodeZeroRun.CHILD_SETTINGS))).command());
        assertEquals(run.nodeConfig().toBuilder().port(0).join("127.0.0.1:40123").build(), child.nodeConfig()
            .toBuilder().workers(1).build(), "a child runs with node 0's settings but its own port and registry");
    }

    private static String[] concat(final List<String> a, final List<String> b) {
        final List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all.toArray(new String[0]);
    }

    @Test
    void shouldParseARunWithItsApp() {
        final Launcher.Invocation invocation = Launcher.parse("run", "--nodes", "4", "--sites", "A:2,B:2", "--policy",
            "rs", "--workers", "1", "fib", "-n", "20", "--threshold", "5");
        final RunCommand run = assertInstanceOf(RunCommand.class, invocation.command());
        final FibApp app = assertInstanceOf(FibApp.class, invocation.app());
        assertEquals(app, run.app());
        assertEquals(4, run.nodes());
        assertEquals("B", run.layout().siteOf(2));
        assertEquals(StealPolicy.RS, run.nodeConfig().policy());
        assertEquals("A", run.nodeConfig().site());
        assertEquals(1, run.workersPerNode());
        assertEquals(List.of("--policy", "RS"), NodeSettingOptions.flags(run.nodeConfig(), NodeZeroRun.CHILD_SETTINGS));
        final RunCommand appWorkers = assertInstanceOf(RunCommand.class, Launcher.parse("run", "fib", "--workers", "3").command());
        assertEquals(3, appWorkers.workersPerNode(), "without the run's --workers, the app's");
    }

    @Test
    void shouldRejectRunSitesNotAddingUpWithAUsageError() {
        final ParameterException e = assertThrows(ParameterException.class,
            () -> Launcher.parse("run", "--nodes", "3", "--sites", "A:2,B:2", "fib"));
        assertEquals("--sites=A:2,B:2 counts add up to 4, must equal --nodes=3", e.getMessage());
        assertEquals(Launcher.EXIT_USAGE,
            Launcher.execute(new String[] {"run", "--nodes", "3", "--sites", "A:2,B:2", "fib"}, out, err));
        assertTrue(err().contains("must equal --nodes=3"), err());
    }

    @Test
    void shouldRejectBadRunFlags() {
        assertTrue(assertThrows(ParameterException.class, () -> Launcher.parse("run", "--nodes", "2")).getMessage()
            .contains("Missing app"));
        assertEquals("--policy=fifo, must be RS or CRS or LCRS", assertThrows(ParameterException.class,
            () -> Launcher.parse("run", "--policy", "fifo", "fib")).getMessage());
        assertEquals("--nodes=0, must be in [1, 1024]", assertThrows(ParameterException.class,
            () -> Launcher.parse("run", "--nodes", "0", "fib")).getMessage());
        assertEquals("--warmup-runs=-1, must be in [0, 100]", assertThrows(ParameterException.class,
            () -> Launcher.parse("run", "--warmup-runs", "-1", "fib")).getMessage());
        assertTrue(assertThrows(ParameterException.class, () -> Launcher.parse("run", "fib", "--sequential"))
            .getMessage().contains("--sequential runs on no node"));
        assertTrue(assertThrows(ParameterException.class, () -> Launcher.parse("run", "--bogus", "fib"))
            .getMessage().contains("--bogus"));
        assertTrue(assertThrows(ParameterException.class, () -> Launcher.parse("run", "--join", "nowhere", "fib"))
            .getMessage().contains("--join=nowhere"));
    }

    @Test
    void shouldRequireJoinForANode() {
        assertTrue(assertThrows(ParameterException.class, () -> Launcher.parse("node")).getMessage()
            .contains("--join"));
        assertTrue(assertThrows(ParameterException.class, () -> Launcher.parse("node", "--join", "host")).getMessage()
            .contains("--join=host, must be HOST:PORT"));
        assertTrue(assertThrows(ParameterException.class,
            () -> Launcher.parse("node", "--join", "h:1", "--site", "a b")).getMessage().contains("--site=a b"));
        final NodeCommand node = assertInstanceOf(NodeCommand.class,
            Launcher.parse("node", "--join", "127.0.0.1:40123", "--site", "B", "--workers", "3").command());
        assertEquals("B", node.site());
        assertEquals(3, node.workers());
        assertNull(Launcher.parse("node", "--join", "127.0.0.1:40123").app());
        assertEquals(Launcher.EXIT_USAGE, Launcher.execute(new String[] {"node"}, out, err));
    }

    @Test
    void shouldRejectABadRegistryPort() {
        assertEquals("--port=70000, must be in [0, 65535]", assertThrows(ParameterException.class,
            () -> Launcher.parse("registry", "--port", "70000")).getMessage());
    }

    @Test
    void shouldListTheAppsInRunHelp() {
        assertEquals(Launcher.EXIT_OK, Launcher.execute(new String[] {"run", "--help"}, out, err));
        assertTrue(out().contains("--nodes") && out().contains("--sites") && out().contains("uts"), out());
        assertTrue(Launcher.parse("run", "fib", "--help").isHelpOrVersion());
        assertEquals(Launcher.EXIT_OK, Launcher.execute(new String[] {"--help"}, out, err));
        assertTrue(out().contains("registry") && out().contains("node"), out());
    }

    @Test
    void shouldValidateSimulatedLeaves() {
        assertEquals("--simulate-leaf-us=-1, must be in [0, 60000000]", assertThrows(ParameterException.class,
            () -> Launcher.parse("fib", "--simulate-leaf-us", "-1")).getMessage());
        assertTrue(assertThrows(ParameterException.class,
            () -> Launcher.parse("uts", "--simulate-leaf-us", "10", "--sequential")).getMessage()
            .contains("Divvy version only"));
    }

    @Test
    void shouldBuildTheChildCommandLine() {
        final ChildCommand command = new ChildCommand("/jdk/bin/java", List.of("-Xmx64m"), "a.jar");
        assertEquals(List.of("/jdk/bin/java", ChildCommand.ADD_OPENS, "-Xmx64m", "-cp", "a.jar",
            "org.divvy.examples.Launcher", "node", "--join", "127.0.0.1:5"),
            command.command(List.of("node", "--join", "127.0.0.1:5")));
        assertEquals("exit code 137 (killed by signal 9, SIGKILL)", ChildNodes.describeExit(137));
        assertEquals("exit code 1", ChildNodes.describeExit(1));
    }
}
