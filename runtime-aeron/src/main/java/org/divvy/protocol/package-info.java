/**
 * Divvy's wire protocol between nodes: one versioned {@link org.divvy.protocol.HeaderFlyweight header}
 * on every frame, one flyweight per message type, and the {@link org.divvy.protocol.FrameValidator}
 * that checks a received frame before any field of it is read.
 *
 * <p>Flyweights hold no state of their own beyond the buffer they wrap: each is owned by one thread
 * (the network agent on the receive side, a worker's proxy or the agent on the send side) and re-wrapped
 * per frame, so encoding and decoding allocate nothing except for the strings a caller asks for.
 * {@link org.divvy.protocol.FrameCounters} are written by the agent thread only and may be read by any.
 */
package org.divvy.protocol;
