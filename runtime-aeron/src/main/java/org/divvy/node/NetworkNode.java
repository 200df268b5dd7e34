package org.divvy.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.divvy.NetworkStatistics;
import org.divvy.NodeConfig;
import org.divvy.RecoveryStatistics;
import org.divvy.agent.CodecThread;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.agent.DeepIdle;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.NetworkAgent;
import org.divvy.agent.NetworkService;
import org.divvy.agent.NodeIdleStrategy;
import org.divvy.agent.Outbound;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.extension.ExtensionContext;
import org.divvy.extension.NodeExtension;
import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.lifecycle.NodeLifecycle;
import org.divvy.mastership.Mastership;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipClient;
import org.divvy.membership.MembershipMessages;
import org.divvy.membership.Registry;
import org.divvy.membership.RootKeeper;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.recovery.Departure;
import org.divvy.recovery.Orphans;
import org.divvy.recovery.ResultCopies;
import org.divvy.results.ForeignJobs;
import org.divvy.results.GivenJobs;
import org.divvy.results.RemoteExceptions;
import org.divvy.scheduling.Scheduler;
import org.divvy.security.AuthenticationCounters;
import org.divvy.security.FrameAuthenticator;
import org.divvy.stealing.JobTypeRegistry;
import org.divvy.stealing.StealStrategy;
import org.divvy.stealing.Thief;
import org.divvy.stealing.Victim;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.ChunkFlyweight;
import org.divvy.transport.DatagramWait;
import org.divvy.transport.ReceiveGuardCounters;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.Transport;

/**
 * The network half of one node, assembled: its transport, membership (and the registry role when it
 * hosts it), stealing, results and aborts, and lifecycle, each registering its messages with one
 * {@link FrameDispatcher} and its duty with one {@link NetworkAgent}. This is the only class that knows
 * every mechanism; the agent knows none.
 *
 * <p>{@link #start()} runs the agent on its own thread; a test may instead step {@link #agent()} on its own
 * thread with a fake transport and clock. Application threads use {@link #lifecycle()}, {@link #statistics()},
 * the counters, {@link #announceRun()}, {@link #requestLeave()}, {@link #stopStealing()}, {@link #close()} and
 * {@link #crash()}; everything else ({@link #members()}, {@link #registry()}) belongs to the agent thread.
 */
public final class NetworkNode implements AutoCloseable {
    /** How long {@link #close()} waits for the LEAVE to be handed to the transport. */
    static final long LEAVE_TIMEOUT_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Then how long the driver gets to put it on the wire before it shuts down. */
    static final long LEAVE_FLUSH_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** How long a leave during a computation may take to hand over its kept results (unwinding included). */
    static final long HAND_OVER_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(4);

    private final NodeConfig config;
    private final ErrorHandler errorHandler;
    private final Transport transport;
    private final FrameCounters frameCounters;
    private final FrameDispatcher dispatcher;
    private final Members members;
    private final MembershipClient membership;
    private final Registry registry;
    private final NodeLifecycle lifecycle = new NodeLifecycle();
    private final LifecycleHandler lifecycleHandler;
    private final GivenJobs given;
    private final ForeignJobs foreign;
    private final Orphans orphans;
    private final Mastership mastership;
    private final Departure departure;
    private final ResultCopies copies;
    private final Thief thief;
    private final CodecThread codec;
    private final DeepIdle deepIdle;
    private final NetworkAgent agent;
    /** Mechanisms of other modules found on the class or module path (shared objects), one instance per node. */
    private final List<NodeExtension> extensions = new ArrayList<>();
    /** This node's shared-object table (the shared-data module), or null without it. */
    private final SharedObjectContext sharedObjectContext;
    /** Set once by {@link #start()}; read by application threads that wake the agent. */
    private volatile NetworkService service;

