package org.divvy.perf.flood;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.SplittableRandom;

import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.HeaderFlyweight;
import io.aeron.protocol.NakFlyweight;
import io.aeron.protocol.RttMeasurementFlyweight;
import io.aeron.protocol.SetupFlyweight;
import io.aeron.protocol.StatusMessageFlyweight;

/**
 * Aeron-shaped garbage, as an attacker on the same network sends it to a node's UDP port: random bytes,
 * random but well-formed Aeron frames (DATA, PAD, SM, NAK, SETUP, RTTM) and SETUP frames that try to make
 * the receiver create images, with random session ids, stream ids (Divvy's among them), term lengths,
 * initial term ids and MTUs. Some SETUPs carry exactly the {@code plausible} term length and MTU a node
 * accepts, so a bound on images is exercised too, not only a check of the values.
 *
 * <p>One datagram buffer, reused; {@link #send} sends as fast as the socket takes them (100,000 datagrams
 * in well under a second on loopback). Not thread safe: one sender thread.
 */
public final class AeronGarbage implements AutoCloseable {
    /** Divvy's Aeron stream id (the transport's {@code STREAM_ID}). */
    public static final int DIVVY_STREAM_ID = 0xD1;
    private static final int MAX_DATAGRAM = 1_408;
    private static final int MIN_TERM_LENGTH = 64 * 1024;
    private static final int MAX_TERM_LENGTH = 1 << 30;

    /** What one datagram was. */
    public enum Kind {
        /** Random bytes of a random length. */
        RANDOM_BYTES,
        /** A random Aeron frame type (DATA, PAD, SM, NAK, RTTM or a stray type) with well-formed length and random fields. */
        RANDOM_FRAME,
        /** A SETUP with random, mostly invalid or oversized, parameters. */
        RANDOM_SETUP,
        /** A SETUP on Divvy's stream with the term length and MTU a node expects and a random session id. */
        PLAUSIBLE_SETUP
    }

    private final DatagramChannel channel;
    private final SplittableRandom random;
    private final int plausibleTermLength;
    private final int plausibleMtu;
    private final ByteBuffer datagram = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final HeaderFlyweight header = new HeaderFlyweight(datagram);
    private final DataHeaderFlyweight data = new DataHeaderFlyweight(datagram);
    private final SetupFlyweight setup = new SetupFlyweight(datagram);
    private final StatusMessageFlyweight statusMessage = new StatusMessageFlyweight(datagram);
    private final NakFlyweight nak = new NakFlyweight(datagram);
    private final RttMeasurementFlyweight rttm = new RttMeasurementFlyweight(datagram);
    private final long[] sentByKind = new long[Kind.values().length];

    /**
     * @param target              the node's UDP endpoint.
     * @param plausibleTermLength the term length a node is configured with (e.g. 256 KiB).
     * @param plausibleMtu        the MTU its peers use (Aeron's default 1408).
     */
    public AeronGarbage(final InetSocketAddress target, final long seed, final int plausibleTermLength,
        final int plausibleMtu) throws IOException {
        this.channel = DatagramChannel.open();
        this.channel.connect(target);
        this.random = new SplittableRandom(seed);
        this.plausibleTermLength = plausibleTermLength;
        this.plausibleMtu = plausibleMtu;
    }

    /**
     * Sends {@code count} datagrams, a random mix of every {@link Kind}.
     *
     * @return how many were sent (a loopback socket may refuse some while the target's buffer is full).
     */
    public long send(final long count) throws IOException {
        long sent = 0;
        for (long i = 0; i < count; i++) {
            final Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
            final int length = switch (kind) {
                case RANDOM_BYTES -> randomBytes();
                case RANDOM_FRAME -> randomFrame();
                case RANDOM_SETUP -> setup(randomSessionId(), randomStreamId(), randomTermLength(), randomMtu());
                case PLAUSIBLE_SETUP -> setup(randomSessionId(), DIVVY_STREAM_ID, plausibleTermLength, plausibleMtu);
            };
            datagram.clear().limit(length);
            try {
                if (channel.write(datagram) > 0) {
                    sent++;
                    sentByKind[kind.ordinal()]++;
                }
            } catch (final java.net.PortUnreachableException e) {
                // ICMP from a port nobody listens on (yet or any more): keep flooding, as an attacker would
            }
        }
        return sent;
    }

    /** Datagrams of this kind sent so far. */
    public long sent(final Kind kind) {
        return sentByKind[kind.ordinal()];
    }

