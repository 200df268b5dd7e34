package org.divvy.membership;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;
import org.divvy.agent.MemberDirectory;

/**
 * A node's member table as the registry last listed it: every member with its state, site and endpoint,
 * this node's id and the list's epoch, and the alive others by site, from which stealing draws victims
 * uniformly. The arrays are rebuilt on each (rare) change. Written by {@link MembershipClient}; read by
 * the agent (routing, the cut rule) and the mechanisms.
 *
 * <p>Owned by the network agent thread.
 */
public final class Members implements MemberDirectory {
    private static final int[] NONE = new int[0];

    private final String selfSite;
    private final Int2ObjectHashMap<Member> byId = new Int2ObjectHashMap<>();
    private int selfId = -1;
    private int epoch = -1;
    private int[] others = NONE;
    private int[] sameSite = NONE;
    private int[] otherSites = NONE;

    public Members(final String selfSite) {
        this.selfSite = selfSite;
    }

    /** Membership only (and tests): this node's id, once the registry assigned it. */
    public void selfId(final int selfId) {
        this.selfId = selfId;
        rebuild();
    }

    void epoch(final int epoch) {
        this.epoch = epoch;
    }

    /** Records a member's new state; returns whether anything changed. */
    public boolean update(final Member member) {
        final Member known = byId.get(member.id());
        if (member.equals(known)) {
            return false;
        }
        byId.put(member.id(), member);
        rebuild();
        return true;
    }

    @Override
    public int selfId() {
        return selfId;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    /** The member with {@code id}, or null if never listed. */
    public Member member(final int id) {
        return byId.get(id);
    }

    /** A copy of the known members, ordered by id. */
    public List<Member> list() {
        final List<Member> copy = new ArrayList<>(byId.values());
        copy.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return copy;
    }

    public boolean isAlive(final int id) {
        final Member m = byId.get(id);
        return m != null && m.isAlive();
    }

    @Override
    public String aliveEndpoint(final int nodeId) {
        final Member m = byId.get(nodeId);
        return m != null && m.isAlive() ? m.endpoint() : null;
    }

    @Override
    public int senderStatus(final int senderId) {
        final Member m = byId.get(senderId);
        return m == null ? UNKNOWN : m.isAlive() ? MEMBER : DEAD;
    }

    /** Alive members, this node included. */
    public int aliveCount() {
        int n = 0;
        for (final Member m : byId.values()) {
            if (m.isAlive()) {
                n++;
            }
        }
        return n;
    }

    /** Whether {@code id} is a member of this node's site. */
    public boolean inOwnSite(final int id) {
        final Member m = byId.get(id);
        return m != null && m.site().equals(selfSite);
    }

    @Override
    public int[] aliveOthers() {
        return others;
    }

    public int othersCount() {
        return others.length;
    }

    public int sameSiteCount() {
        return sameSite.length;
    }

    public int otherSitesCount() {
        return otherSites.length;
    }

    /** A uniform alive member other than this node; call only when {@link #othersCount()} > 0. */
    public int randomOther(final Random random) {
        return others[random.nextInt(others.length)];
    }

    /** A uniform alive member of the own site other than this node. */
    public int randomInSite(final Random random) {
        return sameSite[random.nextInt(sameSite.length)];
    }

    /** The {@code index}-th alive member of the other sites, in id order ({@code 0 <= index < otherSitesCount()}). */
    public int remoteAt(final int index) {
        return otherSites[index];
    }

    /** A uniform alive member among all nodes of all other sites. */
    public int randomRemote(final Random random) {
        return otherSites[random.nextInt(otherSites.length)];
    }

    private void rebuild() {
        final IntArrayList all = new IntArrayList();
        final IntArrayList site = new IntArrayList();
        final IntArrayList remote = new IntArrayList();
        for (final Member m : byId.values()) {
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
        Arrays.sort(a); // a fixed order, so a seeded Random picks the same victims every time
        return a;
    }
}