    private NetworkNode(final Builder b) {
        config = b.config;
        errorHandler = b.errorHandler;
        frameCounters = b.frameCounters != null ? b.frameCounters : new FrameCounters();
        transport = b.transport != null ? b.transport
            : new AeronTransport(config, new FrameValidator(frameCounters), new TrafficCounters(),
                FrameAuthenticator.of(config, MembershipMessages::isHandshakeType), this::onError);
        final CachedNanoClock cycleClock = new CachedNanoClock();
        members = new Members(config.site());
        final Outbound outbound = new Outbound(transport, members, transport.maxMessageBytes());
        dispatcher = new FrameDispatcher(frameCounters, members, this::onError);
        dispatcher.reserve(ChunkFlyweight.TYPE, "CHUNK");
        dispatcher.reserve(AeronTransport.PROBE_TYPE, "STREAM_PROBE");
        dispatcher.reserve(AeronTransport.CONTINUES_TYPE, "STREAM_CONTINUES");
        deepIdle = new DeepIdle(TimeUnit.MILLISECONDS.toNanos(config.deepIdleAfterMs()));

        codec = new CodecThread("divvy-codec-" + transport.endpoint(), this::onError);
        // with orphan saving, a dead node's work is recomputed once the survivors could announce what it left
        final long restartGraceNs = config.orphanSaving() ? Orphans.RESTART_GRACE_NS : 0;
        given = new GivenJobs(b.scheduler, members, outbound, codec, new RemoteExceptions(b.jobTypes.exceptionTypes()),
            restartGraceNs);
        // a result sent to an owner that crashes later is lost with it (it lives in the owner's frames) unless
        // kept here: with orphan saving, kept while the run lasts (bounded), so a dead owner's restarted jobs
        // reuse all the work others did for it; without, nothing kept is ever reused
        foreign = new ForeignJobs(b.scheduler, members, outbound, codec, Long.MAX_VALUE,
            config.orphanSaving() ? ForeignJobs.MAX_RETAINED_SENT : 0);
        orphans = new Orphans(b.scheduler, members, outbound, given, foreign, config.orphanSaving(),
            () -> lifecycle.terminationCodeOrNone() != NodeLifecycle.NO_CODE);
        b.scheduler.recoveryHook(orphans);
        departure = new Departure(members, outbound, foreign, orphans, b.jobTypes::get, frameCounters);
        final LifecycleHandler[] lifecycleRef = new LifecycleHandler[1]; // made below; result copies ask it which run is on
        copies = new ResultCopies(b.scheduler, members, outbound, orphans, b.jobTypes::get, frameCounters, cycleClock,
            config.resultCopyMinMs(), config.orphanSaving(), () -> lifecycle.terminationCodeOrNone() != NodeLifecycle.NO_CODE,
            () -> lifecycleRef[0].currentRunId(), runId -> lifecycleRef[0].isCurrentRun(runId));
        final StealStrategy strategy = StealStrategy.of(config.policy(), new Random(b.seed),
            TimeUnit.MILLISECONDS.toNanos(config.deepIdleStealBackoffMs()), TimeUnit.MILLISECONDS.toNanos(config.deepIdleVictimHoldMs()));
        // peers are asked for work only in a run: one announced to this node, or one whose job it holds (a job of
        // another node is work of a run, whether or not its announcement came)
        thief = new Thief(b.scheduler, members, outbound, strategy, foreign, orphans, b.jobTypes, lifecycle, deepIdle::isDeep,
            () -> deepIdle.isInRun() || !foreign.isEmpty(), cycleClock, codec);
        final Victim victim = new Victim(b.scheduler, given, orphans, outbound, codec,
            config.policy() == org.divvy.StealPolicy.LCRS ? Victim.LCRS_WIDE_AREA_MIN_QUEUED : 0);
        lifecycleHandler = new LifecycleHandler(lifecycle, members, outbound, () -> {
            foreign.onRunStarted();
            orphans.onRunStarted();
            copies.onRunStarted();
        }, thief::wake,
            foreign::cancelAll, deepIdle);
        registry = config.join() == null ? new Registry(config, outbound, transport.endpoint(), b.jobTypes.digest(),
            transport.endpointsAreUdpPorts()) : null;
        if (registry != null) {
            transport.useRunKey(registry.runKeyId());
        }
        final RootKeeper rootKeeper = registry == null ? null : new RootKeeper(registry, outbound, frameCounters);
        final MembershipClient[] client = new MembershipClient[1];
        mastership = new Mastership(b.scheduler, outbound, () -> client[0].registryEndpoint(), b.jobTypes, lifecycle,
            rootKeeper, this::announceRun, frameCounters, this::onError, restartGraceNs);
        // mastership first: it knows this node's id before the lifecycle tells application threads the node joined
        membership = new MembershipClient(config, transport.endpoint(), members, outbound,
            List.of(mastership, lifecycleHandler, thief, given, foreign, orphans, copies), b.jobTypes.digest(), transport::useRunKey);
        client[0] = membership;
        // messages lost between this node and a peer go to the registry as STREAM_LOST: handled as a failure
        transport.lossListener(membership);

        MembershipMessages.registerNode(dispatcher, membership, registry, cycleClock);
        victim.register(dispatcher);
        thief.register(dispatcher);
        given.register(dispatcher);
        foreign.register(dispatcher);
        orphans.register(dispatcher);
        departure.register(dispatcher);
        copies.register(dispatcher);
        lifecycleRef[0] = lifecycleHandler;
        lifecycleHandler.register(dispatcher);
        lifecycleHandler.whenRunEnds(copies::onRunEnded);
        mastership.register(dispatcher);

        final ExtensionContext extensionContext = new ExtensionContext(config, dispatcher, outbound, members, b.scheduler,
            this::onError, this::wakeAgent, codec);
        for (final NodeExtension extension : ServiceLoader.load(NodeExtension.class)) {
            extension.install(extensionContext);
            extensions.add(extension);
        }
        victim.sharedObjects(extensionContext.sharedObjectContext());
        thief.sharedObjects(extensionContext.sharedObjectContext());
        mastership.sharedObjects(extensionContext.sharedObjectContext());
        departure.sharedObjects(extensionContext.sharedObjectContext());
        copies.sharedObjects(extensionContext.sharedObjectContext());
        sharedObjectContext = extensionContext.sharedObjectContext();

        final Scheduler scheduler = b.scheduler;
        // In a run whose deep-idle park is the awake one (the default), a deep-idle agent retries a queued frame as often
        // as an awake one, so a frame waiting in a queue does not end deep idle there. It did: a deep-idle steal request
        // to a new victim waits for the new stream to connect, and every such wait woke the node for deepIdleAfterMs of
        // awake steals to random members every 10-20 ms, each a new stream again: 64 idle nodes of a run kept ~800
        // links and ~3,500 images in four drivers (perf/README.md, "64 replicas: idle nodes hold their victims").
        final boolean queuedRetriedAsAwakeInRuns = config.effectiveDeepIdleRunParkNs() <= NodeIdleStrategy.AWAKE_MAX_PARK_NS;
        final NetworkAgent.Builder agentBuilder = NetworkAgent.builder()
            .transport(transport)
            .clock(b.clock, cycleClock)
            .dispatcher(dispatcher)
            .deepIdle(deepIdle)
            .errorHandler(b.errorHandler)
            .codec(codec)
            .onStart(() -> membership.start(cycleClock.nanoTime()))
            // quiescent: joined, no work queued or running here, no job out on a thief or held for an owner,
            // nothing waiting in an outbound queue (a deep-idle agent would retry it only once per park; not in a
            // run whose deep-idle park is the awake one, see below), no large message partly received (a thief that
            // idled into deep idle while its job was on the way took 64 fragments per 100 ms park: a 100 MB job took
            // minutes)
            .quiescence(() -> lifecycle.isJoined() && scheduler.isOutOfWork() && given.isEmpty() && foreign.isEmpty() &&
                orphans.isEmpty() && (outbound.isIdle() || (queuedRetriedAsAwakeInRuns && deepIdle.isInRun())) &&
                !transport.isReceivingLargeMessage() && extensionContext.isQuiescent());
        if (registry != null) {
            agentBuilder.duty(registry);
        }
        for (final Duty duty : extensionContext.duties()) {
            agentBuilder.duty(duty);
        }
        agent = agentBuilder.duty(membership).duty(lifecycleHandler).duty(mastership).duty(foreign).duty(given).duty(orphans).duty(copies).duty(departure).duty(victim).duty(thief)
            .build();
    }