    private int randomBytes() {
        final int length = 1 + random.nextInt(MAX_DATAGRAM);
        for (int i = 0; i < length; i += 8) {
            header.putLong(i, random.nextLong());
        }
        return length;
    }

    private int randomFrame() {
        final int type = switch (random.nextInt(6)) {
            case 0 -> HeaderFlyweight.HDR_TYPE_DATA;
            case 1 -> HeaderFlyweight.HDR_TYPE_PAD;
            case 2 -> HeaderFlyweight.HDR_TYPE_SM;
            case 3 -> HeaderFlyweight.HDR_TYPE_NAK;
            case 4 -> HeaderFlyweight.HDR_TYPE_RTTM;
            default -> random.nextInt(16); // any type code, the rare ones (ERR, RES, ATS...) included
        };
        int length;
        switch (type) {
            case HeaderFlyweight.HDR_TYPE_DATA, HeaderFlyweight.HDR_TYPE_PAD -> {
                length = DataHeaderFlyweight.HEADER_LENGTH + random.nextInt(MAX_DATAGRAM - DataHeaderFlyweight.HEADER_LENGTH + 1);
                randomBytes();
                data.termOffset(random.nextInt(plausibleTermLength) & ~31)
                    .sessionId(randomSessionId()).streamId(randomStreamId()).termId(random.nextInt());
                data.reservedValue(random.nextLong());
            }
            case HeaderFlyweight.HDR_TYPE_SM -> {
                length = StatusMessageFlyweight.HEADER_LENGTH;
                statusMessage.sessionId(randomSessionId()).streamId(randomStreamId())
                    .consumptionTermId(random.nextInt()).consumptionTermOffset(random.nextInt())
                    .receiverWindowLength(random.nextInt()).receiverId(random.nextLong());
            }
            case HeaderFlyweight.HDR_TYPE_NAK -> {
                length = NakFlyweight.HEADER_LENGTH;
                nak.sessionId(randomSessionId()).streamId(randomStreamId()).termId(random.nextInt())
                    .termOffset(random.nextInt()).length(random.nextInt());
            }
            case HeaderFlyweight.HDR_TYPE_RTTM -> {
                length = RttMeasurementFlyweight.HEADER_LENGTH;
                // receiver id 0 is "any receiver": the one an endpoint answers, so half of them use it
                rttm.sessionId(randomSessionId()).streamId(randomStreamId()).echoTimestampNs(random.nextLong())
                    .receptionDelta(random.nextLong()).receiverId(random.nextBoolean() ? 0 : random.nextLong());
            }
            default -> length = HeaderFlyweight.MIN_HEADER_LENGTH + randomBytes() % 64;
        }
        header.version(HeaderFlyweight.CURRENT_VERSION).flags((short)random.nextInt(256)).headerType(type)
            .frameLength(length);
        return length;
    }

    private int setup(final int sessionId, final int streamId, final int termLength, final int mtu) {
        final int initialTermId = random.nextInt();
        final int termOffset = termLength > 0 ? random.nextInt(Math.min(termLength, MAX_TERM_LENGTH)) & ~31 : random.nextInt();
        header.version(HeaderFlyweight.CURRENT_VERSION).flags((short)0).headerType(HeaderFlyweight.HDR_TYPE_SETUP)
            .frameLength(SetupFlyweight.HEADER_LENGTH);
        setup.termOffset(termOffset).sessionId(sessionId).streamId(streamId).initialTermId(initialTermId)
            .activeTermId(initialTermId + random.nextInt(4)).termLength(termLength).mtuLength(mtu)
            .ttl(random.nextInt(256));
        return SetupFlyweight.HEADER_LENGTH;
    }

    private int randomSessionId() {
        return random.nextInt();
    }

    private int randomStreamId() {
        return random.nextInt(3) == 0 ? random.nextInt() : DIVVY_STREAM_ID;
    }

    /** Half valid powers of two from 64 KiB to 1 GiB (images an attacker sizes), half anything. */
    private int randomTermLength() {
        if (random.nextBoolean()) {
            return MIN_TERM_LENGTH << random.nextInt(Integer.numberOfTrailingZeros(MAX_TERM_LENGTH / MIN_TERM_LENGTH) + 1);
        }
        return random.nextInt();
    }

    /** Half multiples of 32 in Aeron's MTU range, half anything. */
    private int randomMtu() {
        return random.nextBoolean() ? 32 * (1 + random.nextInt(65_504 / 32)) : random.nextInt();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
