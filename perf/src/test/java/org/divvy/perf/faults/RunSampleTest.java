package org.divvy.perf.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The parser of {@code divvy run}'s output and the harness's small rules, on lines as the launcher prints them. */
class RunSampleTest {
    private static final List<String> OUTPUT = List.of(
        "divvy run: the registry gives the root to node 6 (pid 5658, site C, node id 1): the member with the lowest node id other than node 0; if it dies, to the next",
        "fib [divvy, 9 nodes, 1 workers per local node, CRS]: fib(30) = 832040 (2692537 calls, threshold 16) -- SIMULATED WORK: each leaf parked 20000 us instead of computing",
        "PASS: equals fib(30) by iteration (832040)",
        "wall time: 6.701 s",
        "master: node 3 (pid 5660, site B, node id 2); takeovers: 1",
        "node 0's jobs since it started: spawned 374, executed 361, cancelled 0",
        "node 0's network statistics during the run:",
        "remote steals: site 0/0, wide-area 16/42; jobs given 11, run for peers 16",
        "  recovery: jobs restarted 0; orphans kept 4, announced in 2 broadcasts; pairs received 30; reused 3 (asked 2, held here 1); held results returned 3; handed over on leaving 0, taken over 0; master takeovers 0",
        "[node 8] node id 4 jobs since it joined: spawned 514, executed 496, cancelled 0",
        "[node 8] node id 4 since it joined: remote steals: site 6/39, wide-area 7/34; jobs given 17, run for peers 13",
        "[node 8]   recovery: jobs restarted 2; orphans kept 5, announced in 1 broadcasts; pairs received 4; reused 2 (asked 2, held here 0); held results returned 1; handed over on leaving 0, taken over 7; master takeovers 1",
        "[node 4] node id 5 left the running computation (SIGTERM): handed 12 finished result(s) over to a staying node",
        "[node 5] node id 6 left the running computation (SIGTERM): handed 3 finished result(s) over to a staying node");

    @Test
    void sumsTheCountersOfEveryNodeThatPrintedThem() {
        final RunSample s = RunSample.parse(OUTPUT);
        assertTrue(s.passed());
        assertEquals(6.701, s.wallSeconds(), 1e-9);
        assertEquals("C", s.firstMasterSite());
        assertEquals("B", s.finalMasterSite());
        assertEquals(1, s.takeovers());
        assertEquals(374 + 514, s.jobsSpawned());
        assertEquals(16 + 6 + 7, s.jobsStolen());
        assertEquals(2, s.jobsRestarted());
        assertEquals(9, s.orphansKept());
        assertEquals(3, s.broadcasts());
        assertEquals(34, s.pairsReceived());
        assertEquals(4, s.resultRequests());
        assertEquals(4, s.heldReturned());
        assertEquals(1, s.copiedHere());
        assertEquals(5, s.reused());
        assertEquals(15, s.handedOver());
        assertEquals(7, s.takenOver());
    }

    @Test
    void noPassLineIsNotPassed() {
        assertFalse(RunSample.parse(List.of("FAIL: fib(30) = 1, expected 832040", "wall time: 1.0 s")).passed());
    }

    @Test
    void killsTheMastersSiteOrTheLastOtherOne() {
        assertEquals("C", DivvyRunProcess.siteToKill(Scenario.Fault.KILL_MASTER_SITE, "C", 4));
        assertEquals("D", DivvyRunProcess.siteToKill(Scenario.Fault.KILL_OTHER_SITE, "C", 4));
        assertEquals("C", DivvyRunProcess.siteToKill(Scenario.Fault.KILL_OTHER_SITE, "D", 4));
        assertEquals("D", DivvyRunProcess.siteToKill(Scenario.Fault.LEAVE_OTHER_SITE, "A", 4));
        assertEquals("C", DivvyRunProcess.siteToKill(Scenario.Fault.MIGRATE_OTHER_SITE, "D", 4));
    }

    @Test
    void fibLeavesBelowTheThreshold() {
        assertEquals(1, FaultsMain.Settings.leaves(15, 16));
        assertEquals(2, FaultsMain.Settings.leaves(16, 16));
        assertEquals(1597, FaultsMain.Settings.leaves(30, 16));
        assertEquals(4181, FaultsMain.Settings.leaves(32, 16));
    }

    @Test
    void scenariosPutNodeZeroAloneInSiteR() {
        assertEquals("R:1,A:2,B:2,C:2,D:2", Scenario.named("4sites").sitesFlag(2));
        assertEquals(9, Scenario.named("4sites").nodes(2));
        assertEquals("R:1,A:2,B:2,C:2", Scenario.named("3sites").sitesFlag(2));
    }
}
