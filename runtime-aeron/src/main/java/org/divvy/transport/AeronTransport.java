package org.divvy.transport;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.ClusterSecret;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.bulk.SlicedCopy;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.security.AuthenticationCounters;
import org.divvy.security.FrameAuthenticator;

import io.aeron.Aeron;
import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.aeron.ControlledFragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.driver.Configuration;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;

/**
 * One node's Aeron transport. By default it launches an embedded {@link MediaDriver} in INVOKER mode
 * (no driver threads: {@link #doDriverWork()} steps it from the agent's duty cycle, which measured best
 * on small machines) in a unique directory deleted on start and shutdown; with
 * {@link NodeConfig#aeronDirectory()} set it is a client of an external driver instead. The
 * client conductor is stepped by the agent too, so a node's network side is exactly one thread.
 *
 * <p>{@link #poll} delivers only authentic whole frames with a valid header: every received Aeron message is
 * first checked by the {@link FrameAuthenticator} (its trailer: key, tag, stream order; see the README's
 * threat model), then its header by the {@link FrameValidator}, and CHUNK frames are reassembled (bounded) before the message
 * they carry is checked and delivered. Checking a body against its type is the receiver's part.
 * {@link #send} never blocks and never throws: what a publication does not take now waits in the
 * {@link Link}'s bounded queue, drained by {@link #doOutboundWork}.
 *
 * <p>Built by the node's owner (the constructor steps the driver until the port is bound), then owned by
 * the network agent thread, which closes it.
 */
public final class AeronTransport implements Transport {
    private static final long ASYNC_EXECUTOR_MIN_PARK_NS = 1_000;
    private static final long ASYNC_EXECUTOR_MAX_PARK_NS = 50_000_000;
    private static final long ENDPOINT_RESOLVE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    /**
     * Driver steps per duty cycle at most, while it has work (16). A step of the driver's receiver reads one
     * datagram per channel and its sender sends about one: at one step per cycle a 100 MB job took the
     * agent ~70,000 cycles (~10 s on a busy machine); idle, one step finds nothing and ends the loop.
     *
     * <p>The agent takes them in two parts ({@link #beginDriverWork}, {@link #endDriverWork}): one step before it
     * polls, the rest after its handlers and duties sent. All of them before the poll, as it was, a cycle that
     * received a steal request stepped the driver a second time for nothing (the sender had nothing yet, the
     * receiver found nothing: ~1.5-2.5 µs of system calls before the request was even read), and the reply left
     * only with the next cycle's first step. Measured on the steal round trip: see perf/README.md.
     */
    static final int DRIVER_STEPS_PER_CYCLE = 16;

    /**
     * The embedded driver's client liveness timeout (1 h; Aeron's default is 10 s): the driver and its only client
     * run on one thread, so only a stop of the whole process can exceed it (see the constructor).
     */
    static final long EMBEDDED_CLIENT_LIVENESS_NS = TimeUnit.HOURS.toNanos(1);

    /**
     * The embedded driver's counters: 1 MiB of values (Aeron's minimum; its default is 8 MiB), room for 8,192
     * counters, where a node uses about 40 of its own and about 10 per peer. Aeron fills its CnC file with zeros,
     * so every byte of it is resident: with the default values and their 4x metadata the file was 46 MiB of each
     * node's RSS, 10 MiB now (the rest of the file, the command ring to the driver, the broadcast back and the error
     * log, are at Aeron's minimums already: 1, 1 and 4 MiB). Aeron's {@code aeron.counters.buffer.length} overrides it.
     */
    static final int COUNTERS_VALUES_BYTES = Configuration.COUNTERS_VALUES_BUFFER_LENGTH_MIN;

    /**
     * The embedded driver's unicast NAK retry delay (10 ms), set as the ratio to its first NAK's delay (Aeron's 1 µs, or
     * {@code aeron.nak.unicast.delay}): a gap that a first NAK did not fill is NAKed again every 10 ms, the sender's
     * retransmit linger (Aeron's default),
     * within which the sender ignores NAKs for a range it just sent again anyway. Aeron's ratio of 100 NAKs every
     * 100 µs: across a WAN link of tens of ms round trip that is hundreds of NAKs per lost datagram, and measured with
     * 53 nodes on one 2-core machine, 90,000 NAKs a second against 700 retransmits (perf/README.md, "64 replicas"): the
     * NAKs themselves filled the socket buffers and made the loss worse. The first NAK still goes at once. Aeron's
     * {@code aeron.nak.unicast.retry.delay.ratio} overrides it.
     */
    static final long NAK_UNICAST_RETRY_DELAY_NS = 10_000_000;

