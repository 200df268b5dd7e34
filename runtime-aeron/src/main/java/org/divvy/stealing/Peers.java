package org.divvy.stealing;

import java.util.Random;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.divvy.membership.Member;

/**
 * The members a node may steal from, as the registry last listed them: every other alive member, those
 * of the own site and those of other sites. Victims are drawn uniformly from these arrays, which are
 * rebuilt on each (rare) membership change. Owned by the agent thread.
 */
final class Peers {
    private static final int[] NONE = new int[0];

    private final String selfSite;
    private final Int2ObjectHashMap<Member> members = new Int2ObjectHashMap<>();
    private int selfId = -1;
    private int[] others = NONE;
    private int[] sameSite = NONE;
    private int[] otherSites = NONE;

    Peers(final String selfSite) {
        this.selfSite = selfSite;
    }

    void selfId(final int selfId) {
        this.selfId = selfId;
        rebuild();
    }

    int selfId() {
        return selfId;
    }

    /** Records a member's new state. */
    void update(final Member member) {
        members.put(member.id(), member);
        rebuild();
    }

    /** The member with {@code id}, or null if never listed. */
    Member member(final int id) {
        return members.get(id);
    }

    boolean isAlive(final int id) {
        final Member m = members.get(id);
        return m != null && m.isAlive();
    }

    /** Alive members, this node included. */
    int aliveCount() {
        int n = 0;
        for (final Member m : members.values()) {
            if (m.isAlive()) {
                n++;
            }
        }
        return n;
    }

    /** Whether {@code id} is a member of this node's site. */
    boolean inOwnSite(final int id) {
        final Member m = members.get(id);
        return m != null && m.site().equals(selfSite);
    }

    int othersCount() {
        return others.length;
    }

    int sameSiteCount() {
        return sameSite.length;
    }

    int otherSitesCount() {
        return otherSites.length;
    }

    /** A uniform alive member other than this node; call only when {@link #othersCount()} > 0. */
    int randomOther(final Random random) {
        return others[random.nextInt(others.length)];
    }

    /** A uniform alive member of the own site other than this node. */
    int randomInSite(final Random random) {
        return sameSite[random.nextInt(sameSite.length)];
    }

    /** A uniform alive member among all nodes of all other sites. */
    int randomRemote(final Random random) {
        return otherSites[random.nextInt(otherSites.length)];
    }

    private void rebuild() {
        final IntArrayList all = new IntArrayList();
        final IntArrayList site = new IntArrayList();
        final IntArrayList remote = new IntArrayList();
        for (final Member m : members.values()) {
            if (!m.isAlive() || m.id() == selfId) {
                continue;
            }
            all.addInt(m.id());
            (m.site().equals(selfSite) ? site : remote).addInt(m.id());
        }
        others = sorted(all);
        sameSite = sorted(site);
        otherSites = sorted(remote);
    }

    private static int[] sorted(final IntArrayList list) {
        final int[] a = list.toIntArray();
        java.util.Arrays.sort(a); // a fixed order, so a seeded Random picks the same victims every time
        return a;
    }
}
