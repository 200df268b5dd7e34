package org.divvy.membership;

/**
 * One member as the registry lists it.
 *
 * @param id       the node id the registry assigned; never reused within a run.
 * @param site     the site (cluster) label given at start-up; stealing prefers the own site.
 * @param endpoint the {@code host:port} of the node's subscription.
 * @param state    alive, dead or left.
 */
public record Member(int id, String site, String endpoint, MemberState state) {
    public boolean isAlive() {
        return state == MemberState.ALIVE;
    }

    Member withState(final MemberState newState) {
        return new Member(id, site, endpoint, newState);
    }
}
