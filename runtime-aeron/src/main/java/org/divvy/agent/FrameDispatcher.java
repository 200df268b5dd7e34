package org.divvy.agent;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.divvy.DivvyException;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.transport.FrameHandler;
import org.divvy.transport.TrafficCounters;

/**
 * Routes received frames to the mechanism that registered their type: checks the body with the
 * flyweight registered for the type, applies the membership cut rule (thesis §3.1) unless the type is
 * registered for any sender, and calls the type's {@link MessageHandler}. Unregistered types, bad bodies
 * and cut senders are counted in {@link FrameCounters} and dropped; nothing here throws on bad input.
 *
 * <p>Registration happens while the node is assembled, before the agent thread starts (which publishes
 * the table to it); afterwards the table is only read, on the agent thread. The sum of what handlers
 * return is the cycle's work for the computation, taken by {@link #takeComputationWork()}.
 */
public final class FrameDispatcher implements FrameHandler {
    /** Who may send a type. */
    public enum Senders {
        /** Alive members only: frames from dead or unknown senders are cut before the handler runs. */
        MEMBERS,
        /** Anyone: membership's own messages (a joiner has no id yet), whose handler applies its own rule. */
        ANY
    }

    private static final int TYPE_CODES = TrafficCounters.TYPE_CODES;

    private final FrameValidator validator;
    private final FrameCounters counters;
    private final MemberDirectory members;
    private final String[] names = new String[TYPE_CODES];
    private final HeaderFlyweight[] bodies = new HeaderFlyweight[TYPE_CODES];
    private final int[] minBodyLengths = new int[TYPE_CODES];
    private final boolean[] membersOnly = new boolean[TYPE_CODES];
    private final MessageHandler[] handlers = new MessageHandler[TYPE_CODES];
    private int computationWork;

    /**
     * @param members the cut rule's source; null only where no type is registered for
     *                {@link Senders#MEMBERS} (a standalone registry).
     */
    public FrameDispatcher(final FrameCounters counters, final MemberDirectory members) {
        this.counters = counters;
        this.validator = new FrameValidator(counters);
        this.members = members;
    }

    /**
     * Reserves {@code type} for a message the transport handles itself (CHUNK): it never reaches a
     * handler, but its name shows in statistics and no mechanism may take its code.
     */
    public void reserve(final int type, final String name) {
        checkFree(type, name);
        names[type] = name;
    }

    /**
     * Registers the handler of one message type.
     *
     * @param type          the code in the header's type byte; each code is registered once.
     * @param name          for statistics and logs, e.g. {@code STEAL_REQUEST}.
     * @param body          a flyweight of the type, used only to check received bodies.
     * @param minBodyLength bytes after the header the type needs before any field is read.
     */
    public void register(final int type, final String name, final HeaderFlyweight body, final int minBodyLength,
        final Senders senders, final MessageHandler handler) {
        checkFree(type, name);
        if (senders == Senders.MEMBERS && members == null) {
            throw new DivvyException("message type " + name + " is for members only, but this dispatcher has no member directory");
        }
        names[type] = name;
        bodies[type] = body;
        minBodyLengths[type] = minBodyLength;
        membersOnly[type] = senders == Senders.MEMBERS;
        handlers[type] = handler;
    }

    private void checkFree(final int type, final String name) {
        if (type < 1 || type >= TYPE_CODES) {
            throw new DivvyException("message type " + name + "=" + type + ", must be in [1, " + (TYPE_CODES - 1) + "]");
        }
        if (names[type] != null) {
            throw new DivvyException("message type " + name + "=" + type + " is already registered as " + names[type]);
        }
    }

    /** The registered name of {@code type}, or {@code "type N"}. */
    String name(final int type) {
        final String name = type >= 0 && type < TYPE_CODES ? names[type] : null;
        return name != null ? name : "type " + type;
    }

    /** A copy of the names by code (null where none is registered), for statistics. */
    public String[] names() {
        return Arrays.copyOf(names, names.length);
    }

    public FrameCounters counters() {
        return counters;
    }

    @Override
    public void onFrame(final int type, final DirectBuffer buffer, final int offset, final int length) {
        final MessageHandler handler = handlers[type];
        if (handler == null) {
            FrameCounters.count(counters.unknownType);
            return;
        }
        if (!validator.validateBody(bodies[type], minBodyLengths[type], buffer, offset, length)) {
            return;
        }
        final int senderId = buffer.getInt(offset + HeaderFlyweight.SENDER_ID_OFFSET, HeaderFlyweight.BYTE_ORDER);
        if (membersOnly[type]) {
            final int status = members.senderStatus(senderId);
            if (status != MemberDirectory.MEMBER) {
                FrameCounters.count(status == MemberDirectory.UNKNOWN ? counters.fromUnknownSender : counters.fromDeadPeer);
                return;
            }
        }
        computationWork += handler.onMessage(senderId, buffer, offset, length);
    }

    /** The work for the computation the handlers reported since the last call; resets it. */
    int takeComputationWork() {
        final int work = computationWork;
        computationWork = 0;
        return work;
    }
}