    /**
     * Errors of the transport (Aeron's asynchronous ones, a failed send) and of handlers count with the
     * agent's own; before the agent exists (while the transport starts) they go to the handler directly.
     */
    private void onError(final Throwable t) {
        final NetworkAgent a = agent;
        if (a != null) {
            a.onError(t);
        } else {
            errorHandler.onError(t);
        }
    }

    /** A node's network half for {@code config} on top of {@code scheduler}. */
    public static Builder builder(final NodeConfig config, final Scheduler scheduler) {
        return new Builder(config, scheduler);
    }

    /** Runs the agent on its own thread; the node starts joining at once. */
    public void start() {
        service = NetworkService.start(agent, new NodeIdleStrategy(deepIdle, NodeIdleStrategy.AWAKE_MAX_PARK_NS,
            config.effectiveDeepIdleParkNs(), config.effectiveDeepIdleRunParkNs(), transport.datagramWait()), agent::onError);
        codec.waker(service::wake);
        mastership.waker(service::wake);
    }

    /** Wakes the agent from an idle park; nothing before {@link #start()} (a stepped agent is not parked). */
    private void wakeAgent() {
        final NetworkService s = service;
        if (s != null) {
            s.wake();
        }
    }

    /** The installed extension of {@code type} (e.g. the shared-data module's), or null. */
    public <T extends NodeExtension> T extension(final Class<T> type) {
        for (final NodeExtension extension : extensions) {
            if (type.isInstance(extension)) {
                return type.cast(extension);
            }
        }
        return null;
    }

