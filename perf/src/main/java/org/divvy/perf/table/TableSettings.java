package org.divvy.perf.table;

import java.nio.file.Path;

/**
 * What one {@code table} run was asked for.
 *
 * @param quick    tiny sizes, a smoke test (the subcommands' own {@code --quick})
 * @param rounds   N: {@code uts --rounds N}, {@code lanwan --repeats N}, and 2N+1 rounds of the fib benchmark
 * @param basePort first UDP port of the wide-area efficiency's nodes ({@code lanwan --base-port})
 * @param lockFile each row's child process runs under {@code flock lockFile}; null for none
 * @param csv      the table's CSV; its chart goes beside it, the rows' own files into {@link #rowsDirectory()}
 */
record TableSettings(boolean quick, int rounds, int basePort, String lockFile, Path csv) {
    /** {@code perf/results/issue10-table/} for {@code perf/results/issue10-table.csv}: the rows' own CSVs and charts. */
    Path rowsDirectory() {
        return csv.resolveSibling(csv.getFileName().toString().replaceFirst("\\.csv$", ""));
    }

    /** The chart: the CSV's name with {@code .png}. */
    Path chart() {
        return csv.resolveSibling(csv.getFileName().toString().replaceFirst("\\.csv$", "") + ".png");
    }

    /** How long a row's child may take, waiting for the lock included. */
    double deadlineS(final double fullS) {
        return quick ? 180 : fullS;
    }
}
