package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Launcher;
import org.divvy.examples.cli.FaultSchedule.JoinNodes;
import org.divvy.examples.cli.FaultSchedule.Stop;
import org.divvy.examples.cli.FaultSchedule.StopMaster;
import org.divvy.examples.cli.FaultSchedule.StopNode;
import org.divvy.examples.cli.FaultSchedule.StopSite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine.ParameterException;

/** {@code --kill-at}, {@code --kill-site} and {@code --join-at}: parsing and the checks against the layout; no process. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultScheduleTest {
    private static final SiteLayout THREE = SiteLayout.single(3);
    private static final SiteLayout TWO_SITES = SiteLayout.parse("A:2,B:2", 4);

    private static FaultSchedule parse(final List<String> killAt, final List<String> killSite, final List<String> joinAt,
        final SiteLayout layout) {
        return FaultSchedule.parse(killAt, killSite, joinAt, layout, 0);
    }

    private static String error(final List<String> killAt, final List<String> killSite, final List<String> joinAt,
        final SiteLayout layout) {
        return assertThrows(IllegalArgumentException.class, () -> parse(killAt, killSite, joinAt, layout)).getMessage();
    }

    @Test
    void shouldParseKillsWithDecimalSecondsInTimeOrder() {
        final FaultSchedule schedule = parse(List.of("2@2.5,1@1", "2@3"), List.of(), List.of(), THREE);
        assertEquals(List.of(new StopNode(Stop.KILL, 1, 1000, "--kill-at 1@1"), new StopNode(Stop.KILL, 2, 2500, "--kill-at 2@2.5"),
            new StopNode(Stop.KILL, 2, 3000, "--kill-at 2@3")), schedule.events());
        assertEquals("t=1.00 s: kill node 1; t=2.50 s: kill node 2; t=3.00 s: kill node 2", schedule.describe());
        assertEquals(List.of(new StopNode(Stop.KILL, 1, 2000, "--kill-at 1@2"), new StopNode(Stop.KILL, 2, 2000, "--kill-at 2@2")),
            parse(List.of("1@2,2@2"), List.of(), List.of(), THREE).events(), "several nodes at once");
        assertTrue(FaultSchedule.parse(List.of(), List.of(), List.of(), THREE, 0).isEmpty());
        assertTrue(FaultSchedule.parse(null, null, null, THREE, 0).isEmpty());
    }

    @Test
    void shouldRoundTimesToMilliseconds() {
        for (final String[] time : new String[][] {{".5", "500"}, {"0", "0"}, {"1.2345", "1235"}, {"7.", "7000"},
            {"86400", "86400000"}}) {
            final FaultSchedule schedule = parse(List.of("1@" + time[0]), List.of(), List.of(), THREE);
            assertEquals(Long.parseLong(time[1]), schedule.events().get(0).atMs(), time[0]);
        }
    }

    @Test
    void shouldRejectMalformedKills() {
        assertEquals("--kill-at=2: must be NODE@SECONDS, e.g. --kill-at 2@1.5 (several: 1@2,2@2; the master: master@1.5)",
            error(List.of("2"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=: must be NODE@SECONDS, e.g. --kill-at 2@1.5 (several: 1@2,2@2; the master: master@1.5)",
            error(List.of("1@2,"), List.of(), List.of(), THREE), "an empty part of a list");
        assertEquals("--kill-at=x@2: node 'x' must be the index of a local node (an integer) or master",
            error(List.of("x@2"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=2@-1: time '-1' must be seconds >= 0 after the app started, e.g. 2 or 2.5",
            error(List.of("2@-1"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=2@soon: time 'soon' must be seconds >= 0 after the app started, e.g. 2 or 2.5",
            error(List.of("2@soon"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=2@1e3: time '1e3' must be seconds >= 0 after the app started, e.g. 2 or 2.5",
            error(List.of("2@1e3"), List.of(), List.of(), THREE), "no exponents, NaN or Infinity");
        assertEquals("--kill-at=2@1@2: must be NODE@SECONDS, e.g. --kill-at 2@1.5 (several: 1@2,2@2; the master: master@1.5)",
            error(List.of("2@1@2"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=2@86401: time 86401 must be at most 86400 seconds",
            error(List.of("2@86401"), List.of(), List.of(), THREE));
    }

    @Test
    void shouldRejectNodesThatAreNoLocalChildren() {
        assertEquals("--kill-at=3@2: no local child node 3; with --nodes 3 they are nodes 1 to 2",
            error(List.of("3@2"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=-1@2: no local child node -1; with --nodes 3 they are nodes 1 to 2",
            error(List.of("-1@2"), List.of(), List.of(), THREE));
        assertEquals("--kill-at=1@2: no local child node 1; with --nodes 1 there are none",
            error(List.of("1@2"), List.of(), List.of(), SiteLayout.single(1)));
        assertEquals("--kill-at=5@9: no local child node 5; with --nodes 3 they are nodes 1 to 2, and 3 to 4 join with "
            + "--join-at", error(List.of("5@9"), List.of(), List.of("2x2"), THREE));
    }

    @Test
    void shouldRejectNodeZeroWhichHostsTheRegistryAndPrintsTheAnswer() {
        assertEquals("--kill-at=0@2: node 0 is this process: it hosts the registry (unless --join) and prints the answer, "
            + "so it cannot be killed (surviving the registry's death is future work); the master is a child node: "
            + "--kill-at master@S kills it", error(List.of("0@2"), List.of(), List.of(), THREE));
        assertEquals("--kill-site=A@2: site A holds node 0, this process: it hosts the registry (unless --join) and prints "
            + "the answer, so it cannot be killed (surviving the registry's death is future work); the master is a child "
            + "node: --kill-at master@S kills it", error(List.of(), List.of("A@2"), List.of(), TWO_SITES));
    }

    /** The master is a child: killing it by its index or as {@code master} is the takeover scenario. */
    @Test
    void shouldKillTheMasterByNameOrIndex() {
        assertEquals(List.of(new StopNode(Stop.KILL, 1, 1500, "--kill-at 1@1.5"), new StopMaster(Stop.KILL, 2000, "--kill-at master@2"),
            new StopMaster(Stop.KILL, 9000, "--kill-at master@9")), parse(List.of("master@2,1@1.5", "master@9"), List.of(), List.of(),
                THREE).events());
        assertEquals("t=2.00 s: kill the master", parse(List.of("master@2"), List.of(), List.of(), THREE).describe());
        assertEquals("--kill-at=master@2: with --nodes 1 the master is node 0, this process (alone when the app starts), "
            + "and it hosts the registry (unless --join) and prints the answer, so it cannot be killed (surviving the "
            + "registry's death is future work)", error(List.of("master@2"), List.of(), List.of(), SiteLayout.single(1)));
        assertEquals("--kill-at=master@2: with --await the master may be a remote node, which this run cannot stop; name a "
            + "local child node instead", assertThrows(IllegalArgumentException.class,
                () -> FaultSchedule.parse(List.of("master@2"), List.of(), List.of(), THREE, 1)).getMessage());
        assertEquals("--kill-at=boss@2: node 'boss' must be the index of a local node (an integer) or master",
            error(List.of("boss@2"), List.of(), List.of(), THREE));
    }

    @Test
    void shouldKillASiteOfTheLayout() {
        assertEquals(List.of(new StopSite(Stop.KILL, "B", 2000, "--kill-site B@2")),
            parse(List.of(), List.of("B@2"), List.of(), TWO_SITES).events());
        assertEquals("--kill-site=C@2: no site C; the sites are A, B (--sites)",
            error(List.of(), List.of("C@2"), List.of(), TWO_SITES));
        assertEquals("--kill-site=B@2: no site B; the only site is default (--sites places nodes in several, e.g. A:2,B:2)",
            error(List.of(), List.of("B@2"), List.of(), THREE));
        assertEquals("--kill-site=B: must be SITE@SECONDS, e.g. --kill-site B@2",
            error(List.of(), List.of("B"), List.of(), TWO_SITES));
        assertEquals("--kill-site=B@x: time 'x' must be seconds >= 0 after the app started, e.g. 2 or 2.5",
            error(List.of(), List.of("B@x"), List.of(), TWO_SITES));
    }

    /** {@code --leave-at} and {@code --leave-site} take what the kill flags take, and are checked alike. */
    @Test
    void shouldParseGracefulLeavesLikeKills() {
        final FaultSchedule schedule = FaultSchedule.parse(List.of("1@1"), List.of(), List.of("2@2,master@3"),
            List.of("B@4"), List.of("0.5x2@B"), TWO_SITES, 0);
        assertEquals(List.of(new JoinNodes(4, 2, "B", 500, "--join-at 0.5x2@B"), new StopNode(Stop.KILL, 1, 1000, "--kill-at 1@1"),
            new StopNode(Stop.LEAVE, 2, 2000, "--leave-at 2@2"), new StopMaster(Stop.LEAVE, 3000, "--leave-at master@3"),
            new StopSite(Stop.LEAVE, "B", 4000, "--leave-site B@4")), schedule.events());
        assertEquals("t=0.50 s: start nodes 4 to 5 in site B; t=1.00 s: kill node 1; t=2.00 s: make leave node 2; "
            + "t=3.00 s: make leave the master; t=4.00 s: make leave site B", schedule.describe());
        assertEquals("--leave-at=0@2: node 0 is this process: it hosts the registry (unless --join) and prints the answer, "
            + "so it cannot be killed (surviving the registry's death is future work); the master is a child node: "
            + "--kill-at master@S kills it", assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse(
                List.of(), List.of(), List.of("0@2"), List.of(), List.of(), THREE, 0)).getMessage());
        assertEquals("--leave-at=2: must be NODE@SECONDS, e.g. --leave-at 2@1.5 (several: 1@2,2@2; the master: master@1.5)",
            assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse(List.of(), List.of(), List.of("2"),
                List.of(), List.of(), THREE, 0)).getMessage());
        assertEquals("--leave-site=A@2: site A holds node 0, this process: it hosts the registry (unless --join) and prints "
            + "the answer, so it cannot be killed (surviving the registry's death is future work); the master is a child "
            + "node: --kill-at master@S kills it", assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse(
                List.of(), List.of(), List.of(), List.of("A@2"), List.of(), TWO_SITES, 0)).getMessage());
        assertEquals("--leave-at=4@1: node 4 starts at t=2.00 s (--join-at 2), so it can be stopped only after that",
            assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse(List.of(), List.of(), List.of("4@1"),
                List.of(), List.of("2"), TWO_SITES, 0)).getMessage());
    }

    @Test
    void shouldNumberJoiningNodesOnInTheOrderTheyStart() {
        final FaultSchedule schedule = parse(List.of(), List.of(), List.of("5x2@A", "3"), TWO_SITES);
        assertEquals(List.of(new JoinNodes(4, 1, "B", 3000, "--join-at 3"), new JoinNodes(5, 2, "A", 5000, "--join-at 5x2@A")),
            schedule.events(), "the last site by default; numbered from --nodes on, by start time");
        assertEquals(3, schedule.joiningNodes());
        assertEquals("t=3.00 s: start node 4 in site B; t=5.00 s: start nodes 5 to 6 in site A", schedule.describe());
        assertEquals(List.of(new JoinNodes(3, 2, "default", 2500, "--join-at 2.5x2")),
            parse(List.of(), List.of(), List.of("2.5x2"), THREE).events());
    }

    @Test
    void shouldRejectMalformedJoins() {
        assertEquals("--join-at=: must be SECONDS[xCOUNT][@SITE], e.g. --join-at 3 or --join-at 3x2@B",
            error(List.of(), List.of(), List.of(""), THREE));
        assertEquals("--join-at=3x0: count 0 must be in [1, 1024]", error(List.of(), List.of(), List.of("3x0"), THREE));
        assertEquals("--join-at=3xtwo: count 'two' must be an integer in [1, 1024]",
            error(List.of(), List.of(), List.of("3xtwo"), THREE));
        assertEquals("--join-at=-3: time '-3' must be seconds >= 0 after the app started, e.g. 2 or 2.5",
            error(List.of(), List.of(), List.of("-3"), THREE));
        assertTrue(error(List.of(), List.of(), List.of("3@a b"), TWO_SITES).startsWith("--join-at=3@a b: site name 'a b' "),
            "a new site's name is checked as --sites checks it");
        assertEquals("--join-at=1x1000: with --nodes 3 and the nodes joining before, that makes more than 1024 local nodes",
            error(List.of(), List.of(), List.of("1x30", "1x1000"), THREE));
    }

    @Test
    void shouldKillAJoiningNodeOnlyAfterItStarted() {
        final FaultSchedule schedule = parse(List.of("3@4"), List.of(), List.of("2"), THREE);
        assertEquals(List.of(new JoinNodes(3, 1, "default", 2000, "--join-at 2"), new StopNode(Stop.KILL, 3, 4000, "--kill-at 3@4")),
            schedule.events());
        assertEquals("--kill-at=3@2: node 3 starts at t=2.00 s (--join-at 2), so it can be stopped only after that",
            error(List.of("3@2"), List.of(), List.of("2"), THREE));
    }

    /** A migration to another cluster: nodes join a site that --sites did not name, then an old site leaves. */
    @Test
    void shouldJoinANewSiteAndStopItOnlyAfterItStarted() {
        final FaultSchedule schedule = FaultSchedule.parse(List.of(), List.of(), List.of(), List.of("B@6"),
            List.of("3x2@C"), TWO_SITES, 0);
        assertEquals(List.of(new JoinNodes(4, 2, "C", 3000, "--join-at 3x2@C"),
            new StopSite(Stop.LEAVE, "B", 6000, "--leave-site B@6")), schedule.events());
        final FaultSchedule moveBack = FaultSchedule.parse(List.of(), List.of("C@5"), List.of(), List.of(),
            List.of("3x2@C"), TWO_SITES, 0);
        assertEquals(new StopSite(Stop.KILL, "C", 5000, "--kill-site C@5"), moveBack.events().get(1));
        final IllegalArgumentException early = assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse(
            List.of(), List.of("C@2"), List.of(), List.of(), List.of("3x2@C"), TWO_SITES, 0));
        assertEquals("--kill-site=C@2: site C starts at t=3.00 s (--join-at 3x2@C), so it can be stopped only after that",
            early.getMessage());
    }

    @Test
    void shouldKillBeforeJoiningAtTheSameTime() {
        final FaultSchedule schedule = parse(List.of(), List.of("B@3"), List.of("3@B"), TWO_SITES);
        assertInstanceOf(StopSite.class, schedule.events().get(0), "a site killed and joined at once is replaced");
        assertInstanceOf(JoinNodes.class, schedule.events().get(1));
    }

    /** Through the launcher: a usage error (exit 2) naming the flag, as every other option error. */
    @Test
    void shouldMakeBadValuesUsageErrorsOfTheRunCommand() {
        final RunCommand run = assertInstanceOf(RunCommand.class, Launcher.parse("run", "--nodes", "3", "--kill-at", "1@2,2@2.5",
            "--kill-at", "2@4", "--join-at", "3x2", "nqueens").command());
        assertEquals(4, run.faults().events().size());
        assertEquals("--kill-at=0@1: node 0 is this process: it hosts the registry (unless --join) and prints the answer, so "
            + "it cannot be killed (surviving the registry's death is future work); the master is a child node: --kill-at "
            + "master@S kills it", assertThrows(ParameterException.class,
                () -> Launcher.parse("run", "--nodes", "3", "--kill-at", "0@1", "nqueens")).getMessage());
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final int exit = Launcher.execute(new String[] {"run", "--nodes", "2", "--sites", "A:1,B:1", "--kill-site", "C@1",
            "nqueens"}, new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true,
                StandardCharsets.UTF_8));
        final String err = errBytes.toString(StandardCharsets.UTF_8);
        assertEquals(Launcher.EXIT_USAGE, exit, err);
        assertTrue(err.startsWith("--kill-site=C@1: no site C; the sites are A, B (--sites)") && err.contains("Usage: divvy run"),
            err);
        assertTrue(err.contains("--kill-at") && err.contains("--join-at"), "the usage lists the flags:\n" + err);
    }
}