    /** This node's shared-object table, for roots this node sends (the shared-data module); null without it. */
    public SharedObjectContext sharedObjectContext() {
        return sharedObjectContext;
    }

    /** The statistics lines of the installed extensions, or an empty string. */
    public String extensionStatistics() {
        final StringBuilder text = new StringBuilder();
        for (final NodeExtension extension : extensions) {
            text.append(extension.statistics());
        }
        return text.toString();
    }

    /** The agent, to step it on a test's thread instead of {@link #start()}. */
    public NetworkAgent agent() {
        return agent;
    }

    /** Who runs roots: this node's side, and the registry's if this node hosts it. */
    public Mastership mastership() {
        return mastership;
    }

    /** Join, members and termination as application threads see them. */
    public NodeLifecycle lifecycle() {
        return lifecycle;
    }

    public String endpoint() {
        return transport.endpoint();
    }

    public String aeronDirectoryName() {
        return transport.aeronDirectoryName();
    }

    /** The member table; agent thread only (tests stepping the agent read it between cycles). */
    public Members members() {
        return members;
    }

    /** The registry role if this node hosts it, else null; agent thread only. */
    public Registry registry() {
        return registry;
    }

    /** The id of this run's frame key (tests: a forger that knows it); 0 before the join. */
    int runKeyId() {
        return membership.runKeyId();
    }

    /** Received frames dropped by authentication, per reason (all zero with a transport that does not authenticate). */
    public AuthenticationCounters authenticationCounters() {
        return transport.authenticationCounters();
    }

    public FrameCounters frameCounters() {
        return frameCounters;
    }

    public TrafficCounters traffic() {
        return transport.traffic();
    }

    /** What the agent's deep-idle park waits in so a datagram ends it (an embedded driver's socket), or null. */
    public DatagramWait datagramWait() {
        return transport.datagramWait();
    }

    /** What the embedded driver's receive guard refused, by reason, and the streams it receives; any thread. */
    public ReceiveGuardCounters receiveGuard() {
        return transport.receiveGuard();
    }

    /** Whether a run this node belongs to is active, as this node knows (its own, or a live peer's); any thread. */
    public boolean isInRun() {
        return deepIdle.isInRun();
    }

    /** RUN_STARTED messages received from peers. */
    public long runStartsReceived() {
        return lifecycleHandler.runStartsReceived();
    }

