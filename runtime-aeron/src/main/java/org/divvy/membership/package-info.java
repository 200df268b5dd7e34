/**
 * Membership: which nodes are in the run, with their site labels and endpoints, and which of them
 * are alive. A {@link org.divvy.membership.Registry} (a role inside the first node by default, or
 * standalone through {@link org.divvy.membership.StandaloneRegistry}) assigns node ids, keeps the list
 * and its epoch, detects silent nodes with a {@link org.divvy.membership.FailureDetector} and sends
 * every change to every member. Each node runs a {@link org.divvy.membership.MembershipClient}: it
 * joins through a bootstrap address with a bounded deadline, heartbeats the registry, applies the lists
 * it receives, and tells whether a sender's traffic must be cut (thesis §3.1: once a peer is dead,
 * nothing from it is accepted).
 *
 * <p>All state is owned by the network agent thread that hosts it; the policy objects are pure and
 * driven by the {@code nowNs} the agent reads once per duty cycle, so tests use a fake clock.
 */
package org.divvy.membership;
