package org.divvy.perf.single;

import java.awt.Color;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

/**
 * One single-node benchmark session: picks the benchmarks, starts the engines once, measures each
 * benchmark, prints the table and writes the medians CSV, the samples CSV and the ratio chart.
 */
public final class SingleNodeSession {
    private static final Color DIVVY_OVER_FJP_COLOR = new Color(31, 119, 180);
    private static final Color SEQ_OVER_DIVVY_COLOR = new Color(255, 127, 14);
    private static final Color SEQ_OVER_FJP_COLOR = new Color(150, 150, 150);

    private final SingleNodeOptions options;
    private final PrintStream log;

    public SingleNodeSession(final SingleNodeOptions options, final PrintStream log) {
        this.options = options;
        this.log = log;
    }

    /** Runs the session over {@code catalogue} (filtered by {@code --only}) and writes its outputs. */
    public List<BenchmarkResult> run(final List<Benchmark<?, ?>> catalogue) {
        final List<Benchmark<?, ?>> selected = select(catalogue);
        log.println("single-node benchmark: " + options);
        log.printf(Locale.ROOT, "JVM %s %s, %d available processors%n",
            System.getProperty("java.vm.name"), System.getProperty("java.version"),
            Runtime.getRuntime().availableProcessors());
        // Other processes on the machine are the main source of noise; say how busy it was.
        log.printf(Locale.ROOT, "system load average at start: %.2f%n", loadAverage());
        final List<BenchmarkResult> results = new ArrayList<>();
        try (Engines engines = Engines.start(options.workers())) {
            final BenchmarkRunner runner = new BenchmarkRunner(options, engines, log);
            for (final Benchmark<?, ?> benchmark : selected) {
                results.add(runner.run(benchmark));
            }
        }
        log.printf(Locale.ROOT, "system load average at end: %.2f%n", loadAverage());
        ResultTable.print(log, options, results);
        ResultCsv.writeMedians(options.out(), options, results);
        ResultCsv.writeSamples(options.samplesOut(), results);
        chart(results).writePng(options.chartOut());
        log.println("wrote " + options.out() + ", " + options.samplesOut() + ", " + options.chartOut());
        return results;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private List<Benchmark<?, ?>> select(final List<Benchmark<?, ?>> catalogue) {
        if (options.only().isEmpty()) {
            return catalogue;
        }
        final Map<String, Benchmark<?, ?>> byId = new LinkedHashMap<>();
        for (final Benchmark<?, ?> benchmark : catalogue) {
            byId.put(benchmark.id(), benchmark);
        }
        final List<Benchmark<?, ?>> selected = new ArrayList<>();
        for (final String id : options.only()) {
            final Benchmark<?, ?> benchmark = byId.get(id);
            if (benchmark == null) {
                throw new IllegalArgumentException("--only " + id + ": no such benchmark; known: " + byId.keySet());
            }
            selected.add(benchmark);
        }
        return selected;
    }

    private GroupedBarChart chart(final List<BenchmarkResult> results) {
        final List<String> categories = new ArrayList<>();
        final double[] divvyOverFjp = new double[results.size()];
        final double[] seqOverDivvy = new double[results.size()];
        final double[] seqOverFjp = new double[results.size()];
        for (int i = 0; i < results.size(); i++) {
            final BenchmarkResult r = results.get(i);
            categories.add(r.id());
            divvyOverFjp[i] = r.divvyOverForkJoin();
            seqOverDivvy[i] = r.sequentialOverDivvy();
            seqOverFjp[i] = r.sequentialOverForkJoin();
        }
        return new GroupedBarChart(
            "Divvy vs ForkJoinPool vs sequential Java (one node)" + (options.quick() ? " [QUICK: tiny sizes]" : ""),
            String.format(Locale.ROOT, "%d workers / parallelism %d; medians of %d alternating rounds after %d warm-ups; %s",
                options.workers(), options.workers(), options.rounds(), options.warmup(), Runtime.version()),
            "ratio of median run times",
            categories,
            List.of(
                new BarSeries("Divvy / FJP time (< 1: Divvy faster)", DIVVY_OVER_FJP_COLOR, divvyOverFjp),
                new BarSeries("Sequential / Divvy time (Divvy speedup)", SEQ_OVER_DIVVY_COLOR, seqOverDivvy),
                new BarSeries("Sequential / FJP time (FJP speedup)", SEQ_OVER_FJP_COLOR, seqOverFjp)),
            1.0);
    }
}
