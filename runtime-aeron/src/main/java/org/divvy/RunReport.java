package org.divvy;

/**
 * What a run {@link DivvyNode#submit submitted} to the registry produced: the root's value, as the master
 * that finished it reported it, with who that was.
 *
 * @param value            the root's value
 * @param elapsedNs        wall-clock time on the submitting node, from the submission until the value arrived
 * @param masterId         the node that ran the root to its end
 * @param takeovers        how many times the registry gave the root to a new master because the last one died
 * @param masterStatistics the run statistics of that master's last run of the root, as text
 */
public record RunReport<T>(T value, long elapsedNs, int masterId, int takeovers, String masterStatistics) {
}