    /** Replies that came for no outstanding request, and results for no outstanding job (late or duplicate). */
    public long lateReplies() {
        return thief.lateReplies() + given.lateResults();
    }

    /**
     * A run starts on this node (any thread): peers are told at once, so deep-idle ones wake and steal
     * instead of noticing the new work only after their idle park and steal pause.
     */
    public void announceRun() {
        lifecycle.requestRunStarted();
        if (service != null) {
            service.wake();
        }
    }

    /**
     * A run {@link #announceRun announced} here ended (any thread): once none is left, peers are told (RUN_ENDED),
     * so their idle agents park the full deep-idle park again instead of the short one of a run.
     */
    public void runEnded() {
        lifecycle.runEnded();
        if (service != null) {
            service.wake();
        }
    }

    /**
     * Member {@code id}'s process has exited (any thread; see {@link Registry#reportExited}): the registry this
     * node hosts declares it dead in the agent's next cycle, or marks it LEFT if {@code afterLeaving} (see
     * {@link Registry#reportLeftAndExited}). Returns false, doing nothing, if this node does not host the registry.
     */
    public boolean reportMemberExited(final int id, final boolean afterLeaving) {
        if (registry == null) {
            return false;
        }
        if (afterLeaving) {
            registry.reportLeftAndExited(id);
        } else {
            registry.reportExited(id);
        }
        if (service != null) {
            service.wake();
        }
        return true;
    }

    /** Leaves the computation gracefully (any thread): the LEAVE goes out in the agent's next cycle. */
    public void requestLeave() {
        membership.requestLeave();
        if (service != null) {
            service.wake();
        }
    }

    /** Whether the LEAVE was handed to the transport. */
    public boolean hasLeft() {
        return membership.hasLeft();
    }

    /** Stops asking peers for work (the node is closing); steal requests from peers are still answered. */
    public void stopStealing() {
        thief.stopStealing();
    }

    /** A snapshot of this node's network counters since it started; any thread. */
    /**
     * The memory big messages travel in on this node (received frames, frames built to send, a link's copies), or
     * null with a transport that has none; its live bytes are 0 once no big message is under way or held. Any thread.
     */
    public OffHeapMemory offHeapMemory() {
        return transport.offHeapMemory();
    }

    public NetworkStatistics statistics() {
        final TrafficCounters traffic = transport.traffic();
        final long[] messages = new long[TrafficCounters.TYPE_CODES];
        final long[] bytes = new long[TrafficCounters.TYPE_CODES];
        for (int type = 1; type < TrafficCounters.TYPE_CODES; type++) {
            messages[type] = traffic.messagesSent(type);
            bytes[type] = traffic.bytesSent(type);
        }
        return new NetworkStatistics(thief.siteStealAttempts(), thief.siteSteals(), thief.wideAreaStealAttempts(),
            thief.wideAreaSteals(), given.jobsGiven(), foreign.remoteJobsRun(), messages, bytes, dispatcher.names(),
            agent.longestCycleNs(), agent.longestGapNs(), agent.longestCycleCpuNs(), agent.mostCycleCpuNs(),
            agent.mostCycleCpuAtNs(), transport.authenticationCounters().totalDropped(),
            frameCounters.totalDropped(), new RecoveryStatistics(given.jobsRestarted(), orphans.jobsKept(),
                orphans.announcements(), orphans.pairsReceived(), orphans.resultRequests(), foreign.heldResultsReturned(),
                orphans.copiedHere(), departure.resultsHandedOver(), departure.resultsTakenOver(),
                mastership.takeovers(), orphans.fingerprintMismatches(), copies.copiesSent(), copies.copiesKept(),
                copies.copiesAdopted(), copies.copiesDropped()), transport.authenticationCounters().lostInTransit.get(),
            membership.lossesReported(), registry == null ? 0 : registry.removedForLoss(), extensionStatistics());
    }

    /** Whether a job of this node is out on a thief or a job of a peer's runs here; agent thread only (tests). */
    boolean holdsRemoteWork() {
        return !given.isEmpty() || !foreign.isEmpty();
    }

