package org.divvy.perf.faults;

import java.util.List;

/**
 * One configuration the {@code faults} section runs each round: where the nodes are, whether orphan saving is on,
 * and what happens to them during the run. Adding a scenario is one more entry in {@link #all}, with a {@link Fault}
 * saying what the harness does to the nodes.
 *
 * @param id           short name, used in the CSV and charts
 * @param description  what it is, for the log and the README
 * @param sites        the sites of node 1..N-1 (node 0, the registry and submitter, is alone in site {@code R})
 * @param orphanSaving the node setting {@code --orphan-saving}
 * @param resultCopies result copies on (the default, {@code --result-copy-min-ms} 100) or off ({@code 0})
 * @param fault        what is done to the nodes during the run
 */
record Scenario(String id, String description, int sites, boolean orphanSaving, boolean resultCopies, Fault fault) {

    /** A scenario with result copies on, as nodes run by default. */
    Scenario(final String id, final String description, final int sites, final boolean orphanSaving, final Fault fault) {
        this(id, description, sites, orphanSaving, true, fault);
    }

    /** What happens during a run: a site stopped (SIGKILL: a crash; SIGTERM: a graceful leave), new nodes joined. */
    enum Fault {
        /** Nothing: a crash-free run. */
        NONE(null, false, false),
        /** At the stop time, every node of one site that does not hold the master is SIGKILLed (the last such site). */
        KILL_OTHER_SITE(Signal.SIGKILL, false, false),
        /** At the stop time, every node of the master's site is SIGKILLed, the master with them. */
        KILL_MASTER_SITE(Signal.SIGKILL, true, false),
        /** As KILL_OTHER_SITE, but SIGTERM: the site leaves gracefully (hands its kept results over first). */
        LEAVE_OTHER_SITE(Signal.SIGTERM, false, false),
        /**
         * Migration: at the stop time new nodes (as many as a site has) join a new site E (the launcher's
         * {@code --join-at}), and the migration lead later a site without the master leaves gracefully.
         */
        MIGRATE_OTHER_SITE(Signal.SIGTERM, false, true);

        private final Signal signal;
        private final boolean mastersSite;
        private final boolean joinsNewSite;

        Fault(final Signal signal, final boolean mastersSite, final boolean joinsNewSite) {
            this.signal = signal;
            this.mastersSite = mastersSite;
            this.joinsNewSite = joinsNewSite;
        }

        /** Whether a site is stopped during the run. */
        boolean stops() {
            return signal != null;
        }

        /** Whether the stop is a crash (SIGKILL), timed by the failure detector. */
        boolean kills() {
            return signal == Signal.SIGKILL;
        }

        /** How the site is stopped; null for NONE. */
        Signal signal() {
            return signal;
        }

        /** Whether the stopped site is the master's. */
        boolean mastersSite() {
            return mastersSite;
        }

        /** Whether new nodes join a new site (a migration). */
        boolean joinsNewSite() {
            return joinsNewSite;
        }

        /**
         * Seconds after the run started at which the site is stopped, for a stop time {@code atS}: a migration's old
         * site leaves {@code migrationLeadS} after the new one started (its JVMs start and join meanwhile).
         */
        double stopAtS(final double atS, final double migrationLeadS) {
            return joinsNewSite ? atS + migrationLeadS : atS;
        }
    }

    /** How the harness stops a site's node processes. */
    enum Signal {
        /** A crash. */
        SIGKILL,
        /** A graceful leave: the node's exit hook hands over what it kept, then leaves. */
        SIGTERM
    }

    /** The site new nodes join in a migration: after A-D. */
    static final String NEW_SITE = "E";

    /** The scenarios, in the order each round runs them. */
    static List<Scenario> all() {
        return List.of(
            new Scenario("4sites", "4 sites, crash-free, orphan saving on (the default)", 4, true, Fault.NONE),
            new Scenario("4sites-nosave", "4 sites, crash-free, orphan saving off", 4, false, Fault.NONE),
            new Scenario("4sites-nocopies", "4 sites, crash-free, result copies off (--result-copy-min-ms 0)", 4, true,
                false, Fault.NONE),
            new Scenario("3sites", "3 sites from the start, crash-free", 3, true, Fault.NONE),
            new Scenario("kill-site", "4 sites, one site without the master SIGKILLed at half the 4-site time, "
                + "orphan saving on", 4, true, Fault.KILL_OTHER_SITE),
            new Scenario("kill-site-nocopies", "as kill-site, result copies off: only orphan saving keeps the killed "
                + "site's work", 4, true, false, Fault.KILL_OTHER_SITE),
            new Scenario("kill-site-naive", "as kill-site, orphan saving off (naive: orphaned work recomputed)", 4,
                false, Fault.KILL_OTHER_SITE),
            new Scenario("kill-master-site", "4 sites, the master's site SIGKILLed at half the 4-site time, orphan "
                + "saving on (a new master re-runs the root, reusing saved orphans)", 4, true, Fault.KILL_MASTER_SITE),
            new Scenario("kill-master-site-naive", "as kill-master-site, orphan saving off (the new master recomputes "
                + "everything)", 4, false, Fault.KILL_MASTER_SITE),
            new Scenario("leave-site", "as kill-site, but the site leaves gracefully (SIGTERM: it hands its kept "
                + "results to a staying node, then leaves; no failure detection)", 4, true, Fault.LEAVE_OTHER_SITE),
            new Scenario("migrate-site", "4 sites; at half the 4-site time new nodes join a new site " + NEW_SITE
                + ", and a few seconds later (--migration-lead-s) a site without the master leaves gracefully",
                4, true, Fault.MIGRATE_OTHER_SITE));
    }

    /** The scenario named {@code id}. */
    static Scenario named(final String id) {
        return all().stream().filter(s -> s.id().equals(id)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no scenario " + id + "; known: "
                + all().stream().map(Scenario::id).toList()));
    }

    /** Site names of the computing sites: A, B, C, D... */
    static String siteName(final int index) {
        return String.valueOf((char)('A' + index));
    }

    /** {@code --sites} for {@code nodesPerSite} nodes in each of this scenario's sites, after node 0 alone in R. */
    String sitesFlag(final int nodesPerSite) {
        final StringBuilder b = new StringBuilder("R:1");
        for (int i = 0; i < sites; i++) {
            b.append(',').append(siteName(i)).append(':').append(nodesPerSite);
        }
        return b.toString();
    }

    /** Nodes of the run, node 0 included. */
    int nodes(final int nodesPerSite) {
        return 1 + sites * nodesPerSite;
    }
}
