package org.divvy.examples.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.NodeSettings;

/**
 * The faults a {@code divvy run} injects, scripted on its command line as Satin's fault-tolerance
 * experiments scripted them, so every crash scenario is one command that does the same thing each time:
 * {@code --kill-at K@S} SIGKILLs local child node K at S seconds after the app started running ({@code
 * --kill-at master@S} the child that is the master then), {@code --kill-site NAME@S} every local child node of a
 * site, {@code --leave-at K@S} and {@code --leave-site NAME@S} make them leave gracefully instead (SIGTERM: the
 * node hands what it finished to a staying node, thesis §3.5), and {@code --join-at S[xCOUNT][@SITE]} starts COUNT
 * more local nodes that join the running computation (joining new nodes, then making old ones leave, is a
 * migration).
 * This class parses the flags and checks them against the run's layout, so a bad value is a usage error before
 * any node starts; {@link FaultInjector} does the events during the run.
 *
 * <p>The master is a child, so killing it is the takeover scenario. The syntax accepts any node index; the checks
 * then refuse node 0 (this process, which hosts the registry and prints the answer): surviving the registry's
 * death is future work. Immutable.
 */
public final class FaultSchedule {
    public static final String KILL_AT = "--kill-at";
    public static final String KILL_SITE = "--kill-site";
    public static final String JOIN_AT = "--join-at";
    public static final String LEAVE_AT = "--leave-at";
    public static final String LEAVE_SITE = "--leave-site";
    /** The latest time an event may have: a day after the app started. */
    static final long MAX_SECONDS = 86_400;
    /** As many local nodes as {@code --nodes} allows, joiners included. */
    static final int MAX_LOCAL_NODES = 1024;
    /** The node name {@code --kill-at} takes for the master: {@code --kill-at master@2}. */
    static final String MASTER = "master";
    /** Why node 0 cannot be killed. */
    static final String NODE_0_STAYS = "it hosts the registry (unless --join) and prints the answer, so it cannot "
        + "be killed (surviving the registry's death is future work)";
    /** Where the master is instead. */
    static final String MASTER_IS_A_CHILD = "the master is a child node: " + KILL_AT + " " + MASTER + "@S kills it";

    /** No faults. */
    public static final FaultSchedule NONE = new FaultSchedule(List.of());

    private static final Pattern SECONDS = Pattern.compile("[0-9]+(\\.[0-9]*)?|\\.[0-9]+");
    private static final Pattern JOIN = Pattern.compile("([^x@]*)(?:x([^@]*))?(?:@(.*))?");

    /** How a node is stopped: killed (a crash) or asked to leave (a graceful leave). */
    public enum Stop {
        /** SIGKILL: the node crashes; the others recover its work from what survivors kept. */
        KILL("kill", KILL_AT, KILL_SITE),
        /** SIGTERM: the node leaves gracefully and hands its finished work to a staying node first. */
        LEAVE("make leave", LEAVE_AT, LEAVE_SITE);

        private final String verb;
        private final String nodeFlag;
        private final String siteFlag;

        Stop(final String verb, final String nodeFlag, final String siteFlag) {
            this.verb = verb;
            this.nodeFlag = nodeFlag;
            this.siteFlag = siteFlag;
        }

        /** {@code kill}, {@code make leave}: for the run's schedule line. */
        public String verb() {
            return verb;
        }

        /** {@code --kill-at} or {@code --leave-at}. */
        public String nodeFlag() {
            return nodeFlag;
        }

        /** {@code --kill-site} or {@code --leave-site}. */
        public String siteFlag() {
            return siteFlag;
        }
    }

    /** Something the run does at a time after the app started. */
    public sealed interface Event permits StopNode, StopMaster, StopSite, JoinNodes {
        /** Milliseconds after the app started running. */
        long atMs();

        /** The flag and value that asked for it, as given: {@code --kill-at 2@1.5}. */
        String request();

        /** What it does, for the run's schedule line: {@code t=1.50 s: kill node 2}. */
        String describe();
    }

    /** Stop local node {@code node}: SIGKILL or SIGTERM. */
    public record StopNode(Stop stop, int node, long atMs, String request) implements Event {
        @Override
        public String describe() {
            return "t=" + seconds(atMs) + " s: " + stop.verb() + " node " + node;
        }
    }

