package org.divvy.perf.single;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The measuring method: warm-up, alternating rounds, fresh input per run, every answer checked. */
@Timeout(60)
class BenchmarkRunnerTest {
    @Test
    void shouldWarmUpThenAlternateContendersAndCheckEveryAnswer() {
        final RecordingBenchmark benchmark = new RecordingBenchmark(null);
        final SingleNodeOptions options = SingleNodeOptions.builder().warmup(1).rounds(2).settleMs(0).workers(1).build();
        final BenchmarkResult result;
        try (Engines engines = Engines.start(1)) {
            result = new BenchmarkRunner(options, engines, quietLog()).run(benchmark);
        }
        assertEquals(List.of("D", "F", "S", "D", "F", "S", "D", "F", "S"), benchmark.runs, "1 warm-up + 2 rounds, ABC order");
        assertEquals(9, benchmark.inputs, "a fresh input per run");
        assertEquals(9, benchmark.checks, "every answer checked, warm-ups included");
        for (final Contender contender : Contender.values()) {
            assertEquals(2, result.samplesNs(contender).length, contender.label());
        }
        assertEquals("3", result.answer());
    }

    @Test
    void shouldAbortOnAWrongAnswerNamingTheContender() {
        final RecordingBenchmark benchmark = new RecordingBenchmark(Contender.FORK_JOIN);
        final SingleNodeOptions options = SingleNodeOptions.builder().warmup(1).rounds(3).settleMs(0).workers(1).build();
        try (Engines engines = Engines.start(1)) {
            final WrongAnswerException ex = assertThrows(WrongAnswerException.class,
                () -> new BenchmarkRunner(options, engines, quietLog()).run(benchmark));
            assertEquals("benchmark sum: FJP computed a wrong answer: 4, expected 3", ex.getMessage());
        }
        assertEquals(List.of("D", "F"), benchmark.runs, "nothing runs after the wrong answer");
        assertEquals(2, benchmark.checks);
    }

    private static PrintStream quietLog() {
        return new PrintStream(new ByteArrayOutputStream());
    }

    /** 1 + 2 computed three ways; one contender can be made to get it wrong. Records what ran. */
    private static final class RecordingBenchmark extends Benchmark<int[], Integer> {
        final List<String> runs = new ArrayList<>();
        final Contender wrong;
        int inputs;
        int checks;

        RecordingBenchmark(final Contender wrong) {
            super("sum", "1 + 2", 0, "");
            this.wrong = wrong;
        }

        @Override
        public int[] newInput() {
            inputs++;
            return new int[] {1, 2};
        }

        @Override
        public Integer runSequential(final int[] input) {
            runs.add("S");
            return input[0] + input[1] + (wrong == Contender.SEQUENTIAL ? 1 : 0);
        }

        @Override
        public Integer runForkJoin(final ForkJoinPool pool, final int[] input) {
            runs.add("F");
            return pool.submit(() -> input[0] + input[1]).join() + (wrong == Contender.FORK_JOIN ? 1 : 0);
        }

        @Override
        public Integer runDivvy(final DivvyEngine divvy, final int[] input) {
            runs.add("D");
            return divvy.run(() -> input[0] + input[1]) + (wrong == Contender.DIVVY ? 1 : 0);
        }

        @Override
        public void checkAnswer(final Contender contender, final Integer answer) {
            checks++;
            if (answer != 3) {
                throw new WrongAnswerException(id(), contender, answer + ", expected 3");
            }
        }

        @Override
        public String describeAnswer(final Integer answer) {
            return answer.toString();
        }
    }
}