    /** The frame type of a stream probe (STREAM_PROBE, 25): handled here, never delivered; see {@code Link.checkConnection}. */
    public static final int PROBE_TYPE = Link.PROBE_TYPE;
    /**
     * The frame type of a stream's continuation on a new publication (STREAM_CONTINUES, 31): handled here, never
     * delivered; see {@link StreamContinuesFlyweight} and {@code Link.closeIfIdle}.
     */
    public static final int CONTINUES_TYPE = StreamContinuesFlyweight.TYPE;

    /** The Aeron stream id all Divvy traffic uses. */
    static final int STREAM_ID = 0xD1;

    private final String host;
    private final int port;
    private final int termLengthBytes;
    /** The largest message sent (chunked if needed), {@code maxMessageBytes}. */
    private final int maxMessageBytes;
    /** Per peer, the bulk bytes queued while it is unconnected or back pressured, {@code maxOutboundBytesPerPeer}. */
    private final long maxOutboundBytesPerPeer;
    /** {@code idlePublicationCloseMs} in ns; 0: publications stay open (and no continuation is ever owed). */
    private final long idlePublicationCloseNs;
    /** After an idle close, when an owed STREAM_CONTINUES goes by itself if no frame took it along ({@code Link}). */
    private final long owedContinuationAfterNs;
    private final Map<String, String> peerRoutes;
    private final ErrorHandler errorHandler;
    private final FrameValidator validator;
    private final TrafficCounters traffic;
    private final FrameAuthenticator authenticator;
    private final ReceiveGuardCounters receiveGuardCounters = new ReceiveGuardCounters();
    private final MediaDriver driver;
    /** Ends the agent's deep-idle park when a datagram reaches the embedded driver's socket; null without one. */
    private final DatagramWait datagramWait;
    /** The embedded driver's resolver thread's idle strategy, woken before a publication opens; null without one. */
    private final ResolverIdleStrategy resolver;
    private final AgentInvoker driverInvoker;
    private final Aeron aeron;
    private final AgentInvoker clientInvoker;
    private final Subscription subscription;
    private final ControlledFragmentAssembler assembler;
    private final Reassembler reassembler;
    /** The buffers of big received messages (and of big frames mechanisms send, if they allocate them here). */
    private final OffHeapMemory offHeapMemory;
    private final String endpoint;
    private final Map<String, Link> linkByEndpoint = new HashMap<>();
    private final List<Link> links = new ArrayList<>();
    private final ChunkFlyweight chunk = new ChunkFlyweight();
    /**
     * The Aeron sessions whose first frame, a STREAM_CONTINUES, waits for the image of the session it continues, with
     * when each was first held.
     */
    private final Long2LongHashMap heldContinuations = new Long2LongHashMap(NOT_HELD);
    /** No entry in {@link #heldContinuations}. */
    private static final long NOT_HELD = Long.MIN_VALUE;
    /**
     * Longest hold of a STREAM_CONTINUES (30 s): the closed publication lingers 5 s and its image then stays for
     * Aeron's image liveness (10 s) at most, so a closed image still here after that is not its sender's.
     */
    static final long CONTINUATION_HOLD_LIMIT_NS = 30_000_000_000L;
    /** The link to this node's own endpoint, without Aeron; null until something is sent there. */
    private SelfLink selfLink;
    private final SelfLink.Receiver selfReceiver = this::onSelfMessage;
    private FrameHandler frameHandler;
    private LossListener lossListener = LossListener.NONE;
    /** Work the driver's step at the start of this duty cycle did ({@link #beginDriverWork}). */
    private int firstStepWork;
    /** Whether a message was offered or queued since the driver's last step. */
    private boolean sentSinceDriverStep;

    /**
     * Starts the driver (if embedded), the client and the subscription, and resolves the bound port.
     *
     * @param authenticator signs what is sent and checks what is received.
     * @param errorHandler  receives Aeron's asynchronous errors; it must count, not throw.
     */
    public AeronTransport(
        final NodeConfig config,
        final FrameValidator validator,
        final TrafficCounters traffic,
        final FrameAuthenticator authenticator,
        final ErrorHandler errorHandler) {
        this(config, validator, traffic, authenticator, errorHandler, Link.OWED_CONTINUATION_AFTER_NS);
    }

