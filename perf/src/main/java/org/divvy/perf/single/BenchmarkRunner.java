package org.divvy.perf.single;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;

/**
 * Measures benchmarks: warm-up runs of every contender, then rounds in which each contender runs once
 * in {@link Contender} order (ABCABC...). Each run gets a fresh input built before the clock starts, and
 * its answer is checked after the clock stops.
 */
public final class BenchmarkRunner {
    private final SingleNodeOptions options;
    private final Engines engines;
    private final PrintStream log;

    public BenchmarkRunner(final SingleNodeOptions options, final Engines engines, final PrintStream log) {
        this.options = options;
        this.engines = engines;
        this.log = log;
    }

    /** Warms up and measures {@code benchmark}; throws {@link WrongAnswerException} on the first wrong answer. */
    public <I, A> BenchmarkResult run(final Benchmark<I, A> benchmark) {
        log.printf("== %s: %s%n", benchmark.id(), benchmark.description());
        for (int i = 0; i < options.warmup(); i++) {
            final StringBuilder line = new StringBuilder("   warm-up ").append(i + 1).append(':');
            for (final Contender contender : Contender.values()) {
                final long ns = runOnce(benchmark, contender, null);
                line.append(' ').append(contender.label()).append(' ').append(millis(ns));
            }
            log.println(line);
        }

        final Map<Contender, long[]> samplesNs = new EnumMap<>(Contender.class);
        for (final Contender contender : Contender.values()) {
            samplesNs.put(contender, new long[options.rounds()]);
        }
        final String[] answer = new String[1];
        for (int round = 0; round < options.rounds(); round++) {
            final StringBuilder line = new StringBuilder("   round ").append(round + 1).append(':');
            for (final Contender contender : Contender.values()) {
                final long ns = runOnce(benchmark, contender, answer);
                samplesNs.get(contender)[round] = ns;
                line.append(' ').append(contender.label()).append(' ').append(millis(ns));
            }
            log.println(line);
        }
        if (engines.divvy().lastStatistics() != null) {
            log.println("   Divvy, last run: " + engines.divvy().lastStatistics().toString().strip().replace("\n", "\n   "));
        }
        return new BenchmarkResult(
            benchmark.id(), benchmark.description(), benchmark.workUnits(), benchmark.workUnitName(), answer[0], samplesNs);
    }

    private <I, A> long runOnce(final Benchmark<I, A> benchmark, final Contender contender, final String[] answerOut) {
        final I input = benchmark.newInput();
        settle();
        final long startNs = System.nanoTime();
        final A answer = benchmark.run(contender, engines, input);
        final long elapsedNs = System.nanoTime() - startNs;
        benchmark.checkAnswer(contender, answer);
        if (answerOut != null) {
            answerOut[0] = benchmark.describeAnswer(answer);
        }
        return elapsedNs;
    }

    private void settle() {
        if (options.settleMs() > 0) {
            try {
                TimeUnit.MILLISECONDS.sleep(options.settleMs());
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new DivvyException("benchmark interrupted", ex);
            }
        }
    }

    private static String millis(final long ns) {
        return String.format(Locale.ROOT, "%.1fms", ns / 1e6);
    }
}
