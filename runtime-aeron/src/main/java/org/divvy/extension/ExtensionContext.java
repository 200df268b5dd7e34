package org.divvy.extension;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.agrona.ErrorHandler;
import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameSender;
import org.divvy.agent.MessageHandler;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.agent.MemberDirectory;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.SharingHook;

/**
 * What a {@link NodeExtension} may use of its node: made by {@code NetworkNode} for each extension while
 * the node is assembled. Registration methods are called during {@link NodeExtension#install} only; the
 * sender and the member directory belong to the agent thread (duties and handlers).
 */
public final class ExtensionContext {
    private final NodeConfig config;
    private final FrameDispatcher dispatcher;
    private final FrameSender sender;
    private final MemberDirectory members;
    private final Scheduler scheduler;
    private final ErrorHandler errorHandler;
    private final Runnable agentWaker;
    private final CodecThread codec;
    private final List<Duty> duties = new ArrayList<>();
    private final List<BooleanSupplier> quiescence = new ArrayList<>();
    private SharedObjectContext sharedObjects;

    public ExtensionContext(final NodeConfig config, final FrameDispatcher dispatcher, final FrameSender sender,
        final MemberDirectory members, final Scheduler scheduler, final ErrorHandler errorHandler, final Runnable agentWaker,
        final CodecThread codec) {
        this.codec = codec;
        this.config = config;
        this.dispatcher = dispatcher;
        this.sender = sender;
        this.members = members;
        this.scheduler = scheduler;
        this.errorHandler = errorHandler;
        this.agentWaker = agentWaker;
    }

    public NodeConfig config() {
        return config;
    }

    /** Registers a message type from members only (the dispatcher checks the frame and the cut rule first). */
    public void register(final int type, final String name, final HeaderFlyweight body, final int minBodyLength,
        final MessageHandler handler) {
        dispatcher.register(type, name, body, minBodyLength, FrameDispatcher.Senders.MEMBERS, handler);
    }

    /** The node's codec thread: where an extension encodes a message too large to encode on the agent thread. */
    public CodecThread codec() {
        return codec;
    }

    /** How the extension sends, on the agent thread. */
    public FrameSender sender() {
        return sender;
    }

    /** The member table, on the agent thread: this node's id, who is alive. */
    public MemberDirectory members() {
        return members;
    }

    /** Adds a duty to the agent's cycle, after the node's own mechanisms. */
    public void duty(final Duty duty) {
        duties.add(duty);
    }

    /** The node is quiescent (may go into deep idle) only while {@code idle} is true too; asked on the agent thread. */
    public void quiescentWhen(final BooleanSupplier idle) {
        quiescence.add(idle);
    }

    public void sharingHook(final SharingHook hook) {
        scheduler.sharingHook(hook);
    }

    /** The table shared objects in jobs resolve through, set on the readers and writers of jobs that cross nodes. */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
    }

    public ErrorHandler errorHandler() {
        return errorHandler;
    }

    /** Wakes the agent from an idle park (any thread): work was put in an extension's outbox. */
    public void wakeAgent() {
        agentWaker.run();
    }

    /**
     * Wakes one parked idle worker, if any (any thread): something only a worker does arrived, such as writes from
     * other nodes to apply at a safe point. Without it an idle worker sees it when its park ends, up to
     * {@code idleDeepParkNs} later.
     */
    public void wakeIdleWorker() {
        scheduler.wakeIdleWorker();
    }

    // ---- NetworkNode ---------------------------------------------------------------------------------

    public List<Duty> duties() {
        return List.copyOf(duties);
    }

    public boolean isQuiescent() {
        for (final BooleanSupplier idle : quiescence) {
            if (!idle.getAsBoolean()) {
                return false;
            }
        }
        return true;
    }

    public SharedObjectContext sharedObjectContext() {
        return sharedObjects;
    }
}