    /** As the public constructor, with the time after which an owed STREAM_CONTINUES goes by itself (tests: shorter). */
    AeronTransport(
        final NodeConfig config,
        final FrameValidator validator,
        final TrafficCounters traffic,
        final FrameAuthenticator authenticator,
        final ErrorHandler errorHandler,
        final long owedContinuationAfterNs) {
        this.owedContinuationAfterNs = owedContinuationAfterNs;
        this.host = config.bind();
        this.port = config.port();
        this.termLengthBytes = config.termLengthBytes();
        this.maxMessageBytes = config.maxMessageBytes();
        this.maxOutboundBytesPerPeer = config.maxOutboundBytesPerPeer();
        this.idlePublicationCloseNs = TimeUnit.MILLISECONDS.toNanos(config.idlePublicationCloseMs());
        this.peerRoutes = config.peerRoutes();
        this.errorHandler = errorHandler;
        this.validator = validator;
        this.traffic = traffic;
        this.authenticator = authenticator;
        this.offHeapMemory = new OffHeapMemory(config.bind() + ":" + config.port(), errorHandler::onError);
        this.reassembler = new Reassembler(config.maxReassemblyBytes(), validator.counters(), errorHandler,
            offHeapMemory, senderId -> lossListener.onReceiveLoss(senderId, 1));
        final Aeron.Context clientContext = new Aeron.Context()
            .useConductorAgentInvoker(true)
            .errorHandler(errorHandler)
            .subscriberErrorHandler(errorHandler)
            .unavailableImageHandler(this::onUnavailableImage);
        MediaDriver launched = null;
        Aeron client = null;
        DatagramWait wait = null;
        ResolverIdleStrategy resolver = null;
        try {
            if (config.aeronDirectory() == null) {
                final MediaDriver.Context driverContext = new MediaDriver.Context()
                    .threadingMode(ThreadingMode.INVOKER)
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true)
                    .publicationTermBufferLength(termLengthBytes)
                    .ipcTermBufferLength(termLengthBytes)
                    .errorHandler(errorHandler);
                if (System.getProperty(Configuration.COUNTERS_VALUES_BUFFER_LENGTH_PROP_NAME) == null) {
                    driverContext.counterValuesBufferLength(COUNTERS_VALUES_BYTES);
                }
                // Only frames a Divvy publication sends reach the driver, and at most maxInboundStreams images:
                // garbage sent to the port can neither size images nor have the driver throw per datagram.
                // Receiver windows are a quarter term, so a stream that lost its last window is repaired.
                final ReceiveGuard guard = new ReceiveGuard(STREAM_ID, termLengthBytes, driverContext.mtuLength(),
                    config.maxInboundStreams(), errorHandler, receiveGuardCounters);
                // The agent thread reads the sockets itself (it steps the driver): its deep-idle park watches them
                // (null if no selector opens: plain parks). A send endpoint chosen by property (Aeron's loss-simulating
                // debug one) is kept; the publications' sockets are then not watched, only the receive endpoint's.
                final DatagramWait socketWait = DatagramWait.open(errorHandler);
                wait = socketWait;
                driverContext.receiveChannelEndpointSupplier((udpChannel, dispatcher, statusIndicator, context) ->
                    new GuardedReceiveChannelEndpoint(udpChannel, dispatcher, statusIndicator, context, guard, socketWait))
                    .congestControlSupplier(guard.tracking(ReceiverWindow.capped(Configuration.congestionControlSupplier())));
                if (System.getProperty(Configuration.SEND_CHANNEL_ENDPOINT_SUPPLIER_PROP_NAME) == null) {
                    driverContext.sendChannelEndpointSupplier((udpChannel, statusIndicator, context) ->
                        new WatchedSendChannelEndpoint(udpChannel, statusIndicator, context, socketWait));
                }
                if (System.getProperty(CommonContext.AERON_DIR_PROP_NAME) == null) {
                    // A directory named for this process, and the leftovers of dead ones removed: a SIGKILLed
                    // node cannot delete its own (tens of MiB in /dev/shm each).
                    final File base = DriverDirectories.base();
                    DriverDirectories.removeStale(base);
                    driverContext.aeronDirectoryName(DriverDirectories.newDirectory(base).getPath());
                }
                if (System.getProperty(Configuration.ASYNC_EXECUTOR_IDLE_STRATEGY_PROP_NAME) == null) {
                    // The driver's one own thread (name resolution for new channels) parks up to 1 ms by
                    // default: ~2% of a core on an idle node. New channels are rare; a 50 ms cap costs ~0.1%
                    // (20 ms measured ~0.3%, loaded 2-core machine), and a new channel may wait up to 50 ms for it.
                    // ...and a publication about to be opened wakes it (ResolverIdleStrategy), so it is not that wait.
                    resolver = new ResolverIdleStrategy(ASYNC_EXECUTOR_MIN_PARK_NS, ASYNC_EXECUTOR_MAX_PARK_NS);
                    driverContext.asyncExecutorIdleStrategy(resolver);
                }
                if (System.getProperty(Configuration.NAK_UNICAST_RETRY_DELAY_RATIO_PROP_NAME) == null) {
                    driverContext.nakUnicastRetryDelayRatio(
                        Math.max(1, NAK_UNICAST_RETRY_DELAY_NS / Math.max(1, driverContext.nakUnicastDelayNs())));
                }
                if (System.getProperty(Configuration.CLIENT_LIVENESS_TIMEOUT_PROP_NAME) == null) {
                    // The embedded driver's one client is this node's, stepped by the same thread: a pause of the
                    // process stops both, and with Aeron's 10 s a stop longer than that closed the client (its
                    // conductor's "service interval exceeded") and left a node that could never send again. How
                    // long a stopped node stays in the run is the failure detector's to say, not Aeron's.
                    driverContext.clientLivenessTimeoutNs(EMBEDDED_CLIENT_LIVENESS_NS)
                        .publicationUnblockTimeoutNs(EMBEDDED_CLIENT_LIVENESS_NS + TimeUnit.SECONDS.toNanos(15));
                }
                launched = MediaDriver.launchEmbedded(driverContext);
                clientContext.aeronDirectoryName(launched.aeronDirectoryName()).driverAgentInvoker(launched.sharedAgentInvoker());
            } else {
                clientContext.aeronDirectoryName(config.aeronDirectory());
            }
            client = Aeron.connect(clientContext);
            this.driver = launched;
            this.datagramWait = wait;
            this.resolver = resolver;
            this.driverInvoker = launched == null ? null : launched.sharedAgentInvoker();
            this.aeron = client;
            this.clientInvoker = client.conductorAgentInvoker();
            this.subscription = client.addSubscription(
                "aeron:udp?endpoint=" + host + ":" + port, STREAM_ID);
            this.endpoint = resolveEndpoint();
            authenticator.bindTo(endpoint); // run-key frames to this node are signed for this endpoint
        } catch (final RuntimeException ex) {
            CloseHelper.quietCloseAll(client, launched, wait);
            throw ex;
        }
        this.assembler = new ControlledFragmentAssembler(this::onFragment);
    }

    private String resolveEndpoint() {
        final long deadlineNs = System.nanoTime() + ENDPOINT_RESOLVE_TIMEOUT_NS;
        while (true) {
            final String resolved = subscription.tryResolveChannelEndpointPort();
            if (resolved != null) {
                final String hostPort = ChannelUri.parse(resolved).get(CommonContext.ENDPOINT_PARAM_NAME);
                final int port = Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
                if (port != 0) {
                    return host + ":" + port;
                }
            }
            if (System.nanoTime() - deadlineNs > 0) {
                throw new DivvyException("could not bind UDP " + host + ":" + this.port +
                    " within 5 s: check the host is a local address and the port is free");
            }
            doDriverWork();
            clientInvoker.invoke();
            Thread.onSpinWait();
        }
    }

    /** The {@code host:port} peers reach this node at (the resolved port if 0 was configured). */
    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    @Override
    public TrafficCounters traffic() {
        return traffic;
    }

    /** What the embedded driver's receive guard refused, by reason; all zero with an external driver. */
    @Override
    public ReceiveGuardCounters receiveGuard() {
        return receiveGuardCounters;
    }

    /** The Aeron directory in use (the embedded driver's, or the external one). */
    @Override
    public String aeronDirectoryName() {
        return aeron.context().aeronDirectoryName();
    }

    /**
     * Steps the embedded driver (again while it has work, up to {@link #DRIVER_STEPS_PER_CYCLE} times) and the
     * client conductor; 0 for an external driver's part.
     */
    @Override
    public int doDriverWork() {
        return stepDriver(DRIVER_STEPS_PER_CYCLE) + invokeClient();
    }

    /** One step of the embedded driver and the client conductor; {@link #endDriverWork} may step it further. */
    @Override
    public int beginDriverWork() {
        firstStepWork = stepDriver(1);
        return firstStepWork + invokeClient();
    }

    /**
     * One driver step if the poll's handlers offered a message since the cycle's first step: its sender sends it now,
     * not after the duties. The step's work counts as the first step's, so {@link #endDriverWork} still steps on while
     * the driver has work (a large message's datagrams, what the duties send).
     */
    @Override
    public int sendHandlersFrames() {
        if (!sentSinceDriverStep) {
            return 0;
        }
        final int work = stepDriver(1);
        firstStepWork += work;
        return work;
    }

    /**
     * The rest of the cycle's driver steps, while it has work, if its first step had some or a message was offered
     * or queued since: the sender sends at once what the cycle's handlers and duties offered (a steal reply leaves
     * in the cycle its request arrived in), and the receiver goes on reading a large message's datagrams. An idle
     * cycle steps the driver once, as before.
     */
    @Override
    public int endDriverWork() {
        // Frames sent to itself wait for the next poll: counted as work, so the idle strategy does not park first.
        final int own = selfLink != null && selfLink.hasPending() ? 1 : 0;
        if (firstStepWork == 0 && !sentSinceDriverStep) {
            return own;
        }
        firstStepWork = 0;
        return own + stepDriver(DRIVER_STEPS_PER_CYCLE - 1);
    }

    private int stepDriver(final int maxSteps) {
        sentSinceDriverStep = false;
        int work = 0;
        if (driverInvoker != null) {
            for (int step = 0; step < maxSteps; step++) {
                final int done = driverInvoker.invoke();
                work += done;
                if (done == 0) {
                    break;
                }
            }
        }
        return work;
    }

    private int invokeClient() {
        return clientInvoker != null && aeron != null ? clientInvoker.invoke() : 0;
    }

    /**
     * Delivers the frames this node sent to itself since the last poll (all of them, see {@link SelfLink}), then up to
     * {@code fragmentLimit} fragments' worth of validated frames from the wire, to {@code handler}.
     */
    @Override
    public int poll(final FrameHandler handler, final int fragmentLimit) {
        frameHandler = handler;
        final int own = selfLink == null ? 0 : selfLink.deliver(selfReceiver);
        return own + subscription.controlledPoll(assembler, fragmentLimit);
    }

    /** A frame this node sent to itself: received as one from the wire (authenticated, checked, counted, dispatched). */
    private void onSelfMessage(final DirectBuffer buffer, final int offset, final int received, final DirectBuffer ownFrame) {
        if ((buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF) == ChunkFlyweight.TYPE) {
            // a self link never chunks: a frame of CHUNK's type is no chunk of a message of this link
            FrameCounters.count(validator.counters().badChunk);
            return;
        }
        onMessage(buffer, offset, received, null, ownFrame);
    }

    /**
     * One whole Aeron message: a frame, delivered, or a chunk, reassembled. Returns ABORT only for the first
     * chunk of a message the reassembly bound has no room for yet, or whose buffer another thread is still
     * allocating: it stays in its stream (the sender's publication is back pressured) and comes again in a
     * later poll, after messages under way complete or the buffer is there; other peers' streams go on meanwhile.
     */
    private ControlledFragmentHandler.Action onFragment(final DirectBuffer buffer, final int offset, final int received,
        final Header header) {
        return onMessage(buffer, offset, received, header, null);
    }

    /**
     * One message from the wire ({@code header} its fragment's) or from this node itself (no header: never a chunk);
     * {@code own}: the buffer is the message's own, so a large frame is handed over without a copy.
     */
    private ControlledFragmentHandler.Action onMessage(final DirectBuffer buffer, final int offset, final int received,
        final Header header, final DirectBuffer ownFrame) {
        final int length = authenticator.verify(buffer, offset, received);
        if (length < 0) {
            if (length == FrameAuthenticator.REFUSED_JOIN) {
                errorHandler.onError(refusedJoin); // logged once, then counted: the operator sees who knocks
            }
            return ControlledFragmentHandler.Action.CONTINUE; // counted by the authenticator
        }
        final boolean isChunk = (buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF) == ChunkFlyweight.TYPE;
        if (!isChunk) {
            if ((buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF) == CONTINUES_TYPE &&
                length == StreamContinuesFlyweight.FRAME_LENGTH) {
                return onStreamContinues(buffer, offset, received, header);
            }
            reportSkipped(buffer, offset);
            if ((buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF) == PROBE_TYPE && length == HeaderFlyweight.HEADER_LENGTH) {
                traffic.onReceived(PROBE_TYPE, length);
                return ControlledFragmentHandler.Action.CONTINUE; // its sequence number was its message
            }
        }
        final int type = validator.validateHeader(buffer, offset, length);
        if (type == FrameValidator.INVALID) {
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (type != ChunkFlyweight.TYPE) {
            traffic.onReceived(type, length);
            if (length > FrameHandler.OWN_BUFFER_MIN_BYTES) {
                if (ownFrame != null) {
                    // this node's frame to itself, alone in an off-heap frame of its own (the self link releases it
                    // after this call; a handler that keeps it took a reference of its own)
                    frameHandler.onFrame(type, ownFrame, 0, length);
                } else {
                    // a large frame a peer sent unchunked (its term is larger): handlers may keep large frames
                    final OffHeapFrame own = offHeapMemory.allocate(length);
                    try {
                        SlicedCopy.copy(own, 0, buffer, offset, length);
                        frameHandler.onFrame(type, own, 0, length);
                    } finally {
                        own.release(); // a handler that keeps it took a reference of its own
                    }
                }
            } else {
                frameHandler.onFrame(type, buffer, offset, length);
            }
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        if (!validator.validateBody(chunk, ChunkFlyweight.MIN_BODY_LENGTH, buffer, offset, length)) {
            traffic.onReceived(type, length);
            return ControlledFragmentHandler.Action.CONTINUE;
        }
        final UnsafeBuffer whole = reassembler.onChunk(header.sessionId(), buffer, offset, length);
        if (whole == Reassembler.LATER) {
            authenticator.unaccept(buffer, offset, received); // it comes again, and must pass again
            return ControlledFragmentHandler.Action.ABORT;
        }
        reportSkipped(buffer, offset);
        traffic.onReceived(type, length);
        if (whole != null) {
            try {
                final int wholeType = validator.validateHeader(whole, 0, whole.capacity());
                if (wholeType == ChunkFlyweight.TYPE) {
                    FrameCounters.count(validator.counters().badChunk);
                } else if (wholeType != FrameValidator.INVALID) {
                    traffic.onReceived(wholeType, whole.capacity());
                    frameHandler.onFrame(wholeType, whole, 0, whole.capacity());
                }
            } finally {
                OffHeapFrame.releaseIfOffHeap(whole); // the reassembler's reference, handed over; keepers took their own
            }
        }
        return ControlledFragmentHandler.Action.CONTINUE;
    }

    /**
     * A STREAM_CONTINUES, authentic: the first frame of a publication that continues the stream of one its sender closed
     * idle, whose session it names. A gap before it is the closed publication's tail: while that image is still here
     * the tail may yet come through it (two images, no order between them), so the frame stays in its stream, and so
     * does all that follows it on the new publication, until the gap is filled or the image is gone (drained after the
     * sender's end, or timed out). A gap then left is lost, reported as any sequence skip. Dropped after the check.
     */
    /**
     * Whether an image with the closed session's id is still here and the continuation has not been held for
     * {@link #CONTINUATION_HOLD_LIMIT_NS} yet. The limit bounds the hold where that image is not the closed stream's:
     * session ids are unique per driver, not across drivers, so another sender's long-lived image may have the id (its
     * source cannot tell them apart: a sender's new publication may leave from a new port once the old one's send
     * endpoint closed), and Aeron's heartbeats, which keep an image alive, are not authenticated. Past the limit the
     * gap is judged, a loss if still open.
     */
    private boolean closedImageMayBringTail(final int closedSessionId, final int sessionId) {
        if (subscription.imageBySessionId(closedSessionId) == null) {
            return false;
        }
        final long heldSinceNs = heldContinuations.get(sessionId);
        return heldSinceNs == NOT_HELD || System.nanoTime() - heldSinceNs < CONTINUATION_HOLD_LIMIT_NS;
    }

    private ControlledFragmentHandler.Action onStreamContinues(final DirectBuffer buffer, final int offset,
        final int received, final Header header) {
        if (header != null && authenticator.lostBeforeAccepted() > 0) {
            final int closedSessionId = buffer.getInt(offset + StreamContinuesFlyweight.CLOSED_SESSION_ID_OFFSET,
                HeaderFlyweight.BYTE_ORDER);
            if (closedSessionId != header.sessionId() && closedImageMayBringTail(closedSessionId, header.sessionId())) {
                authenticator.unaccept(buffer, offset, received); // it comes again, and must pass again
                if (heldContinuations.get(header.sessionId()) == NOT_HELD) {
                    heldContinuations.put(header.sessionId(), System.nanoTime()); // rare: a gap, and its image still here
                    TrafficCounters.add(traffic.continuationsHeld, 1);
                }
                return ControlledFragmentHandler.Action.ABORT;
            }
        }
        if (header != null && !heldContinuations.isEmpty()) {
            heldContinuations.remove(header.sessionId());
        }
        reportSkipped(buffer, offset);
        traffic.onReceived(CONTINUES_TYPE, StreamContinuesFlyweight.FRAME_LENGTH);
        return ControlledFragmentHandler.Action.CONTINUE; // its sequence number and the image it waited for were its message
    }

    /**
     * Counts and reports the messages a skip in the sequence of the message just taken says never arrived: once
     * per skip (a message left in its stream for later is not taken yet). The {@link LossListener} hears of it, so
     * the loss is handled as a failure (membership reports it to the registry).
     */
    private void reportSkipped(final DirectBuffer buffer, final int offset) {
        final long skipped = authenticator.lostBeforeAccepted();
        if (skipped > 0) {
            authenticator.countSkipped();
            final int senderId = buffer.getInt(offset + HeaderFlyweight.SENDER_ID_OFFSET, HeaderFlyweight.BYTE_ORDER);
            errorHandler.onError(new DivvyException("messages lost in transit: " + skipped + " from node " + senderId +
                " never arrived (their sequence numbers were skipped: Aeron gave up on the stream and a new one started " +
                "later in it, or this node dropped them); nothing is sent again, so the loss is reported to the " +
                "registry, which declares this node or that one dead and their work is recovered"));
            lossListener.onReceiveLoss(senderId, skipped);
        }
    }

    /** A JOIN whose tag fails under the join key: reported through the error log, which logs it once and counts. */
    private final RefusedFrameException refusedJoin = new RefusedFrameException("a join-handshake frame failed " +
        "authentication: a process with another cluster secret (or none) is trying to join; if it should, give it " +
        "this run's secret ($" + ClusterSecret.ENVIRONMENT_VARIABLE + " or --secret-file)");

    private void onUnavailableImage(final Image image) {
        if (image.subscription() == subscription) {
            reassembler.onStreamClosed(image.sessionId());
            heldContinuations.remove(image.sessionId()); // its held first frame went with it (its sender is gone)
        }
    }

    /** Every endpoint is an Aeron UDP channel's port: a datagram to a closed one is answered by its host. */
    @Override
    public boolean endpointsAreUdpPorts() {
        return true;
    }

    /**
     * The link to {@code peerEndpoint} ("host:port"), created (without a publication yet) on first use; to this node's
     * own endpoint, a {@link SelfLink} (frames handed over in process, not through the driver).
     */
    @Override
    public int linkTo(final String peerEndpoint) {
        if (peerEndpoint.equals(endpoint)) {
            if (selfLink == null) {
                selfLink = new SelfLink(links.size(), endpoint, maxOutboundBytesPerPeer, traffic, authenticator, offHeapMemory);
                links.add(null); // the id is the self link's; every loop over links skips it
            }
            return selfLink.linkId();
        }
        Link link = linkByEndpoint.get(peerEndpoint);
        if (link == null) {
            // A routed peer (e.g. behind a WAN relay) is still known by its own endpoint; only datagrams go via the route.
            final String channel = "aeron:udp?endpoint=" + peerRoutes.getOrDefault(peerEndpoint, peerEndpoint) +
                "|term-length=" + termLengthBytes;
            link = new Link(links.size(), peerEndpoint, channel, STREAM_ID, maxOutboundBytesPerPeer, aeron, traffic,
                authenticator, endpoint -> lossListener.onSendLoss(endpoint), offHeapMemory,
                resolver == null ? Link.NOTHING : resolver::expectWork);
            links.add(link);
            linkByEndpoint.put(peerEndpoint, link);
        }
        return link.linkId();
    }

    /**
     * Sends one whole frame (header included) to a link, chunked if it is above the publication's
     * maximum message length.
     *
     * @return false if it was dropped (too large, or the link's queue is full); counted either way.
     */
    @Override
    public boolean send(final int linkId, final DirectBuffer buffer, final int offset, final int length) {
        return send(linkId, buffer, offset, length, false);
    }

    /** As {@link #send}, but a message that must wait is kept, not copied: the caller hands {@code buffer} over. */
    @Override
    public boolean sendOwned(final int linkId, final DirectBuffer buffer, final int length) {
        return send(linkId, buffer, 0, length, true);
    }

    private boolean send(final int linkId, final DirectBuffer buffer, final int offset, final int length, final boolean owned) {
        if (length > maxMessageBytes || length < HeaderFlyweight.HEADER_LENGTH) {
            TrafficCounters.add(traffic.droppedTooLarge, 1);
            return false;
        }
        final Link link = links.get(linkId);
        if (link == null) { // the self link: the driver has nothing to send for it
            final boolean taken = selfLink.send(buffer, offset, length);
            if (taken && owned) {
                OffHeapFrame.releaseIfOffHeap(buffer); // copied: the reference handed over is given back
            }
            return taken;
        }
        sentSinceDriverStep = true;
        try {
            return link.send(buffer, offset, length, owned);
        } catch (final RuntimeException e) {
            // Creating a peer's publication can fail (an endpoint the driver cannot resolve, a driver timeout):
            // the message is not sent, which the caller handles like a full queue; it never throws to a mechanism.
            TrafficCounters.add(traffic.sendErrors, 1);
            errorHandler.onError(e);
            return false;
        }
    }

    @Override
    public void lossListener(final LossListener listener) {
        this.lossListener = listener;
    }

    @Override
    public void useRunKey(final int runKeyId) {
        authenticator.useRunKey(runKeyId);
    }

    @Override
    public AuthenticationCounters authenticationCounters() {
        return authenticator.counters();
    }

    @Override
    public long queuedBulkBytes(final int linkId) {
        final Link link = links.get(linkId);
        return link == null ? 0 : link.queuedBulkBytes();
    }

    @Override
    public OffHeapMemory offHeapMemory() {
        return offHeapMemory;
    }

    @Override
    public boolean isReceivingLargeMessage() {
        return reassembler.bytesInUse() > 0;
    }

    /** Whether the link's publication is connected to the peer's subscription. */
    public boolean isConnected(final int linkId) {
        final Link link = links.get(linkId);
        return link == null || link.isConnected(); // the self link is always there
    }

    /** Messages waiting in a link's queue. */
    public int queuedMessages(final int linkId) {
        final Link link = links.get(linkId);
        return link == null ? 0 : link.queuedMessages(); // a frame to itself is in flight, as one a publication took
    }

    /** Whether any link still has messages waiting. */
    @Override
    public boolean hasQueued() {
        for (int i = 0, size = links.size(); i < size; i++) {
            final Link link = links.get(i);
            if (link != null && link.hasQueued()) {
                return true;
            }
        }
        return false;
    }

    /** Retries queued messages of every link, up to {@code limitPerLink} each; returns how many went out. */
    @Override
    public int doOutboundWork(final int limitPerLink) {
        int work = 0;
        final long nowNs = idlePublicationCloseNs > 0 ? System.nanoTime() : 0;
        for (int i = 0, size = links.size(); i < size; i++) {
            final Link link = links.get(i);
            if (link == null) {
                continue; // the self link: nothing waits for a publication
            }
            try {
                if (idlePublicationCloseNs > 0) {
                    link.closeIfIdle(nowNs, idlePublicationCloseNs, owedContinuationAfterNs); // housekeeping, not work: an idle agent stays idle
                    final int continued = link.sendOwedContinuation(nowNs);
                    sentSinceDriverStep |= continued > 0;
                    work += continued;
                }
                final int probes = link.checkConnection();
                sentSinceDriverStep |= probes > 0; // so this cycle's end steps send it, not the next cycle's first
                work += probes;
            } catch (final RuntimeException e) {
                TrafficCounters.add(traffic.sendErrors, 1);
                errorHandler.onError(e);
            }
            if (link.hasQueued()) {
                sentSinceDriverStep = true;
                try {
                    work += link.drain(limitPerLink);
                } catch (final RuntimeException e) {
                    TrafficCounters.add(traffic.sendErrors, 1); // as in send: the queue waits for the next cycle
                    errorHandler.onError(e);
                }
            }
        }
        return work;
    }

    /**
     * Closes a link's publication (the peer died or left) and drops what is queued for it. The link id
     * stays valid: a later send opens a new publication.
     *
     * @return how many queued messages were dropped (counted in {@link TrafficCounters#droppedPeerGone}).
     */
    @Override
    public int closeLinkTo(final String peerEndpoint) {
        if (selfLink != null && peerEndpoint.equals(endpoint)) {
            return selfLink.close();
        }
        final Link link = linkByEndpoint.get(peerEndpoint);
        return link == null ? 0 : link.close();
    }

    @Override
    public int closeLink(final int linkId) {
        final Link link = links.get(linkId);
        return link == null ? selfLink.close() : link.close();
    }

    /** Closes publications, subscription, client and the embedded driver (which deletes its directory). */
    @Override
    public void close() {
        for (final Link link : links) {
            if (link != null) {
                link.close();
            }
        }
        if (selfLink != null) {
            selfLink.close();
        }
        CloseHelper.quietCloseAll(subscription, aeron, driver, reassembler, offHeapMemory, datagramWait);
    }

    @Override
    public DatagramWait datagramWait() {
        return datagramWait;
    }

    /** The embedded driver's resolver thread's idle strategy, or null (tests). */
    ResolverIdleStrategy resolver() {
        return resolver;
    }
}