    /**
     * Stop the local child that is the master at that time (or will be once the registry has declared the
     * nodes stopped before dead; see {@link ChildNodes#expectedMaster()}).
     */
    public record StopMaster(Stop stop, long atMs, String request) implements Event {
        @Override
        public String describe() {
            return "t=" + seconds(atMs) + " s: " + stop.verb() + " the master";
        }
    }

    /** Stop every local child node of {@code site} alive at that time. */
    public record StopSite(Stop stop, String site, long atMs, String request) implements Event {
        @Override
        public String describe() {
            return "t=" + seconds(atMs) + " s: " + stop.verb() + " site " + site;
        }
    }

    /** Start local nodes {@code firstNode} to {@code firstNode + count - 1} in {@code site}; they join the run. */
    public record JoinNodes(int firstNode, int count, String site, long atMs, String request) implements Event {
        @Override
        public String describe() {
            return "t=" + seconds(atMs) + " s: start " + (count == 1 ? "node " + firstNode
                : "nodes " + firstNode + " to " + (firstNode + count - 1)) + " in site " + site;
        }
    }

    private final List<Event> events;

    private FaultSchedule(final List<Event> events) {
        this.events = List.copyOf(events);
    }

    /**
     * The schedule the three flags ask for (each value a comma-separated list, each flag repeatable), checked
     * against {@code layout}, the sites of the {@code --nodes} local nodes. Joining nodes are numbered on from
     * the last of those, in the order they start; they go to the last site unless {@code @SITE} names one.
     * {@code remoteNodes} is the run's {@code --await}: with remote nodes, which one is the master cannot be told
     * here. Throws {@link IllegalArgumentException} naming the flag, the value and what is allowed.
     */
    public static FaultSchedule parse(final List<String> killAt, final List<String> killSite, final List<String> joinAt,
        final SiteLayout layout, final int remoteNodes) {
        return parse(killAt, killSite, List.of(), List.of(), joinAt, layout, remoteNodes);
    }

    /** As {@link #parse(List, List, List, SiteLayout, int)}, with graceful leaves ({@code --leave-at}, {@code --leave-site}). */
    public static FaultSchedule parse(final List<String> killAt, final List<String> killSite, final List<String> leaveAt,
        final List<String> leaveSite, final List<String> joinAt, final SiteLayout layout, final int remoteNodes) {
        final List<Event> events = new ArrayList<>();
        for (final String value : parts(killAt)) {
            events.add(parseStopNode(Stop.KILL, value));
        }
        for (final String value : parts(killSite)) {
            events.add(parseStopSite(Stop.KILL, value));
        }
        for (final String value : parts(leaveAt)) {
            events.add(parseStopNode(Stop.LEAVE, value));
        }
        for (final String value : parts(leaveSite)) {
            events.add(parseStopSite(Stop.LEAVE, value));
        }
        final List<JoinNodes> joins = new ArrayList<>();
        for (final String value : parts(joinAt)) {
            joins.add(parseJoin(value, layout));
        }
        // joining nodes are numbered in the order they start
        joins.sort(Comparator.comparingLong(JoinNodes::atMs));
        int next = layout.nodes();
        for (final JoinNodes join : joins) {
            if ((long)next + join.count() > MAX_LOCAL_NODES) {
                throw new IllegalArgumentException(JOIN_AT + "=" + value(join) + ": with --nodes " + layout.nodes()
                    + " and the nodes joining before, that makes more than " + MAX_LOCAL_NODES + " local nodes");
            }
            events.add(new JoinNodes(next, join.count(), join.site(), join.atMs(), join.request()));
            next += join.count();
        }
        final FaultSchedule schedule = new FaultSchedule(events.stream()
            .sorted(Comparator.comparingLong(Event::atMs)) // stable: kills before joins at the same time
            .toList());
        schedule.check(layout, remoteNodes);
        return schedule;
    }

    /** The events in the order they happen. */
    public List<Event> events() {
        return events;
    }

    public boolean isEmpty() {
        return events.isEmpty();
    }

    /** The nodes that join during the run, all events together. */
    public int joiningNodes() {
        return events.stream().filter(JoinNodes.class::isInstance).mapToInt(e -> ((JoinNodes)e).count()).sum();
    }

    /** {@code t=1.50 s: kill node 2; t=3.00 s: start node 3 in site default}. */
    public String describe() {
        return String.join("; ", events.stream().map(Event::describe).toList());
    }

