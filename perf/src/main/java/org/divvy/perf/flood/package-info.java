/**
 * Floods of Aeron-shaped garbage: {@link org.divvy.perf.flood.AeronGarbage} sends them to a node's UDP
 * port, {@link org.divvy.perf.flood.FloodStall} measures how long they stall a node's network agent.
 */
package org.divvy.perf.flood;
