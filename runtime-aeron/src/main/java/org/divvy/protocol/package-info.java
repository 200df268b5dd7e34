/**
 * What every frame shares: the versioned {@link org.divvy.protocol.HeaderFlyweight header}, the
 * {@link org.divvy.protocol.FrameValidator} that checks a received frame before any field of it is read,
 * and the {@link org.divvy.protocol.FrameCounters} of dropped frames. Each message type's flyweight lives
 * in the package of the mechanism that owns the message (membership, stealing, results, lifecycle; CHUNK in
 * transport), with its type code as {@code TYPE}; the header-only types (LEAVE, HEARTBEAT, RUN_ENDED), and RUN_STARTED and RUN_RESUMED (the
 * header and a run id), have their codes in their mechanism's message class.
 *
 * <p>Flyweights hold no state beyond the buffer they wrap: each is owned by one thread (the network
 * agent) and re-wrapped per frame, so encoding and decoding allocate nothing except the strings a caller
 * asks for. {@link org.divvy.protocol.FrameCounters} are written by the agent thread only and may be read
 * by any.
 */
package org.divvy.protocol;