    /** Seconds with two decimals, as the run prints times: {@code 1.50}. */
    static String seconds(final long ms) {
        return String.format(Locale.ROOT, "%.2f", ms / 1000.0);
    }

    /**
     * Refuses what the run cannot do: unknown nodes and sites, node 0, a node killed before it joined, a master
     * that is not a local child.
     */
    private void check(final SiteLayout layout, final int remoteNodes) {
        final int localNodes = layout.nodes() + joiningNodes();
        for (final Event event : events) {
            if (event instanceof StopNode kill) {
                checkKill(kill, layout, localNodes);
            } else if (event instanceof StopMaster kill) {
                final String flag = kill.stop().nodeFlag();
                if (layout.nodes() == 1) {
                    throw new IllegalArgumentException(flag + "=" + value(kill) + ": with --nodes 1 the master is "
                        + "node 0, this process (alone when the app starts), and " + NODE_0_STAYS);
                }
                if (remoteNodes > 0) {
                    throw new IllegalArgumentException(flag + "=" + value(kill) + ": with --await the master may be "
                        + "a remote node, which this run cannot stop; name a local child node instead");
                }
            } else if (event instanceof StopSite kill) {
                final String flag = kill.stop().siteFlag();
                final JoinNodes firstJoin = firstJoinOf(kill.site());
                if (!layout.sites().contains(kill.site()) && firstJoin == null) {
                    throw new IllegalArgumentException(flag + "=" + value(kill) + ": no site " + kill.site() + "; "
                        + describeSites(layout));
                }
                if (!layout.sites().contains(kill.site()) && kill.atMs() <= firstJoin.atMs()) {
                    throw new IllegalArgumentException(flag + "=" + value(kill) + ": site " + kill.site() + " starts at t="
                        + seconds(firstJoin.atMs()) + " s (" + firstJoin.request() + "), so it can be stopped only after that");
                }
                if (kill.site().equals(layout.siteOf(0))) {
                    throw new IllegalArgumentException(flag + "=" + value(kill) + ": site " + kill.site()
                        + " holds node 0, this process: " + NODE_0_STAYS + "; " + MASTER_IS_A_CHILD);
                }
            }
        }
    }

    /** The first {@code --join-at} that starts nodes in {@code site}, or null. */
    private JoinNodes firstJoinOf(final String site) {
        return events.stream().filter(e -> e instanceof JoinNodes join && join.site().equals(site)).map(JoinNodes.class::cast)
            .findFirst().orElse(null); // the events are in time order
    }

    private void checkKill(final StopNode kill, final SiteLayout layout, final int localNodes) {
        final String flag = kill.stop().nodeFlag();
        if (kill.node() == 0) {
            throw new IllegalArgumentException(flag + "=" + value(kill) + ": node 0 is this process: " + NODE_0_STAYS + "; "
                + MASTER_IS_A_CHILD);
        }
        if (kill.node() < 0 || kill.node() >= localNodes) {
            final String children = layout.nodes() == 1 ? "with --nodes 1 there are none"
                : "with --nodes " + layout.nodes() + " they are nodes 1 to " + (layout.nodes() - 1);
            final String joiners = localNodes > layout.nodes()
                ? ", and " + layout.nodes() + " to " + (localNodes - 1) + " join with " + JOIN_AT : "";
            throw new IllegalArgumentException(flag + "=" + value(kill) + ": no local child node " + kill.node()
                + "; " + children + joiners);
        }
        for (final Event event : events) {
            if (event instanceof JoinNodes join && kill.node() >= join.firstNode()
                && kill.node() < join.firstNode() + join.count() && kill.atMs() <= join.atMs()) {
                throw new IllegalArgumentException(flag + "=" + value(kill) + ": node " + kill.node() + " starts at t="
                    + seconds(join.atMs()) + " s (" + join.request() + "), so it can be stopped only after that");
            }
        }
    }

    private static String describeSites(final SiteLayout layout) {
        return layout.sites().size() == 1
            ? "the only site is " + layout.sites().get(0) + " (--sites places nodes in several, e.g. A:2,B:2)"
            : "the sites are " + String.join(", ", layout.sites()) + " (--sites)";
    }

    /** Every comma-separated part of every value of a flag, trimmed. */
    private static List<String> parts(final List<String> values) {
        final List<String> parts = new ArrayList<>();
        if (values != null) {
            for (final String value : values) {
                for (final String part : value.split(",", -1)) {
                    parts.add(part.trim());
                }
            }
        }
        return parts;
    }

