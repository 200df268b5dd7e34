package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.divvy.codegen.Spawns;
import org.divvy.stealing.TestJobs;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Several networked nodes in one JVM over real UDP on 127.0.0.1, sharing one embedded driver: results
 * are correct, steals really happen, exceptions and aborts cross nodes, a crashed or departed thief's job is
 * computed again by its owner.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DistributedNodeTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    private NodeConfig.Builder settings(final StealPolicy policy, final long acceptablePauseMs) {
        return cluster.nodeSettings().policy(policy).acceptableHeartbeatPauseMs(acceptablePauseMs);
    }

    /** Node 0 (the master, hosting the registry) and the others joined; {@code sites[i]} is node i's site. */
    private List<DivvyNode> startOnSites(final StealPolicy policy, final long acceptablePauseMs, final String... sites) {
        return cluster.startJoined(sites.length, i -> settings(policy, acceptablePauseMs).site(sites[i]));
    }

    @ParameterizedTest(name = "{0} on sites {1}")
    @CsvSource({"RS, A A", "RS, A A B B", "CRS, A B", "CRS, A A B B", "LCRS, A A B B"})
    void shouldComputeFibOnSeveralNodesWithRemoteSteals(final StealPolicy policy, final String sites) {
        final List<DivvyNode> nodes = startOnSites(policy, 3000, sites.split(" "));
        final DivvyNode master = nodes.get(0);
        assertEquals(0, master.nodeId());
        // about 1,600 leaves of 1 ms each: long enough that a thief woken by RUN_STARTED steals even on a slow, busy CI machine
        final RunResult<Long> result = master.run(() -> new TestJobs.Fib(12, 1000).fib(27));
        assertEquals(TestJobs.Fib.sequential(27), result.value());
        System.out.println(policy + " on sites " + sites + ", the master's statistics:\n" + result.statistics());

        long stolen = 0;
        long ranForPeers = 0;
        final StringBuilder perNode = new StringBuilder();
        for (final DivvyNode node : nodes) {
            stolen += node.networkStatistics().remoteSteals();
            ranForPeers += node.networkStatistics().remoteJobsRun();
            perNode.append("node ").append(node.nodeId()).append(": ").append(node.networkStatistics()).append('\n');
        }
        assertTrue(stolen > 0, "remote steals happened; per node:\n" + perNode);
        assertTrue(ranForPeers > 0, "stolen jobs ran and returned results");
        assertTrue(result.statistics().network() != null);
        assertTrue(result.statistics().network().jobsGiven() > 0, "the master gave jobs away:\n" + result.statistics());
        assertTrue(result.statistics().messagesSent(org.divvy.stealing.StealReplyFlyweight.TYPE) > 0);
        if (policy != StealPolicy.RS && sites.contains("B")) {
            long wideArea = 0;
            long wideAreaSteals = 0;
            for (final DivvyNode node : nodes) {
                wideArea += node.networkStatistics().wideAreaStealAttempts();
                wideAreaSteals += node.networkStatistics().wideAreaSteals();
            }
            assertTrue(wideArea > 0, policy + " sends wide-area requests across sites");
            assertTrue(wideAreaSteals > 0, policy + ": jobs crossed sites (an LCRS victim with two or more queued gives one)\n" + perNode);
        }

        // the master ends the computation; every other node learns the exit code
        master.close();
        for (int i = 1; i < nodes.size(); i++) {
            assertEquals(0, nodes.get(i).awaitTermination());
        }
    }

    @Test
    void shouldRethrowAStandardExceptionOfARemoteJobAsItsOwnClassAtTheMastersSync() {
        final DivvyNode master = startOnSites(StealPolicy.RS, 3000, "A", "A").get(0);
        final RunResult<String> caught = master.run(() -> {
            final LongSpawn remote = TestJobs.spawnWork(50, "boom on the thief"); // oldest: stolen
            final LongSpawn local = TestJobs.spawnWork(3000, "");                 // newest: the master runs it
            try {
                Spawns.sync();
                return "no exception";
            } catch (final IllegalStateException e) { // as on one node: the program catches its own class
                final RemoteJobException report = assertInstanceOf(RemoteJobException.class, e.getCause());
                assertEquals(IllegalStateException.class.getName(), report.remoteClassName());
                assertEquals(1, report.nodeId());
                assertTrue(e.getStackTrace().length > 0 && e.getStackTrace()[0].getMethodName().equals("work") &&
                    e.getStackTrace()[0].getClassName().endsWith("TestJobs"), java.util.Arrays.toString(e.getStackTrace()));
                return e.getMessage() + " | " + report.getMessage();
            }
        });
        assertTrue(caught.value().startsWith("boom on the thief | "), caught.value());
        assertTrue(caught.value().contains("node 1"), caught.value());
    }

    /** Issue 7: "a job that cannot be encoded stays local and runs there; it is never lost". */
    @Test
    void aJobWhoseArgumentsCannotBeEncodedShouldStayOnItsNodeAndRunThere() {
        final List<DivvyNode> nodes = startOnSites(StealPolicy.RS, 3000, "A", "A");
        final DivvyNode master = nodes.get(0);
        final long encodesBefore = TestJobs.UNENCODABLE_ENCODES.get();
        final RunResult<Long> result = master.run(() -> {
            final LongSpawn first = TestJobs.spawnUnencodable(200);  // oldest: what the thief asks for
            final LongSpawn second = TestJobs.spawnUnencodable(300);
            final LongSpawn local = TestJobs.spawnWork(2000, "");   // newest: the master runs it meanwhile
            Spawns.sync();
            return first.get() + second.get() + local.get();
        });
        assertEquals(2500L, result.value(), "both ran to their end, here");
        assertTrue(TestJobs.UNENCODABLE_ENCODES.get() > encodesBefore, "the thief asked for them and the master tried "
            + "to encode one:\n" + result.statistics());
        assertEquals(0, result.statistics().network().jobsGiven(), result.statistics().toString());
        assertEquals(0, nodes.get(1).networkStatistics().remoteJobsRun(), nodes.get(1).networkStatistics().toString());
    }

    @Test
    void shouldRethrowAtTheMastersSyncTheUnsyncedSpawnOfAJobThatRanOnAnotherNode() {
        final DivvyNode master = startOnSites(StealPolicy.RS, 3000, "A", "A").get(0);
        final RunResult<String> caught = master.run(() -> {
            final LongSpawn remote = TestJobs.spawnForgetful(50); // oldest: stolen; returns without syncing its child
            final LongSpawn local = TestJobs.spawnWork(3000, ""); // newest: the master runs it
            try {
                Spawns.sync();
                return "no exception";
            } catch (final UnsyncedSpawnException e) { // as on one node: its own class
                final RemoteJobException report = assertInstanceOf(RemoteJobException.class, e.getCause());
                assertEquals(1, report.nodeId());
                return e.getMessage();
            }
        });
        assertTrue(caught.value().startsWith("`forgetful` returned with 1 child spawned after its last sync() and never "
            + "synced"), caught.value());
    }

    @Test
    void shouldRunInletsOfRemoteChildrenOnTheParentsNode() {
        final DivvyNode master = startOnSites(StealPolicy.RS, 3000, "A", "A").get(0);
        final long[] value = new long[1];
        final Throwable[] failure = new Throwable[1];
        final Thread[] inletThreads = new Thread[2];
        final RunResult<Long> result = master.run(() -> {
            final Thread parentThread = Thread.currentThread();
            final LongSpawn ok = TestJobs.spawnWork(40, "").onResult(v -> {
                value[0] = v;
                inletThreads[0] = parentThread == Thread.currentThread() ? parentThread : null;
            });
            final LongSpawn bad = TestJobs.spawnWork(60, "caught by an inlet");
            bad.onFailure(t -> {
                failure[0] = t;
                inletThreads[1] = parentThread == Thread.currentThread() ? parentThread : null;
            });
            final LongSpawn local = TestJobs.spawnWork(1500, ""); // newest: the master runs it
            Spawns.sync();
            return ok.get() + local.get();
        });
        assertEquals(1540L, result.value());
        assertTrue(result.statistics().network().jobsGiven() >= 2, "both short children were stolen:\n" + result.statistics());
        assertEquals(40L, value[0]);
        // the inlet gets the child's own exception class, as on one node; the cause names the remote node
        final IllegalStateException remote = assertInstanceOf(IllegalStateException.class, failure[0]);
        assertEquals("caught by an inlet", remote.getMessage());
        assertEquals("caught by an inlet", assertInstanceOf(RemoteJobException.class, remote.getCause()).remoteMessage());
        assertTrue(inletThreads[0] != null && inletThreads[1] != null, "inlets ran on the parent's thread");
    }

    @Test
    void shouldAbortARemoteChildWhenASiblingFails() {
        final List<DivvyNode> nodes = startOnSites(StealPolicy.RS, 3000, "A", "A");
        final DivvyNode master = nodes.get(0);
        final long startNs = System.nanoTime();
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> master.run(() -> {
            final LongSpawn remote = TestJobs.spawnWork(30_000, "");        // stolen; would run 30 s
            // the master runs it and fails; 2.5 s leave the idle thief time to steal the other one first
            final LongSpawn local = TestJobs.spawnWork(2500, "local failure");
            Spawns.sync();
            return remote.get() + local.get();
        }));
        assertEquals("local failure", thrown.getMessage());
        final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertTrue(elapsedMs < 10_000, "the run ended without waiting for the remote child: " + elapsedMs + " ms");
        assertTrue(master.networkStatistics().jobsGiven() > 0, "the long child was stolen");
        // the master sends ABORT; the thief's child stops and reports ABORTED, so its worker is free again
        final DivvyNode thief = nodes.get(1);
        Await.within(Duration.ofSeconds(10)).until(() -> master.networkStatistics().messagesSent(
            org.divvy.results.AbortFlyweight.TYPE) > 0 && thief.networkStatistics().remoteJobsRun() > 0,
            "ABORT sent and the remote child stopped");
        assertTrue(thief.networkStatistics().messagesSent(org.divvy.results.JobResultFlyweight.TYPE) > 0);
    }

    @Test
    void shouldRecomputeHereAJobWhoseThiefCrashes() throws Exception {
        final List<DivvyNode> nodes = startOnSites(StealPolicy.RS, 300, "A", "B");
        final DivvyNode master = nodes.get(0);
        final DivvyNode thief = nodes.get(1);
        final CompletableFuture<RunResult<Long>> run = CompletableFuture.supplyAsync(() -> master.run(() -> {
            final LongSpawn remote = TestJobs.spawnWork(3_000, ""); // stolen, then its thief crashes
            // long enough for the thief to steal the other one on a loaded machine (it runs first: LIFO)
            final LongSpawn local = TestJobs.spawnWork(1_000, "");
            Spawns.sync();
            return remote.get() + local.get();
        }));
        Await.within(Duration.ofSeconds(15)).until(() -> master.networkStatistics().jobsGiven() > 0, "the long child was stolen");
        thief.crashForTest();
        final RunResult<Long> result = run.get(30, TimeUnit.SECONDS);
        assertEquals(4_000L, result.value(), "the lost job was computed again on the master");
        assertEquals(1, result.statistics().network().recovery().jobsRestarted(), result.statistics().toString());
    }

    @Test
    void shouldRecomputeHereAJobWhoseThiefLeavesMidRun() throws Exception {
        final List<DivvyNode> nodes = startOnSites(StealPolicy.RS, 3000, "A", "A");
        final DivvyNode master = nodes.get(0);
        final DivvyNode thief = nodes.get(1);
        final CompletableFuture<RunResult<Long>> run = CompletableFuture.supplyAsync(() -> master.run(() -> {
            final LongSpawn remote = TestJobs.spawnWork(3_000, "");
            final LongSpawn local = TestJobs.spawnWork(1_000, ""); // as above: time for the thief to steal
            Spawns.sync();
            return remote.get() + local.get();
        }));
        Await.within(Duration.ofSeconds(15)).until(() -> master.networkStatistics().jobsGiven() > 0, "the long child was stolen");
        thief.close(); // leaves gracefully; the job it ran for the master is cancelled
        assertEquals(0, thief.networkStatistics().remoteJobsRun(), "close did not wait for the job: no outcome of it went out");
        final RunResult<Long> result = run.get(30, TimeUnit.SECONDS);
        assertEquals(4_000L, result.value());
        assertEquals(1, result.statistics().network().recovery().jobsRestarted(), result.statistics().toString());
    }

    @Test
    void shouldLeaveNoThreadsAndNoAeronDirectoriesWithEmbeddedDrivers() throws Exception {
        final NodeConfig.Builder config = NodeConfig.builder().workers(1).networked(true).termLengthBytes(64 * 1024)
            .heartbeatIntervalMs(100);
        final DivvyNode master = DivvyNode.start(config.build());
        final DivvyNode worker;
        try {
            worker = DivvyNode.start(config.join(master.endpoint()).build());
        } catch (final RuntimeException e) {
            master.close();
            throw e;
        }
        final String masterDir = master.aeronDirectoryForTest();
        final String workerDir = worker.aeronDirectoryForTest();
        final String workerEndpoint = worker.endpoint();
        try {
            master.awaitMembers(2, Duration.ofSeconds(15));
            assertTrue(new java.io.File(masterDir).isDirectory() && new java.io.File(workerDir).isDirectory());
            assertEquals(TestJobs.Fib.sequential(20), master.run(() -> new TestJobs.Fib(10, 200).fib(20)).value());
            final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(worker::awaitTermination);
            master.terminate(3);
            assertEquals(3, exit.get(10, TimeUnit.SECONDS));
        } finally {
            master.close();
            worker.close();
        }
        assertTrue(!new java.io.File(masterDir).exists() && !new java.io.File(workerDir).exists(), "Aeron directories deleted");
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            assertTrue(!t.getName().equals("divvy-network-" + workerEndpoint) && !t.getName().equals("divvy-network-" +
                master.endpoint()), "network thread stopped: " + t.getName());
        }
    }

    @Test
    void aBusyNodeShouldSendNoStealRequestsAndAnIdleOneFew() {
        final List<DivvyNode> nodes = startOnSites(StealPolicy.RS, 3000, "A", "A");
        final DivvyNode master = nodes.get(0);
        final DivvyNode idle = nodes.get(1);
        final long idleBefore = idle.networkStatistics().messagesSent(org.divvy.stealing.StealRequestFlyweight.TYPE);
        final long startNs = System.nanoTime();
        // one long leaf: the master's only worker is busy, and it has nothing to give away
        final RunResult<Long> busy = master.run(() -> TestJobs.work(1000, ""));
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        assertEquals(1000L, busy.value());
        assertTrue(busy.statistics().siteStealAttempts() + busy.statistics().wideAreaStealAttempts() <= 1,
            "a busy node sends no steal requests (at most one as the run ends):\n" + busy.statistics());
        final long idleRequests = idle.networkStatistics().messagesSent(org.divvy.stealing.StealRequestFlyweight.TYPE) -
            idleBefore;
        assertTrue(idleRequests > 0, "an idle node keeps asking");
        assertTrue(idleRequests / seconds <= 150, "an idle node's steal traffic stays modest: " + idleRequests +
            " requests in " + seconds + " s");
    }

    @Test
    void awaitTerminationShouldThrowWhenTheRegistryIsLost() {
        final List<DivvyNode> nodes = startOnSites(StealPolicy.RS, 300, "A", "A");
        nodes.get(0).crashForTest(); // node 0 hosts the registry
        final DivvyException e = assertThrows(DivvyException.class, () -> nodes.get(1).awaitTermination());
        assertTrue(e.getMessage().contains("registry") && e.getMessage().contains("silent"), e.getMessage());
    }

    @Test
    void awaitTerminationShouldThrowWhenTheMasterCrashesBesideAStandaloneRegistry() {
        final org.divvy.membership.StandaloneRegistry registry = org.divvy.membership.StandaloneRegistry.launch(
            cluster.driverSettings().heartbeatIntervalMs(100).acceptableHeartbeatPauseMs(300).build(),
            new org.agrona.concurrent.SystemNanoClock(), Throwable::printStackTrace);
        final org.agrona.concurrent.AgentRunner runner = new org.agrona.concurrent.AgentRunner(
            new org.agrona.concurrent.SleepingMillisIdleStrategy(1), Throwable::printStackTrace, null, registry);
        org.agrona.concurrent.AgentRunner.startOnThread(runner);
        try {
            final DivvyNode master = cluster.start(settings(StealPolicy.RS, 300).site("A").join(registry.endpoint()));
            final DivvyNode worker = cluster.start(settings(StealPolicy.RS, 300).site("A").join(registry.endpoint()));
            worker.awaitMembers(2, Duration.ofSeconds(15));
            assertEquals(1L, master.run(() -> 1L).value());
            master.crashForTest();
            final DivvyException e = assertThrows(DivvyException.class, worker::awaitTermination);
            assertTrue(e.getMessage().contains("every other node died or left"), e.getMessage());
        } finally {
            runner.close();
        }
    }

    @Test
    void shouldFailToJoinAnUnreachableRegistryWithAClearMessage() {
        final NodeConfig config = cluster.driverSettings().workers(1).join("127.0.0.1:9").joinTimeoutMs(500).build();
        final DivvyException e = assertThrows(DivvyException.class, () -> DivvyNode.start(config));
        assertTrue(e.getMessage().contains("127.0.0.1:9") && e.getMessage().contains("--join"), e.getMessage());
    }

    @Test
    void shouldRejectAnUnresolvableJoinHostInOneLine() {
        // the message is the resolution check's, which runs before any JOIN: no join timeout is waited for
        final DivvyException e = assertThrows(DivvyException.class, () -> DivvyNode.start(cluster.driverSettings().workers(1)
            .join("notahost.invalid:40000").build()));
        assertEquals("cannot resolve host `notahost.invalid` of join=notahost.invalid:40000: check the name (or give an IP " +
            "address)", e.getMessage());
    }

    @Test
    void shouldReportTooFewMembers() {
        final DivvyNode master = cluster.start(settings(StealPolicy.CRS, 3000).site("A"));
        final DivvyException e = assertThrows(DivvyException.class, () -> master.awaitMembers(3, Duration.ofMillis(300)));
        assertEquals("only 1 of 3 nodes joined within 300 ms", e.getMessage());
    }
}