    /** Whether the agent thread runs. */
    public boolean isRunning() {
        return service != null && service.isRunning();
    }

    /**
     * Leaves gracefully (bounded wait for the LEAVE to go out), stops the agent thread, which closes the
     * transport (the embedded driver deletes its directory), and cancels the jobs this node still ran for
     * owners, whose results can no longer be sent. Idempotent.
     */
    @Override
    public void close() {
        mastership.close();
        thief.stopStealing();
        if (service != null && service.isRunning()) {
            if (lifecycle.terminationCodeOrNone() == NodeLifecycle.NO_CODE) {
                handOverKeptResults();
            }
            leaveGracefully(membership, service);
        }
        crash();
    }

    /**
     * A graceful leave during a computation (thesis §3.5): the jobs run here for others become orphans, and
     * their finished parts, with every result kept here, go to a staying node before the LEAVE, which then
     * follows once they left this node (bounded waits: a leave never hangs on it).
     */
    private void handOverKeptResults() {
        departure.requestHandOver();
        service.wake();
        final long deadlineNs = System.nanoTime() + HAND_OVER_TIMEOUT_NS;
        while (!departure.isHandedOver() && System.nanoTime() - deadlineNs < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * Asks {@code membership} to leave and waits, bounded, until the LEAVE was handed to the transport and
     * then a little longer for the driver to put it on the wire; the agent must be running on {@code service}.
     */
    static void leaveGracefully(final MembershipClient membership, final NetworkService service) {
        membership.requestLeave();
        service.wake();
        final long deadlineNs = System.nanoTime() + LEAVE_TIMEOUT_NS;
        while (!membership.hasLeft() && System.nanoTime() - deadlineNs < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        final long flushUntilNs = System.nanoTime() + LEAVE_FLUSH_NS;
        while (System.nanoTime() - flushUntilNs < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * Stops the network as if the machine crashed: no LEAVE, peers declare the node dead after the
     * heartbeat timeout. The jobs it ran for peers are cancelled, as a real crash would have ended them.
     */
    public void crash() {
        mastership.close();
        thief.stopStealing();
        if (service != null) {
            service.close(); // the agent's onClose stops the codec thread, then its duties give back their frames
        } else {
            agent.onClose();
        }
        foreign.cancelAll(); // the agent thread has stopped: its table is safe to read here
    }

    /** The parts a node's network half is built from; all but the configuration and scheduler have defaults. */
    public static final class Builder {
        private final NodeConfig config;
        private final Scheduler scheduler;
        private Transport transport;
        private FrameCounters frameCounters;
        private NanoClock clock = new SystemNanoClock();
        private JobTypeRegistry jobTypes;
        private long seed = System.nanoTime();
        private ErrorHandler errorHandler = Throwable::printStackTrace;

        private Builder(final NodeConfig config, final Scheduler scheduler) {
            this.config = Objects.requireNonNull(config, "config");
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        }

        /**
         * A transport instead of an {@link AeronTransport} from the configuration (tests: an in-memory one), with
         * the counters its validator counts into.
         */
        public Builder transport(final Transport transport, final FrameCounters frameCounters) {
            this.transport = transport;
            this.frameCounters = frameCounters;
            return this;
        }

        public Builder clock(final NanoClock clock) {
            this.clock = clock;
            return this;
        }

        /** The job types stolen jobs may have; by default those the class path's providers declare. */
        public Builder jobTypes(final JobTypeRegistry jobTypes) {
            this.jobTypes = jobTypes;
            return this;
        }

        /** Seeds victim choice and backoff jitter. */
        public Builder seed(final long seed) {
            this.seed = seed;
            return this;
        }

        /** Receives every error the agent catches; must not throw. */
        public Builder errorHandler(final ErrorHandler errorHandler) {
            this.errorHandler = errorHandler;
            return this;
        }

        public NetworkNode build() {
            if (jobTypes == null) {
                jobTypes = JobTypeRegistry.load(null);
            }
            return new NetworkNode(this);
        }
    }
}
