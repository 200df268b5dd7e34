/**
 * WAN emulation in user space (the kernel here has no netem): {@link org.divvy.perf.wan.WanRelay} is a UDP
 * relay placed between two sites. Each link listens on a local port, forwards what arrives there to a
 * target address and relays the replies back, each direction impaired by its own
 * {@link org.divvy.perf.wan.WanLinkConfig}: one-way delay with jitter, a bandwidth cap (token bucket)
 * with a bounded queue, and seeded random loss.
 *
 * <p>Threading: one relay thread owns every socket, shaper and queue; other threads only read the
 * {@link org.divvy.perf.wan.WanLinkCounters} and call {@code close()}. The thread blocks in the selector
 * when nothing is due, so an idle relay uses no CPU.
 */
package org.divvy.perf.wan;
