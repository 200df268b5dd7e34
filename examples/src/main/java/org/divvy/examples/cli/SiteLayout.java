package org.divvy.examples.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import org.divvy.NodeSettings;

/**
 * Which site (cluster) each local node of {@code divvy run} belongs to, from {@code --sites A:2,B:2}:
 * nodes 0..1 are in site A, nodes 2..3 in site B. Without {@code --sites} every node is in one site.
 * Immutable.
 */
public final class SiteLayout {
    /** The site of every node when {@code --sites} is not given: the runtime's default label. */
    public static final String DEFAULT_SITE = NodeSettings.SITE.defaultValue();

    private final List<String> siteOfNode;

    private SiteLayout(final List<String> siteOfNode) {
        this.siteOfNode = List.copyOf(siteOfNode);
    }

    /** Every one of {@code nodes} nodes in site {@value #DEFAULT_SITE}. */
    public static SiteLayout single(final int nodes) {
        checkNodes(nodes);
        final List<String> sites = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            sites.add(DEFAULT_SITE);
        }
        return new SiteLayout(sites);
    }

    /**
     * Parses {@code spec} ({@code NAME:COUNT[,NAME:COUNT...]}) for {@code nodes} nodes; null or empty
     * means {@link #single(int)}. Throws {@link IllegalArgumentException} naming the bad part: a
     * missing count, a count below 1, a repeated or malformed name, or counts not adding up to
     * {@code nodes}.
     */
    public static SiteLayout parse(final String spec, final int nodes) {
        checkNodes(nodes);
        if (spec == null || spec.isBlank()) {
            return single(nodes);
        }
        final List<String> names = new ArrayList<>();
        final List<Integer> counts = new ArrayList<>();
        long total = 0;
        for (final String part : spec.split(",", -1)) {
            final int colon = part.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("--sites=" + spec + ": '" + part
                    + "' must be NAME:COUNT, e.g. --sites A:2,B:2");
            }
            final String name = part.substring(0, colon).trim();
            final String countText = part.substring(colon + 1).trim();
            final String violation = NodeSettings.SITE.violation(name);
            if (violation != null) {
                throw new IllegalArgumentException("--sites=" + spec + ": site name '" + name + "' " + violation);
            }
            if (names.contains(name)) {
                throw new IllegalArgumentException("--sites=" + spec + ": site '" + name + "' is listed twice");
            }
            final int count;
            try {
                count = Integer.parseInt(countText);
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException("--sites=" + spec + ": count '" + countText + "' of site " + name
                    + " must be an integer >= 1");
            }
            if (count < 1) {
                throw new IllegalArgumentException("--sites=" + spec + ": count " + count + " of site " + name
                    + " must be >= 1");
            }
            names.add(name);
            counts.add(count);
            total += count;
        }
        if (total != nodes) {
            throw new IllegalArgumentException("--sites=" + spec + " counts add up to " + total
                + ", must equal --nodes=" + nodes);
        }
        final List<String> sites = new ArrayList<>(nodes);
        for (int s = 0; s < names.size(); s++) {
            for (int i = 0; i < counts.get(s); i++) {
                sites.add(names.get(s));
            }
        }
        return new SiteLayout(sites);
    }

    /** The number of nodes laid out. */
    public int nodes() {
        return siteOfNode.size();
    }

    /** The site of local node {@code node} (0 is the {@code run} process itself). */
    public String siteOf(final int node) {
        if (node < 0 || node >= siteOfNode.size()) {
            throw new IndexOutOfBoundsException("node=" + node + ", must be in [0, " + siteOfNode.size() + ")");
        }
        return siteOfNode.get(node);
    }

    /** The distinct site names, in order of first appearance. */
    public List<String> sites() {
        return List.copyOf(new LinkedHashSet<>(siteOfNode));
    }

    @Override
    public String toString() {
        final StringBuilder text = new StringBuilder();
        for (final String site : sites()) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(site).append(':').append(siteOfNode.stream().filter(site::equals).count());
        }
        return text.toString();
    }

    private static void checkNodes(final int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes=" + nodes + ", must be >= 1");
        }
    }
}
