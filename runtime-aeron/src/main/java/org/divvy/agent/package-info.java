/**
 * The network agent: an Agrona {@link org.agrona.concurrent.Agent} that is the only thread touching a
 * node's transport. Each duty cycle it reads the clock once, steps the transport, hands each received
 * frame to the {@link org.divvy.agent.MessageHandler} its mechanism registered with the
 * {@link org.divvy.agent.FrameDispatcher} (after checking its body and the membership cut rule), runs each
 * mechanism's {@link org.divvy.agent.Duty}, and derives deep idle from the work they report. It knows no
 * mechanism's logic: mechanisms send through the {@link org.divvy.agent.FrameSender} and receive through
 * their handlers, so nothing re-enters the agent.
 *
 * <p>The border with other threads is each mechanism's own inbox, drained by its duty (results and aborts
 * from workers, run starts, termination and leave from application threads); no frame is built off the
 * agent thread. State owned by the agent thread: everything here except the counters, which any thread may
 * read, and {@link org.divvy.agent.NetworkService}, which the node's owner starts and closes.
 */
package org.divvy.agent;
