/**
 * Membership: which nodes are in the run, with their site labels and endpoints, and which of them
 * are alive. A {@link org.divvy.membership.Registry} (a role inside the first node by default, or
 * standalone through {@link org.divvy.membership.StandaloneRegistry}) assigns node ids, keeps the list
 * and its epoch, detects silent nodes with a {@link org.divvy.membership.PhiAccrualFailureDetector} and sends
 * every change to every member. Each node runs a {@link org.divvy.membership.MembershipClient}: it
 * joins through a bootstrap address with a bounded deadline, heartbeats the registry and watches it with
 * the same kind of detector, leaves when asked,
 * and applies the lists it receives to {@link org.divvy.membership.Members}, the member table the agent
 * routes by and cuts senders with (thesis §3.1: once a peer is dead, nothing from it is accepted). The
 * messages JOIN, MEMBER_LIST, HEARTBEAT and LEAVE are membership's ({@link org.divvy.membership.MembershipMessages}).
 *
 * <p>All state is owned by the network agent thread that hosts it (only a leave request comes from
 * another thread); the policy objects are driven by the {@code nowNs} the agent reads once per duty
 * cycle, so tests step them with a fake clock. Both the registry and the client notice a pause of their
 * own process ({@link org.divvy.membership.OwnPauseDetector}) before they suspect anyone.
 */
package org.divvy.membership;
