/**
 * The network agent: an Agrona {@link org.agrona.concurrent.Agent} that owns a node's transport,
 * membership (and the registry role when the node hosts it) and routes frames between the wire and
 * the scheduler. It is the only thread that touches Aeron.
 *
 * <p>The narrow interface to the scheduler is here: workers call a {@link org.divvy.agent.NetworkProxy}
 * (one per worker thread), which writes commands into a many-to-one ring buffer; the agent drains them
 * in its duty cycle and sends frames. Inbound, the agent calls a {@link org.divvy.agent.RemoteWorkListener}
 * on its own thread; the scheduler's implementation must only enqueue and return.
 *
 * <p>State owned by the agent thread: everything in {@link org.divvy.agent.NetworkAgent}. Each proxy
 * is owned by its worker. Counters may be read from any thread.
 */
package org.divvy.agent;