    /** {@code K@S}: a {@link StopNode}; {@code master@S}: a {@link StopMaster}. */
    private static Event parseStopNode(final Stop stop, final String value) {
        final String flag = stop.nodeFlag();
        final int at = value.indexOf('@');
        if (at < 0 || value.indexOf('@', at + 1) >= 0) {
            throw new IllegalArgumentException(flag + "=" + value + ": must be NODE@SECONDS, e.g. " + flag
                + " 2@1.5 (several: 1@2,2@2; the master: " + MASTER + "@1.5)");
        }
        final String nodeText = value.substring(0, at).trim();
        if (nodeText.equals(MASTER)) {
            return new StopMaster(stop, parseSeconds(flag, value, value.substring(at + 1)), flag + " " + value);
        }
        final int node;
        try {
            node = Integer.parseInt(nodeText);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(flag + "=" + value + ": node '" + nodeText
                + "' must be the index of a local node (an integer) or " + MASTER);
        }
        return new StopNode(stop, node, parseSeconds(flag, value, value.substring(at + 1)), flag + " " + value);
    }

    private static StopSite parseStopSite(final Stop stop, final String value) {
        final String flag = stop.siteFlag();
        final int at = value.lastIndexOf('@');
        if (at <= 0) {
            throw new IllegalArgumentException(flag + "=" + value + ": must be SITE@SECONDS, e.g. " + flag + " B@2");
        }
        return new StopSite(stop, value.substring(0, at).trim(), parseSeconds(flag, value, value.substring(at + 1)),
            flag + " " + value);
    }

    /** A join with its count and site; its first node is numbered once all joins are known. */
    private static JoinNodes parseJoin(final String value, final SiteLayout layout) {
        final Matcher matcher = JOIN.matcher(value);
        if (value.isEmpty() || !matcher.matches()) {
            throw new IllegalArgumentException(JOIN_AT + "=" + value + ": must be SECONDS[xCOUNT][@SITE], e.g. "
                + JOIN_AT + " 3 or " + JOIN_AT + " 3x2@B");
        }
        final long atMs = parseSeconds(JOIN_AT, value, matcher.group(1));
        int count = 1;
        if (matcher.group(2) != null) {
            final String countText = matcher.group(2).trim();
            try {
                count = Integer.parseInt(countText);
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException(JOIN_AT + "=" + value + ": count '" + countText
                    + "' must be an integer in [1, " + MAX_LOCAL_NODES + "]");
            }
            if (count < 1 || count > MAX_LOCAL_NODES) {
                throw new IllegalArgumentException(JOIN_AT + "=" + value + ": count " + count + " must be in [1, "
                    + MAX_LOCAL_NODES + "]");
            }
        }
        final String site;
        if (matcher.group(3) != null) {
            site = matcher.group(3).trim();
            // a site not in --sites is a new one: joining it, then making an old site leave, migrates the run
            final String violation = NodeSettings.SITE.violation(site);
            if (violation != null) {
                throw new IllegalArgumentException(JOIN_AT + "=" + value + ": site name '" + site + "' " + violation);
            }
        } else {
            site = layout.siteOf(layout.nodes() - 1);
        }
        return new JoinNodes(-1, count, site, atMs, JOIN_AT + " " + value);
    }

    /** {@code text} as whole milliseconds (rounded): decimal seconds in [0, {@link #MAX_SECONDS}]. */
    private static long parseSeconds(final String flag, final String value, final String text) {
        final String seconds = text.trim();
        if (!SECONDS.matcher(seconds).matches()) {
            throw new IllegalArgumentException(flag + "=" + value + ": time '" + seconds
                + "' must be seconds >= 0 after the app started, e.g. 2 or 2.5");
        }
        final BigDecimal decimal = new BigDecimal(seconds.endsWith(".") ? seconds + "0" : seconds);
        if (decimal.compareTo(BigDecimal.valueOf(MAX_SECONDS)) > 0) {
            throw new IllegalArgumentException(flag + "=" + value + ": time " + seconds + " must be at most "
                + MAX_SECONDS + " seconds");
        }
        return decimal.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** The value of the flag an event came from: {@code 2@1.5} of {@code --kill-at 2@1.5}. */
    private static String value(final Event event) {
        return event.request().substring(event.request().indexOf(' ') + 1);
    }
}
