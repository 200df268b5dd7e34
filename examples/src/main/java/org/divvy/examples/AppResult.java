package org.divvy.examples;

/**
 * The outcome of one run of an example.
 *
 * @param app        the app's name
 * @param mode       "divvy (N workers)" or "sequential"
 * @param answer     the answer as one line
 * @param check      the verdict against the reference
 * @param elapsedNs  wall time of the solve alone (input preparation and checking excluded)
 * @param statistics the node's run statistics as text; empty for a sequential run
 */
public record AppResult(String app, String mode, String answer, Check check, long elapsedNs, String statistics) {
    public boolean passed() {
        return check.verdict() != Verdict.FAIL;
    }

    /** The report a launcher prints: answer, verdict, wall time, then the statistics. */
    public String report() {
        final StringBuilder report = new StringBuilder()
            .append(app).append(" [").append(mode).append("]: ").append(answer).append('\n')
            .append(check.verdict()).append(": ").append(check.detail()).append('\n')
            .append(String.format("wall time: %.3f s%n", elapsedNs / 1e9));
        if (!statistics.isEmpty()) {
            report.append(statistics);
            if (!statistics.endsWith("\n")) {
                report.append('\n');
            }
        }
        return report.toString();
    }
}
