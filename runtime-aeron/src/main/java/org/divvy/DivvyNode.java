package org.divvy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.divvy.agent.ErrorLog;
import org.divvy.checking.CodecCheck;
import org.divvy.lifecycle.NodeLifecycle;
import org.divvy.mastership.RootRuns;
import org.divvy.node.NetworkNode;
import org.divvy.scheduling.Scheduler;
import org.divvy.stealing.JobTypeRegistry;

/**
 * A running Divvy node: its worker threads and, when {@link NodeConfig#networked()} is true, its network
 * agent, which joins the other nodes and steals from them when this node runs out of work. Start one,
 * run root tasks on it one after another, close it.
 *
 * <pre>{@code
 * try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(4).build())) {
 *     RunResult<Long> r = node.run(() -> new Fib().fib(40));
 *     System.out.println(r.value() + "\n" + r.statistics());
 * }
 * }</pre>
 *
 * <p>Several nodes: the first hosts the registry ({@link NodeConfig#join()} null) and is node 0; the
 * others join it at its {@link #endpoint()}. The node that calls {@link #run} is the master of that run
 * (its root is never stolen); the others call {@link #awaitTermination()}, which returns when the
 * master {@link #terminate terminates} or {@link #close closes}.
 */
public final class DivvyNode implements AutoCloseable {
    /** How long {@link #terminate} waits for the TERMINATE broadcast to leave this node. */
    static final long TERMINATE_FLUSH_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);
    /** Slack on top of the join timeout for the agent thread to report the outcome. */
    static final long JOIN_REPORT_SLACK_NS = TimeUnit.SECONDS.toNanos(5);

    private static final System.Logger LOG = System.getLogger(DivvyNode.class.getName());

    private final NodeConfig config;
    private final Scheduler scheduler;
    /** The network half, or null for a single node. */
    private final NetworkNode network;
    private final int nodeId;
    private final String endpoint;
    private volatile boolean master;
    private boolean closed;

    /**
     * Closes a networked node when the JVM exits without {@link #close()} (Ctrl-C, SIGTERM): the node
     * leaves the others gracefully and its embedded driver deletes its Aeron directory, which would
     * otherwise stay in /dev/shm (tens of MiB each). Null for a single node, which holds nothing outside
     * the JVM.
     */
    private final Thread closeOnExit;

    private DivvyNode(final NodeConfig config, final Scheduler scheduler, final NetworkNode network, final int nodeId,
        final String endpoint) {
        this.config = config;
        this.scheduler = scheduler;
        this.network = network;
        this.nodeId = nodeId;
        this.endpoint = endpoint;
        if (network != null) {
            closeOnExit = new Thread(this::closeOnExit, "divvy-close-on-exit-" + nodeId);
            Runtime.getRuntime().addShutdownHook(closeOnExit);
            network.lifecycle().onLeaveOrder(() -> {
                final Thread leave = new Thread(this::leaveOnOrder, "divvy-leave-on-order-" + nodeId);
                leave.setDaemon(true);
                leave.start();
            });
        } else {
            closeOnExit = null;
        }
    }

    /**
     * Starts a node with {@code config}: its workers are running (and idle) when this returns. A networked
     * node returns once it joined; if it cannot join it throws {@link DivvyException} saying what to fix.
     */
    public static DivvyNode start(final NodeConfig config) {
        Objects.requireNonNull(config, "config");
        // the identity hash only tells the threads of several nodes in one JVM apart
        final String name = "divvy-" + Integer.toHexString(System.identityHashCode(new Object()));
        final CodecCheck codecCheck = config.checkCodecs() ? new CodecCheck(JobTypeRegistry.load(null)) : null;
        final Scheduler scheduler = new Scheduler(config, name, codecCheck);
        scheduler.start();
        if (!config.networked()) {
            return new DivvyNode(config, scheduler, null, 0, null);
        }
        NetworkNode network = null;
        try {
            checkAeronCanReachUnsafe();
            // A name that does not resolve fails here, in one line, not as a stack trace per join retry.
            resolve("bind", config.bind(), config.bind());
            if (config.join() != null) {
                resolve("join", config.join(), config.join().substring(0, config.join().lastIndexOf(':')));
            }
            network = NetworkNode.builder(config, scheduler)
                .seed(System.nanoTime() ^ ((long)name.hashCode() << 32))
                .errorHandler(new ErrorLog((line, first) -> LOG.log(System.Logger.Level.WARNING, line, first)))
                .build();
            network.start();
            final int id = network.lifecycle().awaitJoined(
                TimeUnit.MILLISECONDS.toNanos(config.joinTimeoutMs()) + JOIN_REPORT_SLACK_NS);
            if (codecCheck != null) {
                codecCheck.nodeId(id);
            }
            return new DivvyNode(config, scheduler, network, id, network.endpoint());
        } catch (final RuntimeException e) {
            if (network != null) {
                network.close();
            }
            scheduler.close();
            if (e instanceof DivvyException) {
                throw e;
            }
            throw new DivvyException("the node could not start its network at " + config.bind() + ":" + config.port() +
                ": " + e.getMessage(), e);
        }
    }

    /**
     * Aeron's Agrona reaches {@code jdk.internal.misc.Unsafe}, which Java 17 opens only on request: without the
     * JVM option the first buffer fails with a raw {@link IllegalAccessError} deep in Agrona. Said here, at start,
     * in one line naming the option and where it goes.
     */
    static void checkAeronCanReachUnsafe() {
        final Module agrona = org.agrona.BufferUtil.class.getModule();
        if (!Object.class.getModule().isExported("jdk.internal.misc", agrona)) {
            final String target = agrona.isNamed() ? agrona.getName() : "ALL-UNNAMED";
            throw new DivvyException("a networked node needs the JVM option --add-opens java.base/jdk.internal.misc="
                + target + " (Aeron's Agrona uses jdk.internal.misc.Unsafe): add it to the java command line (or, "
                + "for an executable jar, `Add-Opens: java.base/jdk.internal.misc` to its manifest); bin/divvy and "
                + "the Divvy jars carry it already");
        }
    }

    private static void resolve(final String setting, final String value, final String host) {
        try {
            InetAddress.getByName(host);
        } catch (final UnknownHostException e) {
            throw new DivvyException("cannot resolve host `" + host + "` of " + setting + "=" + value +
                ": check the name (or give an IP address)");
        }
    }

    /**
     * Runs {@code task} as the root invocation on a worker thread and blocks until it completes; spawns
     * made inside it run on all workers (and, networked, on other nodes). Returns the value, elapsed time
     * and statistics. Rethrows the root's exception: unchecked exceptions and errors as they are, checked
     * ones wrapped in {@link SpawnFailedException}. Runs on one node are serialised. A networked node
     * calling this becomes the master: closing it terminates the computation on every node.
     */
    public <T> RunResult<T> run(final RootTask<T> task) {
        if (network == null) {
            return scheduler.run(task);
        }
        master = true;
        final NetworkStatistics before = network.statistics();
        network.announceRun();
        final RunResult<T> result;
        try {
            result = scheduler.run(task);
        } finally {
            network.runEnded();
        }
        final NetworkStatistics during = network.statistics().minus(before);
        return new RunResult<>(result.value(), result.elapsedNs(), result.statistics().withNetwork(during));
    }

    /**
     * Runs {@code root} with this node as the master, as {@link #run(RootTask)} does. Networked, the registry
     * keeps a copy of the root: if this node dies during the run, the registry gives the root to another
     * node, which runs it again (reusing the finished work the others saved) and reports the value to the
     * registry ({@link #submit} gets it there; a standalone registry prints it and ends the computation).
     */
    public <T> RunResult<T> run(final Root<T> root) {
        Objects.requireNonNull(root, "root");
        if (network == null) {
            return scheduler.run(RootRuns.task(root.job()));
        }
        master = true;
        final NetworkStatistics before = network.statistics();
        final RunResult<T> result = network.mastership().runAsMaster(root.job(),
            writer -> root.encodeArguments(writer, network.sharedObjectContext()),
            () -> network.announceRun());
        final NetworkStatistics during = network.statistics().minus(before);
        return new RunResult<>(result.value(), result.elapsedNs(), result.statistics().withNetwork(during));
    }

    /**
     * Hands {@code root} to the registry, which chooses its master among the members (another node than this
     * one, unless this one is alone) and, whenever that master dies, a new one, which runs the root again
     * reusing the work the others saved; blocks until a master reports the value. This node works on the run
     * meanwhile like any other member; the caller ends the computation ({@link #terminate}) when it is done.
     * Throws {@link RemoteJobException} if the root failed, {@link DivvyException} if the registry is lost or
     * no member is left to run it.
     */
    public <T> RunReport<T> submit(final Root<T> root) {
        Objects.requireNonNull(root, "root");
        if (network == null) {
            throw new DivvyException("submit() needs a networked node: on a single node, run(root)");
        }
        return network.mastership().submit(root.job(), writer -> root.encodeArguments(writer, network.sharedObjectContext()));
    }

    /** This node's id: 0 for a single node and for the node hosting the registry. */
    public int nodeId() {
        return nodeId;
    }

    /**
     * The {@code host:port} this node is reached at; for the node hosting the registry it is the
     * address others pass to {@code --join}. Null for a single node.
     */
    public String endpoint() {
        return endpoint;
    }

    /** Blocks until {@code count} nodes (this one included) are alive; {@link DivvyException} on timeout. */
    public void awaitMembers(final int count, final Duration timeout) {
        if (network == null) {
            if (count > 1) {
                throw new DivvyException("only 1 of " + count + " nodes: this node is not networked (NodeConfig.networked)");
            }
            return;
        }
        network.lifecycle().awaitMembers(count, timeout);
    }

    /**
     * Worker nodes: blocks until the master ends the computation and returns its exit code, or until the registry
     * orders this node to leave ({@code divvy leave}): then it returns 0, {@link #isLeaveOrdered()} is true, and the
     * node is leaving gracefully already (as {@link #close()} does; closing waits for it). Throws {@link
     * DivvyException} if the registry is lost first.
     */
    public int awaitTermination() {
        if (network == null) {
            throw new DivvyException("awaitTermination() on a single node: only networked nodes wait for a master");
        }
        return network.lifecycle().awaitTermination();
    }

    /**
     * Asks the registry of a running computation to make members leave gracefully, as {@code divvy leave} does: each
     * leaves as {@link #close()} does (what it finished goes to a staying node, which the others reuse). The caller
     * needs no node: {@code config} gives the registry's address ({@code join}), the cluster secret and this
     * process's own address for the answer. Returns the registry's answer, a line per node ({@code node 2: asked to
     * leave (127.0.0.1:40001)}, or why not); throws {@link DivvyException} when no answer comes within {@code
     * config.joinTimeoutMs()}, saying what to check.
     */
    public static String askToLeave(final NodeConfig config, final int... nodeIds) {
        return org.divvy.membership.LeaveRequester.request(config, nodeIds, config.joinTimeoutMs());
    }

    /** Whether the registry ordered this node to leave ({@code divvy leave}); false for a single node. */
    public boolean isLeaveOrdered() {
        return network != null && network.lifecycle().isLeaveOrdered();
    }

    /**
     * Tells the registry this node hosts that member {@code memberId}'s process has exited, as the process that
     * started it learns from the operating system at once ({@link Process#onExit()}): the registry declares it
     * dead now, and the others start recovering its work, instead of after the failure detector's wait for
     * silence (seconds). Call it only for a process known to have ended; a member that left or was declared
     * dead already is not changed. {@code afterLeaving}: the process ended after it was asked to leave gracefully
     * (or normally mid-run, which only a leave does), so its LEAVE may still be on its way: it is marked as having
     * left, not dead. Returns false, doing nothing, if this node does not host the registry (a single node, or a
     * node that joined another's).
     */
    public boolean reportMemberExited(final int memberId, final boolean afterLeaving) {
        return network != null && network.reportMemberExited(memberId, afterLeaving);
    }

    /** Tells every node the computation is over with {@code exitCode} (waits briefly until the message left). */
    public void terminate(final int exitCode) {
        if (network == null) {
            return;
        }
        final NodeLifecycle lifecycle = network.lifecycle();
        lifecycle.requestTerminate(exitCode);
        network.stopStealing();
        if (!lifecycle.awaitTerminateFlushed(TERMINATE_FLUSH_TIMEOUT_NS)) {
            LOG.log(System.Logger.Level.WARNING, "TERMINATE was not sent within " +
                TimeUnit.NANOSECONDS.toMillis(TERMINATE_FLUSH_TIMEOUT_NS) + " ms");
        }
    }

    /** The node's network counters since it started, or null for a single node. */
    public NetworkStatistics networkStatistics() {
        return network == null ? null : network.statistics();
    }

    /**
     * Jobs spawned, executed and cancelled on this node's workers since it started, for every run and for
     * the jobs it ran for other nodes: {@code "spawned S, executed E, cancelled C"}. Exact once the node is idle.
     */
    public String jobCounts() {
        final long[] c = scheduler.jobCountsSinceStart();
        return "spawned " + c[0] + ", executed " + c[1] + ", cancelled " + c[2];
    }

    /** The configuration this node runs with. */
    public NodeConfig config() {
        return config;
    }

    /**
     * Stops the node: a master that has not terminated yet terminates with 0; then the node leaves the
     * others gracefully (during a computation, the jobs it runs for others become orphans and what they
     * finished, with every result it kept, goes to a staying node, which announces it for reuse: thesis
     * §3.5; the others then recompute the rest as after a crash), stops its agent (deleting its embedded driver's Aeron directory), cancels the jobs it still
     * ran for other nodes and stops its workers. A run under way on this node is cancelled (its jobs stop at
     * their next spawn or sync, and {@link #run} throws {@link DivvyException}). Idempotent.
     */
    @Override
    public void close() {
        close(true);
    }

    /**
     * The registry ordered this node out ({@code divvy leave}): it leaves as {@link #close()} does, except that a
     * node running a run of its own does not end the computation for everyone (its run is cancelled; the registry
     * keeps a {@code Root}'s run for a new master, and refuses to order out a node that waits for one).
     */
    private void leaveOnOrder() {
        try {
            close(false);
        } catch (final RuntimeException e) {
            System.err.println("divvy: node " + nodeId + " leaving on the registry's order: " + e.getMessage());
        }
    }

    private synchronized void close(final boolean terminateIfMaster) {
        if (closed) {
            return;
        }
        closed = true;
        if (closeOnExit != null && Thread.currentThread() != closeOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(closeOnExit);
            } catch (final IllegalStateException exiting) {
                // the JVM is exiting: the hook is about to run and will find the node closed
            }
        }
        if (network != null) {
            if (terminateIfMaster && master && network.lifecycle().terminationCodeOrNone() == NodeLifecycle.NO_CODE) {
                terminate(0);
            }
            // LEAVE (owners of jobs still running here see this node leave), then the jobs run for them stop
            network.close();
        }
        scheduler.close();
    }

    /** On JVM exit (Ctrl-C, SIGTERM): closes, and says in one line what could not stop, without a trace. */
    private void closeOnExit() {
        try {
            close();
        } catch (final RuntimeException e) {
            System.err.println("divvy: closing node " + nodeId + " on exit: " + e.getMessage());
        }
    }

    /** Tests: this node's network half, or null for a single node. */
    NetworkNode networkForTest() {
        return network;
    }

    /** Tests: the Aeron directory of this node's driver (its own embedded one unless configured). */
    String aeronDirectoryForTest() {
        return network.aeronDirectoryName();
    }

    /**
     * Tests: the network stops as if the machine crashed (no LEAVE, peers declare it dead after the
     * heartbeat timeout); the jobs it ran for peers are cancelled so that {@link #close()} can stop the
     * workers, as a real crash would have ended them.
     */
    void crashForTest() {
        network.crash();
    }
}
