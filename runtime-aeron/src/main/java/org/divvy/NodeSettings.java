package org.divvy;

import static org.divvy.SettingCheck.any;
import static org.divvy.SettingCheck.atLeast;
import static org.divvy.SettingCheck.greaterThan;
import static org.divvy.SettingCheck.host;
import static org.divvy.SettingCheck.hostPortOrNone;
import static org.divvy.SettingCheck.inRange;
import static org.divvy.SettingCheck.label;
import static org.divvy.SettingCheck.powerOfTwoIn;
import static org.divvy.SettingCheck.routes;
import static org.divvy.SettingCheck.zeroOrAtLeast;
import static org.divvy.SettingType.BOOLEAN;
import static org.divvy.SettingType.INT;
import static org.divvy.SettingType.LONG;
import static org.divvy.SettingType.ROUTES;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The table of every node setting, one {@link Setting} constant per row:
 * {@code scope(name, type, default, check, description)}. The name carries the unit
 * ({@code heartbeatIntervalMs}, {@code idleParkMaxNs}, {@code termLengthBytes}); the system property is
 * {@code divvy.<name>} and the command-line flag the name in kebab case ({@code --heartbeat-interval-ms}).
 * Each constant's Javadoc gives the meaning, the unit, the reason for the default, the property and the flag.
 *
 * <p>This table is the only place a setting is declared. {@link NodeConfig} stores one value per row and
 * its builder checks each row; checks across rows (an acceptable pause longer than two intervals, ...) are in
 * {@link NodeConfig.Builder#build()}. Defaults are literals here, not read from the classes that use
 * them, so the table is the one source; {@code NodeSettingsDefaultsTest} checks they equal the runtime's
 * own values.
 *
 * <p>Adding a setting: a constant here (and in {@link #ALL}), a getter and a builder method on
 * {@link NodeConfig}, a row in the README's table ({@code ReadmeConfigurationTableTest} prints it).
 */
public final class NodeSettings {
    /** Bytes in a KiB, for readable byte defaults and bounds. */
    private static final int KIB = 1024;

    /**
     * Worker threads, each owning a work-stealing deque. Default: one per available processor, since
     * workers are CPU-bound and never block on I/O.
     * Property {@code divvy.workers}, flag {@code --workers}.
     */
    public static final Setting<Integer> WORKERS = Setting.node("workers", INT,
        Runtime.getRuntime().availableProcessors(), inRange(1, 1024),
        "worker threads; each owns a work-stealing deque").withDefaultText("available processors");

    /**
     * Busy-spin rounds ({@link Thread#onSpinWait()}) an idle worker makes before it yields. Default 100:
     * while a computation runs, work usually reappears within microseconds, and a spin reacts fastest.
     * Property {@code divvy.idleSpinCount}, flag {@code --idle-spin-count}.
     */
    public static final Setting<Integer> IDLE_SPIN_COUNT = Setting.node("idleSpinCount", INT, 100, atLeast(0, null),
        "busy-spin rounds of an idle worker before it yields");

    /**
     * {@link Thread#yield()} rounds after spinning and before parking. Default 10: gives the core to
     * another runnable thread on a busy machine without sleeping yet.
     * Property {@code divvy.idleYieldCount}, flag {@code --idle-yield-count}.
     */
    public static final Setting<Integer> IDLE_YIELD_COUNT = Setting.node("idleYieldCount", INT, 10, atLeast(0, null),
        "`Thread.yield()` rounds of an idle worker before it parks");

    /**
     * First park of an idle worker, in ns; each further park doubles, up to {@link #IDLE_PARK_MAX_NS}.
     * Default 1 µs: a spawn wakes a parked worker at once, the timeout only bounds how stale an idle
     * worker's view can get, so the first parks stay short.
     * Property {@code divvy.idleParkMinNs}, flag {@code --idle-park-min-ns}.
     */
    public static final Setting<Long> IDLE_PARK_MIN_NS = Setting.node("idleParkMinNs", LONG, 1_000L,
        inRange(1, 1_000_000_000L), "first park of an idle worker (ns); doubles each time");

    /**
     * Longest park of an idle worker that was busy recently, in ns; at least {@link #IDLE_PARK_MIN_NS}.
     * Default 1 ms: long enough that an idle node costs well under 1% of a core, short enough that a
     * missed wake-up costs at most a millisecond.
     * Property {@code divvy.idleParkMaxNs}, flag {@code --idle-park-max-ns}.
     */
    public static final Setting<Long> IDLE_PARK_MAX_NS = Setting.node("idleParkMaxNs", LONG, 1_000_000L,
        inRange(1, 1_000_000_000L), "longest park of an idle worker (ns) while recently busy; bounds a missed wake-up");

    /**
     * Park of a worker idle for about 100 parks at the maximum, in ns; at least {@link #IDLE_PARK_MAX_NS}.
     * Default 50 ms: an idle node then costs next to nothing. A spawn or a new run wakes it at once; only
     * in a rare race (a spawn publishes its job without a fence) can a worker already idle that long
     * oversleep, by at most this time.
     * Property {@code divvy.idleDeepParkNs}, flag {@code --idle-deep-park-ns}.
     */
    public static final Setting<Long> IDLE_DEEP_PARK_NS = Setting.node("idleDeepParkNs", LONG, 50_000_000L,
        inRange(1, 1_000_000_000L), "park of a worker idle for about 100 ms (ns): an idle node costs next to nothing");

    /**
     * Stack size of each worker thread, in bytes. Default 16 MiB: a worker runs deep recursions, and a
     * worker waiting in {@code sync()} runs other jobs on top of its stack, so nesting goes deeper than in
     * the sequential program. At least 64 KiB, below which even short jobs overflow.
     * Property {@code divvy.workerStackSizeBytes}, flag {@code --worker-stack-size-bytes}.
     */
    public static final Setting<Long> WORKER_STACK_SIZE_BYTES = Setting.node("workerStackSizeBytes", LONG,
        16L * KIB * KIB, atLeast(64 * KIB, null),
        "worker thread stack: deep recursion plus the jobs run while waiting in `sync()`");

    /**
     * Checking mode: every spawned job's arguments and every result go through the generated codecs even
     * on one node (encoded, decoded by the job type's name, and the decoded copy runs; its result is encoded
     * and decoded back; its exception travels as text and is rebuilt), as a job stolen by another node would.
     * So whatever would fail on several nodes (a value that cannot be sent, a job type not registered, an
     * exception class that arrives as {@code RemoteJobException}) fails the same way on one. Default false:
     * it costs an encode and a decode per spawn, and a copy of every argument.
     * Property {@code divvy.checkCodecs}, flag {@code --check-codecs}.
     */
    public static final Setting<Boolean> CHECK_CODECS = Setting.node("checkCodecs", BOOLEAN, false, any(),
        "checking mode: every spawn and result goes through the codecs, so what breaks on several nodes breaks on one");

    /**
     * Whether the node joins other nodes over Aeron UDP. Default false: a single node starts no media
     * driver and no thread beyond its workers. Every {@link Setting.Scope#NETWORK} setting below applies
     * only when this is true; a single node must leave them at their defaults, so a network setting is
     * never silently ignored.
     * Property {@code divvy.networked}, flag {@code --networked}.
     */
    public static final Setting<Boolean> NETWORKED = Setting.node("networked", BOOLEAN, false, any(),
        "whether the node joins other nodes over UDP; every setting below needs it");

    /**
     * The host name or IPv4 address other nodes reach this node at; its UDP endpoint binds there. Default
     * the loopback, so nothing is exposed by accident; a LAN run names the machine's address.
     * Property {@code divvy.bind}, flag {@code --bind}.
     */
    public static final Setting<String> BIND = Setting.network("bind", SettingType.text("HOST"), "127.0.0.1", host(),
        "host or IPv4 address other nodes reach this node at");

    /**
     * UDP port of the node's endpoint, 0 to 65535. Default 0, an ephemeral port ({@link DivvyNode#endpoint()}
     * tells which): several nodes on one machine never collide; a node others join names a fixed one.
     * Property {@code divvy.port}, flag {@code --port}.
     */
    public static final Setting<Integer> PORT = Setting.network("port", INT, 0, inRange(0, 65535),
        "UDP port of the node's endpoint; 0 = any free port");

    /**
     * {@code HOST:PORT} of the registry to join. Default none: this node hosts the registry and is node 0,
     * and the others join it at its {@link DivvyNode#endpoint()}.
     * Property {@code divvy.join}, flag {@code --join}.
     */
    public static final Setting<String> JOIN = Setting.network("join", SettingType.text("HOST:PORT"), null,
        hostPortOrNone(), "registry address to join; none = this node hosts the registry");

    /**
     * The node's site (cluster) label. Under CRS, nodes of one site steal from each other synchronously
     * and only one wide-area steal is outstanding. Default {@code default}: every node in one site.
     * Property {@code divvy.site}, flag {@code --site}.
     */
    public static final Setting<String> SITE = Setting.network("site", SettingType.text("NAME"), "default", label(),
        "site (cluster) label; CRS steals inside the site synchronously");

    /**
     * How an idle node picks the peers it steals from. Default CRS: it equals RS on one site and hides
     * wide-area latency on many.
     * Property {@code divvy.policy}, flag {@code --policy}.
     */
    public static final Setting<StealPolicy> POLICY = Setting.network("policy", SettingType.constantOf(StealPolicy.class),
        StealPolicy.CRS, any(), "`RS` (random stealing), `CRS` (cluster-aware random stealing) or `LCRS` (CRS choosing wide-area victims by their last replies)");

    /**
     * Directory of an external Aeron media driver to connect to. Default none: the node embeds its own
     * driver (stepped by its network agent, its directory deleted on close); an external one lets the
     * nodes of one host share a driver.
     * Property {@code divvy.aeronDirectory}, flag {@code --aeron-directory}.
     */
    public static final Setting<String> AERON_DIRECTORY = Setting.network("aeronDirectory", SettingType.text("DIR"),
        null, any(), "an external media driver's directory; none = an embedded driver");

    /**
     * Term buffer length of each publication, in bytes: a power of two in [64 KiB, 1 GiB] (Aeron's
     * bounds). Default 256 KiB: small, so many peers fit in /dev/shm; a larger message is split into
     * chunks and reassembled. Give every node of a cluster the same: a node with an embedded driver refuses
     * (counts and logs) streams with longer terms than its own, so a sender of garbage cannot size its images.
     * Property {@code divvy.termLengthBytes}, flag {@code --term-length-bytes}.
     */
    public static final Setting<Integer> TERM_LENGTH_BYTES = Setting.network("termLengthBytes", INT, 256 * KIB,
        powerOfTwoIn(64 * KIB, 1 << 30), "Aeron term buffer of each publication; larger messages are split; "
            + "the same on every node");

    /**
     * The most streams from peers (Aeron images: one per peer that sends here, briefly two when a peer's
     * publication is made again) a node with an embedded driver receives at once; a new stream beyond it is
     * refused, counted and logged. Each costs three terms ({@link #TERM_LENGTH_BYTES}) in /dev/shm, so this
     * bounds what a sender of forged SETUP frames can make a node map. Default 128: a cluster of about 100
     * nodes; raise it for a larger one.
     * Property {@code divvy.maxInboundStreams}, flag {@code --max-inbound-streams}.
     */
    public static final Setting<Integer> MAX_INBOUND_STREAMS = Setting.network("maxInboundStreams", INT, 128,
        inRange(1, 1 << 20), "most streams from peers (Aeron images) received at once; more are refused and counted");

    /**
     * The largest message a node sends or takes, in bytes: a stolen job's encoded arguments or a job's
     * encoded result, plus a header of under 100 bytes. Larger messages are split into chunks of the
     * publication's maximum message ({@link #TERM_LENGTH_BYTES} / 8) and reassembled. Default 1 GiB, at
     * most 2047 MiB (a Java array): a bound, not a reservation (memory is taken per message, as large as the
     * message). Beyond it a job stays on its node and runs there; a result fails its owner's {@code sync()}
     * with an error naming this setting. Every node of a computation needs the same value.
     * Property {@code divvy.maxMessageBytes}, flag {@code --max-message-bytes}.
     */
    public static final Setting<Integer> MAX_MESSAGE_BYTES = Setting.network("maxMessageBytes", INT, 1 << 30,
        inRange(64 * KIB, 2047 * KIB * KIB), "largest job or result message (chunked on the wire); a larger job "
            + "runs where it is, a larger result fails its owner's `sync()`");

    /**
     * Per peer, the bytes of messages queued for it and not yet taken by its publication (peer slow, back
     * pressured, or not connected yet); at least {@link #MAX_MESSAGE_BYTES}, so one largest message always
     * fits. Beyond it a sender is pushed back: a steal reply's job runs here instead, a result waits in its
     * mechanism until there is room. Control frames (heartbeats, membership, steal requests, small results)
     * have a queue of their own, so bulk data never crowds them out. Default 1 GiB, as the largest message.
     * Property {@code divvy.maxOutboundBytesPerPeer}, flag {@code --max-outbound-bytes-per-peer}.
     */
    public static final Setting<Long> MAX_OUTBOUND_BYTES_PER_PEER = Setting.network("maxOutboundBytesPerPeer", LONG,
        1L << 30, atLeast(64 * KIB, null), "bytes queued per peer before senders are pushed back (at least "
            + "`maxMessageBytes`); control frames have a queue of their own");

    /**
     * The bytes all partly received chunked messages may hold together; at least {@link #MAX_MESSAGE_BYTES}.
     * A message that would pass it waits on the wire (its sender is back pressured) until messages under
     * way complete; it is never dropped. Default 1 GiB, as the largest message.
     * Property {@code divvy.maxReassemblyBytes}, flag {@code --max-reassembly-bytes}.
     */
    public static final Setting<Long> MAX_REASSEMBLY_BYTES = Setting.network("maxReassemblyBytes", LONG, 1L << 30,
        atLeast(64 * KIB, null), "bytes of partly received large messages, all peers together (at least "
            + "`maxMessageBytes`); beyond it senders wait");

    /**
     * Interval of heartbeats between nodes and the registry, in ms. Default 100 ms: the failure detector
     * learns each peer's rhythm from dozens of heartbeats a few seconds, so a few lost datagrams never look
     * like a dead node, at a cost of a few datagrams a second.
     * Property {@code divvy.heartbeatIntervalMs}, flag {@code --heartbeat-interval-ms}.
     */
    public static final Setting<Long> HEARTBEAT_INTERVAL_MS = Setting.network("heartbeatIntervalMs", LONG, 100L,
        greaterThan(0), "heartbeat period between nodes and the registry");

    /**
     * Silence beyond a node's usual heartbeat rhythm that the phi-accrual failure detector accepts before
     * it starts to suspect it, in ms; more than two {@link #HEARTBEAT_INTERVAL_MS}, or one lost heartbeat
     * kills a node. The registry suspects a silent node (and a node its registry) about this long plus
     * {@code 5.2 x 100 ms} after the last heartbeat: 7.6 s with the defaults. Default 7 s: a node stopped for
     * 5 s (a long GC pause, SIGSTOP, a suspended laptop or a busy hypervisor) is survived, and a killed one
     * is suspected within 10 s. A node that was itself stopped for more than half this time notices it and
     * restarts its own detection instead of suspecting everyone it could not hear.
     * Property {@code divvy.acceptableHeartbeatPauseMs}, flag {@code --acceptable-heartbeat-pause-ms}.
     */
    public static final Setting<Long> ACCEPTABLE_HEARTBEAT_PAUSE_MS = Setting.network("acceptableHeartbeatPauseMs", LONG,
        7_000L, greaterThan(0), "silence beyond the usual heartbeat rhythm the failure detector accepts: a node "
            + "stopped for less (GC, SIGSTOP, suspend) stays in the run; a silent one is suspected about 0.6 s after it");

    /**
     * Phi at which the failure detector suspects a silent node: {@code -log10} of the probability that a
     * heartbeat still comes after this silence, given the rhythm measured so far (the last 1000 intervals,
     * deviation at least 100 ms) shifted by {@link #ACCEPTABLE_HEARTBEAT_PAUSE_MS}. Default 8, as in Akka
     * and Cassandra: a one-in-10^8 chance of a false suspicion; each unit more waits about 0.03 s longer
     * with a steady rhythm.
     * Property {@code divvy.failurePhiThreshold}, flag {@code --failure-phi-threshold}.
     */
    public static final Setting<Integer> FAILURE_PHI_THRESHOLD = Setting.network("failurePhiThreshold", INT, 8,
        inRange(1, 100), "phi at which a silent node is suspected (phi-accrual): 8 = a one-in-10^8 chance that it "
            + "was alive");

    /**
     * How long {@link DivvyNode#start} keeps trying to join before it fails with a message naming the
     * address, in ms. Default 10 s: enough for a registry that starts a little later, short enough that
     * a wrong address is reported while the user still waits.
     * Property {@code divvy.joinTimeoutMs}, flag {@code --join-timeout-ms}.
     */
    public static final Setting<Long> JOIN_TIMEOUT_MS = Setting.network("joinTimeoutMs", LONG, 10_000L,
        greaterThan(0), "how long `DivvyNode.start` keeps trying to join before it fails with a message");

    /**
     * Interval between JOIN retries while joining, in ms; used up to {@link #JOIN_TIMEOUT_MS}. Default
     * 200 ms: a lost JOIN costs little, and a registry not up yet is asked 5 times a second.
     * Property {@code divvy.joinRetryIntervalMs}, flag {@code --join-retry-interval-ms}.
     */
    public static final Setting<Long> JOIN_RETRY_INTERVAL_MS = Setting.network("joinRetryIntervalMs", LONG, 200L,
        greaterThan(0), "interval between JOIN retries; capped at `joinTimeoutMs`");

    /**
     * Quiet time before the network agent enters deep idle, in ms: no local work, nothing stolen or given
     * away, only failed steals and heartbeats. Default 1 s: longer than any pause between the phases of
     * one computation. In deep idle the agent parks longer and failed steals back off further, so an idle
     * node costs well under 1% of a core; any work ends it at once.
     * Property {@code divvy.deepIdleAfterMs}, flag {@code --deep-idle-after-ms}.
     */
    public static final Setting<Long> DEEP_IDLE_AFTER_MS = Setting.network("deepIdleAfterMs", LONG, 1_000L,
        greaterThan(0), "quiet time (no local work, nothing stolen or given, only failed steals and heartbeats) "
            + "before the network agent enters deep idle; any work ends it at once");

    /**
     * Park of the network agent per idle cycle in deep idle, in ms (awake: 1 ms); used up to
     * {@link #HEARTBEAT_INTERVAL_MS}, since a longer park would make heartbeats late. Default 100 ms: 10
     * wake-ups a second cost about 0.4% of a core. With the node's own embedded driver (the default) any datagram to
     * the node ends the park (the agent waits on the driver's sockets), so a frame reaches the agent when it arrives,
     * and heartbeats and Aeron's own frames (a stream's heartbeat, status messages) wake it as they come; with a
     * standalone driver ({@code aeronDirectory}) the park is how late a deep-idle node answers a frame at most.
     * Property {@code divvy.deepIdleParkMs}, flag {@code --deep-idle-park-ms}.
     */
    public static final Setting<Long> DEEP_IDLE_PARK_MS = Setting.network("deepIdleParkMs", LONG, 100L,
        greaterThan(0), "network agent park per idle cycle in deep idle (awake: 1 ms); capped at `heartbeatIntervalMs`; "
            + "a datagram ends it when the driver is embedded");

    /**
     * Park of the network agent per idle cycle in deep idle while a run this node belongs to is active (its own run,
     * or one a live peer announced with RUN_STARTED and has not ended with RUN_ENDED), in ms; used up to the
     * deep-idle park. With a standalone driver a datagram cannot wake a parked agent, so this is how late a node
     * with nothing to steal sees a run's frames (a shared-object write, a steal request); default 1 ms, the park while
     * awake. Between runs the agent parks {@link #DEEP_IDLE_PARK_MS}. With an embedded driver a datagram ends either
     * park, but the run's stays 1 ms: 100 ms was measured worse for writes to idle nodes of a run (perf/README.md "A
     * datagram ends the park"; not explained yet).
     * Property {@code divvy.deepIdleRunParkMs}, flag {@code --deep-idle-run-park-ms}.
     */
    public static final Setting<Long> DEEP_IDLE_RUN_PARK_MS = Setting.network("deepIdleRunParkMs", LONG, 1L,
        greaterThan(0), "network agent park per idle cycle in deep idle while a run this node belongs to is active; "
            + "capped at the deep-idle park");

    /**
     * A peer's publication that took nothing for this long is closed, in ms; 0 (the default) keeps every publication
     * while its peer is a member. A later frame to the peer opens a new one, which costs one round trip to it (Aeron's
     * setup and status message) before the frame leaves. Each publication, and the image it makes at its peer, is work
     * in every duty cycle of the media driver that holds it (a heartbeat every 100 ms while idle, a status message
     * back every 200 ms): random stealing reaches every member in time, so without it a run builds the full mesh of
     * n(n-1) streams, and 64 nodes sharing four drivers on one 2-core machine stalled their drivers for
     * hundreds of ms (perf/README.md, "64 replicas: where a write's time goes"). Set it when many nodes share a driver
     * or a machine. A closed publication is not the end of its stream: the next one to that peer continues it
     * (same authenticated stream, sequence numbers going on) and opens with a STREAM_CONTINUES naming the closed one,
     * which the peer holds while the closed one's image is there; a tail that never arrived is then a sequence skip,
     * reported and handled as a failure like any loss in transit (Aeron calls a publication connected for 5 s after
     * the peer's last status message, so a peer silent from within the idle time until past Aeron's 5 s linger can
     * lose it). When nothing else is sent to that peer, the continuation goes by itself 30 s after the close, on a
     * publication of its own (in a run most links carry a frame again before that, which takes it along). A reopened
     * stream adds no last-sequence entry at the peer's authenticator. What is left (see {@code Link.closeIfIdle}): a
     * lost tail is reported up to 30 s late when nothing else goes to that peer; the continuation's own publication,
     * closed idle in turn, owes its continuation to the next frame for that peer, so a tail is reported later still
     * (or, if no frame follows, not at all) only if that continuation is lost too: the peer silent through two
     * lingers with an answer in between; and a lost tail holds the peer's next frames from that sender until the
     * closed image is gone (its 5 s linger, then up to Aeron's 10 s image liveness; never more than 30 s: past that the
     * gap is judged, a loss if still open, so an image that only shares the closed one's session id cannot hold a stream
     * for ever). Only a stream that carried run-key frames owes a continuation, and a publication opened for a
     * continuation alone that nobody answers is closed again after 5 s (the continuation then waits for the next real
     * frame), so a peer that is gone does not keep a publication open. Off by default: with 64 nodes the idle-in-run writes measured slower than
     * without the continuations (perf/README.md, "64 replicas"), not yet understood.
     * Property {@code divvy.idlePublicationCloseMs}, flag {@code --idle-publication-close-ms}.
     */
    public static final Setting<Long> IDLE_PUBLICATION_CLOSE_MS = Setting.network("idlePublicationCloseMs", LONG, 0L,
        zeroOrAtLeast(1_000, "0 never closes one; a shorter idle time would not prove the peer had the stream's end"),
        "a peer's publication that took nothing for this long, connected all the while, is closed (a later frame opens a new one, one round trip, that continues its stream so a lost tail is reported); 0 = never");

    /**
     * Longest pause between failed remote steals in deep idle, in ms; at least 20, the cap while awake.
     * Default 200 ms (twice the deep-idle agent park): an idle node sends ~7 requests a second per slot, and
     * may take ~200 ms to notice work on a peer; requests are cheap next to the agent's wake-ups, so no longer.
     * A run started with
     * {@link DivvyNode#run} does not wait for it: the master broadcasts RUN_STARTED, which ends deep idle
     * and resets the pause on every peer.
     * Property {@code divvy.deepIdleStealBackoffMs}, flag {@code --deep-idle-steal-backoff-ms}.
     */
    public static final Setting<Long> DEEP_IDLE_STEAL_BACKOFF_MS = Setting.network("deepIdleStealBackoffMs", LONG,
        200L, atLeast(20, "the steal backoff cap while awake"),
        "longest pause between failed remote steals in deep idle (awake: 20 ms); RUN_STARTED ends it");

    /**
     * Longest time a node in deep idle keeps asking the same peer for work before it draws another, in ms; 0 draws a
     * victim for every request, as an awake node does. In deep idle each steal slot keeps the first victim it draws
     * for one deep pause ({@link #DEEP_IDLE_STEAL_BACKOFF_MS}), the next for twice as long, and so on up to this.
     * Default 0 (no hold), like {@link #IDLE_PUBLICATION_CLOSE_MS}: set it (5 s is what was measured) where many nodes
     * share a media driver or a machine. Every new victim is a new stream each way in the media drivers; 64 idle nodes of a run in four
     * drivers on 2 cores that drew a victim for every request kept ~1,300 publications and ~5,000 images, and with
     * held victims (and deep idle no longer ended by a write received or a request waiting for its new stream) ~300
     * and ~550, and a shared-object write reached them in 2.4 / 1.4 times the WAN delay instead of 34 / 3.7 (median,
     * 10 / 50 ms; perf/README.md, "64 replicas: idle nodes hold their victims"). What a longer hold costs: work that
     * appears after a long lull reaches a deep-idle node whose held victim stays idle only when it draws again,
     * within one hold: 16 nodes in one JVM (4 sites of 4, one driver), a root that sleeps 10 s and then spawns, the time
     * until every node ran a stolen job: CRS 3.9 s with 5 s holds against 1.1 s without, RS 14.9 s against 4.3 s (one
     * run each, 2026-11-26; perf/README.md, same section). That is why it is off by default: on machines of their own
     * new streams cost little, and an iterative application whose root works alone for seconds between rounds would
     * pay the slower spread every round. Work found and RUN_STARTED end the hold at once.
     * Property {@code divvy.deepIdleVictimHoldMs}, flag {@code --deep-idle-victim-hold-ms}.
     */
    public static final Setting<Long> DEEP_IDLE_VICTIM_HOLD_MS = Setting.network("deepIdleVictimHoldMs", LONG, 0L,
        atLeast(0, "0 draws a victim for every request"),
        "longest time a node in deep idle keeps asking the same peer for work (first one deep pause, then twice as long each time); 0 = a new victim every request; work found or RUN_STARTED ends it");

    /**
     * Endpoint rewrites: datagrams for peer {@code HOST:PORT} go to the mapped {@code HOST:PORT} instead,
     * e.g. a relay that emulates a wide-area link. Routing only: the peer keeps its own endpoint in
     * membership and statistics. Default none: every peer is sent to directly.
     * Property {@code divvy.peerRoutes}, flag {@code --peer-routes}.
     */
    public static final Setting<Map<String, String>> PEER_ROUTES = Setting.network("peerRoutes", ROUTES, Map.of(),
        routes(), "peer `HOST:PORT` to the `HOST:PORT` its datagrams go to instead (e.g. a WAN relay)");

    /**
     * A file holding the cluster secret that authenticates this run's frames (at least 16 bytes; see
     * {@link ClusterSecret}). Default none: the secret comes from the environment variable
     * {@code DIVVY_SECRET}, and a networked node without either refuses to start. {@code divvy run} makes a
     * secret for the nodes it starts itself. Never the secret itself on a command line: {@code ps} shows it.
     * Property {@code divvy.secretFile}, flag {@code --secret-file}.
     */
    public static final Setting<String> SECRET_FILE = Setting.network("secretFile", SettingType.text("FILE"), null,
        any(), "file with the cluster secret; none = `$DIVVY_SECRET` (`divvy run` makes one for its nodes)");

    /**
     * Orphan saving (thesis §3.3): after a crash, the finished jobs of orphaned subtrees (jobs whose owner died)
     * are kept, announced in one ORPHAN_TUPLES broadcast and reused when the recomputed tree reaches them; a
     * new master reuses them too. False: orphaned work is discarded and recomputed, nothing is kept, announced
     * or looked up: Satin's "naive" baseline, for measuring what orphan saving gains (perf's {@code faults}
     * section). Default true. Jobs out on a dead thief are recomputed either way, and result routing (the jobs
     * out on thieves, by stamp) is the same.
     * Property {@code divvy.orphanSaving}, flag {@code --orphan-saving}.
     */
    public static final Setting<Boolean> ORPHAN_SAVING = Setting.network("orphanSaving", BOOLEAN, true, any(),
        "orphan saving after a crash (thesis §3.3); false = discard orphaned work and recompute it (the naive baseline)");

    /**
     * Result copies: a job that ran at least this long on a node and finished with a value has its result copied to
     * one node of another site (the keeper), which reuses it should the node's whole site die: orphan saving keeps
     * what survivors did for a dead node, but what the dead node finished itself lives in its frames and dies with
     * them. Only with sites (a single-site cluster copies nothing) and with orphan saving. 0 turns copies off. Default
     * 100 ms: a message per such job, small next to its work.
     * Property {@code divvy.resultCopyMinMs}, flag {@code --result-copy-min-ms}.
     */
    public static final Setting<Long> RESULT_COPY_MIN_MS = Setting.network("resultCopyMinMs", LONG, 100L,
        atLeast(0, "0 copies nothing"),
        "jobs that ran at least this long copy their result to a node of another site, reused if their site dies; 0 = off");

    /**
     * How long writes to shared objects wait to be combined, in ms: every write made within this delay after the
     * first travels in one SO_UPDATE message per peer (Satin++ combined writes; LocusRoute used 100 ms). 0 sends
     * each agent cycle's writes at once. Default 2 ms: small next to a steal, and a burst of small writes (TSP's
     * bound, a SAT clause) still shares a message.
     * Property {@code divvy.sharedWriteCombiningMs}, flag {@code --shared-write-combining-ms}.
     */
    public static final Setting<Long> SHARED_WRITE_COMBINING_MS = Setting.network("sharedWriteCombiningMs", LONG, 2L,
        atLeast(0, "0 sends at once"), "writes to shared objects made within this delay travel as one message per peer");

    /**
     * How long a job from another node whose guard fails waits for late updates before it fetches fresh replicas,
     * in ms (thesis §5.3: "a certain amount of time"). Default 20 ms: a few combining delays and network round
     * trips, short next to the jobs worth stealing.
     * Property {@code divvy.guardWaitMs}, flag {@code --guard-wait-ms}.
     */
    public static final Setting<Long> GUARD_WAIT_MS = Setting.network("guardWaitMs", LONG, 20L, atLeast(0, "0 fetches at once"),
        "a failed guard waits this long for late updates, then fetches fresh replicas");

    /**
     * Whether a guard that still fails after {@code guardWaitMs} fetches fresh replicas of the job's shared objects
     * from the node the job came from before the job runs (thesis §5.3). False: the job runs on what is here
     * (for measuring what the fetch costs). Default true.
     * Property {@code divvy.guardFetch}, flag {@code --guard-fetch}.
     */
    public static final Setting<Boolean> GUARD_FETCH = Setting.network("guardFetch", BOOLEAN, true, any(),
        "a guard still failing after the wait fetches fresh replicas from the job's source");

    /**
     * How long a replica fetch waits for its answer before it asks another node holding the object, in ms; a
     * source that died or left is asked no longer. Default 2000 ms.
     * Property {@code divvy.replicaFetchTimeoutMs}, flag {@code --replica-fetch-timeout-ms}.
     */
    public static final Setting<Long> REPLICA_FETCH_TIMEOUT_MS = Setting.network("replicaFetchTimeoutMs", LONG, 2000L,
        greaterThan(0), "a replica fetch unanswered this long asks another node holding the object");

    /**
     * The bytes of writes to shared objects (SO_UPDATE) that arrived from other nodes and wait for a worker's safe
     * point, with the fetched replica states among them. A node whose workers run long loops that neither spawn nor
     * sync applies nothing meanwhile; beyond this bound an SO_UPDATE is dropped on arrival and counted (writes are
     * best effort: a job's guard waits, then fetches a fresh replica). Replica states this node asked for are
     * counted but never dropped. Default 256 MiB.
     * Property {@code divvy.maxSharedInboxBytes}, flag {@code --max-shared-inbox-bytes}.
     */
    public static final Setting<Long> MAX_SHARED_INBOX_BYTES = Setting.network("maxSharedInboxBytes", LONG, 256L << 20,
        atLeast(64 * KIB, null), "bytes of writes from other nodes waiting for a safe point; beyond it an SO_UPDATE is dropped "
            + "(counted; guards repair)");

    /** Every row, in the order of the README, {@link NodeConfig#describe()} and usage help. */
    public static final List<Setting<?>> ALL = List.of(
        WORKERS, IDLE_SPIN_COUNT, IDLE_YIELD_COUNT, IDLE_PARK_MIN_NS, IDLE_PARK_MAX_NS, IDLE_DEEP_PARK_NS,
        WORKER_STACK_SIZE_BYTES, CHECK_CODECS, NETWORKED, BIND, PORT, JOIN, SITE, POLICY, AERON_DIRECTORY, TERM_LENGTH_BYTES,
        MAX_INBOUND_STREAMS, MAX_MESSAGE_BYTES, MAX_OUTBOUND_BYTES_PER_PEER, MAX_REASSEMBLY_BYTES,
        HEARTBEAT_INTERVAL_MS, ACCEPTABLE_HEARTBEAT_PAUSE_MS, FAILURE_PHI_THRESHOLD, JOIN_TIMEOUT_MS, JOIN_RETRY_INTERVAL_MS, DEEP_IDLE_AFTER_MS,
        DEEP_IDLE_PARK_MS, DEEP_IDLE_RUN_PARK_MS, IDLE_PUBLICATION_CLOSE_MS, DEEP_IDLE_STEAL_BACKOFF_MS, DEEP_IDLE_VICTIM_HOLD_MS, PEER_ROUTES, SECRET_FILE, ORPHAN_SAVING, RESULT_COPY_MIN_MS,
        SHARED_WRITE_COMBINING_MS, GUARD_WAIT_MS, GUARD_FETCH, REPLICA_FETCH_TIMEOUT_MS, MAX_SHARED_INBOX_BYTES);

    private NodeSettings() {
    }

    /** The row named {@code name} ({@code heartbeatIntervalMs}), if there is one. */
    public static Optional<Setting<?>> named(final String name) {
        return ALL.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
