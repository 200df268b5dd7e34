package org.divvy.perf.sharing;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.DivvyNode;

/**
 * The shared-object counters of a node, read from the line its network statistics print
 * ({@code SharingStatistics.toString()}: "shared objects: W writes shipped in B broadcasts (combining ratio R),
 * M messages, N bytes sent, ...; V writes received, ..."): the node's public API gives its statistics as text, and
 * the shared-data module's counters object only to code in the runtime's own package.
 *
 * @param writes         writes made on the node and shipped
 * @param broadcasts     SO_UPDATE frames built
 * @param messages       SO_UPDATE messages sent (frames times the peers that took them)
 * @param bytes          bytes of those messages
 * @param writesReceived writes that arrived from other nodes
 */
record SharingCounters(long writes, long broadcasts, long messages, long bytes, long writesReceived) {
    private static final Pattern LINE = Pattern.compile("shared objects: (\\d+) writes shipped in (\\d+) broadcasts "
        + "\\(combining ratio [^)]*\\), (\\d+) messages, (\\d+) bytes sent.*?; (\\d+) writes received");

    /** The counters in {@code statistics}; all zero when the node printed no shared-object line (it did nothing shared). */
    static SharingCounters parse(final String statistics) {
        final Matcher m = LINE.matcher(statistics);
        if (!m.find()) {
            if (statistics.contains("shared objects:")) {
                throw new IllegalStateException("the shared-object line changed its form: " + statistics);
            }
            return new SharingCounters(0, 0, 0, 0, 0);
        }
        return new SharingCounters(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4)), Long.parseLong(m.group(5)));
    }

    /** The counters of {@code nodes} added up. */
    static SharingCounters sum(final List<DivvyNode> nodes) {
        long writes = 0;
        long broadcasts = 0;
        long messages = 0;
        long bytes = 0;
        long received = 0;
        for (final DivvyNode node : nodes) {
            final SharingCounters c = parse(node.networkStatistics().extensions());
            writes += c.writes();
            broadcasts += c.broadcasts();
            messages += c.messages();
            bytes += c.bytes();
            received += c.writesReceived();
        }
        return new SharingCounters(writes, broadcasts, messages, bytes, received);
    }
}
