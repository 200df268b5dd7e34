/**
 * The LAN/WAN harness: steal round-trip time against raw Aeron ping-pong, efficiency of random (RS)
 * and cluster-aware random stealing (CRS) across emulated wide-area sites, and the speedup of the real
 * examples on two nodes. {@link org.divvy.perf.lanwan.LanWanMain} runs them side by side and writes one
 * CSV and PNG charts. Figures from simulated leaves (parked workers) are labelled SIMULATED.
 */
package org.divvy.perf.lanwan;
