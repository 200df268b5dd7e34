package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crashes at random: for a seed, each of four {@code divvy run}s pairs one of UTS, N-queens, fib and knapsack with
 * one kind of kill schedule (one child; the master; the master and another child; a whole site), at random times
 * while the app runs (0.5 to 2.5 s in; every app runs longer). The answer must always PASS, every run must end
 * within its deadline, a killed master must be replaced (a takeover) by a node that survived, and a master nobody
 * killed must finish the run itself. The seed is in every failure message; {@code -DrandomKillSchedule.seed=N}
 * repeats it (not a {@code divvy.*} property: those name node settings).
 *
 * <p>Sizes: each app runs for about 4 to 11 s on 3 or 4 single-worker nodes on the 2-core development machine
 * (fib and UTS with SIMULATED leaves, so that many nodes on 2 cores still take their time); the failure detector
 * accepts 4 s of silence instead of 7 (a kill is declared about 4.6 s after it), so the whole test takes 1 to 2
 * minutes.
 */
class RandomKillScheduleRunTest {
    private static final long SEED = Long.getLong("randomKillSchedule.seed", System.nanoTime());
    /** A run's deadline, beyond its own --timeout-seconds (60): JVM starts, the end of the computation. */
    private static final int RUN_DEADLINE_SECONDS = 100;
    private static final List<String> COMMON = List.of("--workers", "1", "--timeout-seconds", "60",
        "--acceptable-heartbeat-pause-ms", "4000");
    private static final Pattern NODE = Pattern.compile("node \\d+ \\(pid \\d+, site \\w+, node id (\\d+)\\)");
    private static final Pattern KILLED = Pattern.compile("divvy run: t=(\\d+\\.\\d\\d) s: killed (?:the master, )?(.*) as "
        + "--kill-\\S+ \\S+ asked");
    private static final Pattern EXPECTED_MASTER = Pattern.compile("divvy run: the registry gives the root to (" + NODE
        + ")");
    private static final Pattern MASTER = Pattern.compile("\nmaster: (" + NODE + "|node 0 \\(this process, node id "
        + "(\\d+)\\)); takeovers: (\\d+)\n");
    private static final Pattern WALL_TIME = Pattern.compile("\nwall time: (\\d+\\.\\d+) s\n");

    /** An app with the arguments of its run and the answer line it must print. */
    private record App(List<String> args, String answer) {
    }

    private static final List<App> APPS = List.of(
        new App(List.of("uts", "--tree", "T1", "--simulate-leaf-us", "1000"), "16000 nodes, 12839 leaves"),
        new App(List.of("nqueens", "-n", "16"), "16-queens: 14772512 solutions"),
        new App(List.of("fib", "-n", "29", "--threshold", "16", "--simulate-leaf-us", "20000"), "fib(29) = 514229"),
        new App(List.of("knapsack"), "best value 1494894 of 33 items"));

    /** The kinds of kill schedule: each makes a run's options from the seeded random numbers. */
    private static final List<Function<Random, List<String>>> SCHEDULES = List.of(
        random -> List.of("--nodes", "3", "--kill-at", (1 + random.nextInt(2)) + "@" + time(random)),
        random -> List.of("--nodes", "3", "--kill-at", "master@" + time(random)),
        random -> List.of("--nodes", "4", "--kill-at", "master@" + time(random) + "," + (1 + random.nextInt(3)) + "@"
            + time(random)),
        random -> List.of("--nodes", "4", "--sites", "A:2,B:2", "--kill-site", "B@" + time(random)));

    @RegisterExtension
    final Launchers launchers = new Launchers();

    /** Seconds after the app started, in [0.5, 2.5), as the flags take them. */
    private static String time(final Random random) {
        return String.format(Locale.ROOT, "%.1f", 0.5 + 2 * random.nextDouble());
    }

    @Test
    @Timeout(value = 4 * RUN_DEADLINE_SECONDS + 30, unit = TimeUnit.SECONDS)
    void shouldAlwaysPassAndNeverHangWhateverChildrenDieAndWhen() throws Exception {
        System.out.println("RandomKillScheduleRunTest: seed " + SEED);
        final Random random = new Random(SEED);
        final List<App> apps = new ArrayList<>(APPS);
        Collections.shuffle(apps, random);
        final List<Function<Random, List<String>>> schedules = new ArrayList<>(SCHEDULES);
        Collections.shuffle(schedules, random);
        for (int i = 0; i < apps.size(); i++) {
            final List<String> args = new ArrayList<>(List.of("run"));
            args.addAll(schedules.get(i).apply(random));
            args.addAll(COMMON);
            args.addAll(apps.get(i).args());
            args.addAll(List.of("--progress-seconds", "0"));
            runAndCheck(args, apps.get(i).answer(), "seed " + SEED + " (repeat it: -DrandomKillSchedule.seed=" + SEED
                + "), run " + (i + 1) + " of " + apps.size() + ": divvy " + String.join(" ", args));
        }
    }

    private void runAndCheck(final List<String> args, final String answer, final String context) throws Exception {
        final long startNs = System.nanoTime();
        final LauncherProcess run = launchers.start(args.toArray(new String[0]));
        final int exit;
        try {
            exit = run.awaitExit(RUN_DEADLINE_SECONDS);
        } catch (final AssertionError e) {
            throw new AssertionError(context + ": " + e.getMessage(), e);
        }
        final String output = run.output();
        final String failure = context + "\n" + output;
        assertFalse(output.contains("divvy run failed"), failure);
        assertEquals(Launcher.EXIT_OK, exit, failure);
        assertTrue(output.contains(answer) && output.contains("\nPASS: "), failure);
        assertTrue(Pattern.compile("divvy run: all \\d+ (surviving )?local nodes ended with exit code 0").matcher(output)
            .find(), failure);

        final Matcher expected = EXPECTED_MASTER.matcher(output);
        assertTrue(expected.find(), failure);
        final Matcher wall = WALL_TIME.matcher(output);
        assertTrue(wall.find(), failure);
        final double wallSeconds = Double.parseDouble(wall.group(1));
        // the nodes killed before the value arrived, by node id; a kill after it is no crash of the run
        final Map<String, String> killedDuringRun = new HashMap<>();
        final Matcher killed = KILLED.matcher(output);
        while (killed.find()) {
            if (Double.parseDouble(killed.group(1)) < wallSeconds) {
                final Matcher name = NODE.matcher(killed.group(2));
                while (name.find()) {
                    killedDuringRun.put(name.group(1), name.group());
                }
            }
        }
        final Matcher master = MASTER.matcher(output);
        assertTrue(master.find(), failure);
        final String masterId = master.group(2) != null ? master.group(2) : master.group(3);
        final int takeovers = Integer.parseInt(master.group(4));
        assertFalse(killedDuringRun.containsKey(masterId), "the master that finished was killed: " + failure);
        if (killedDuringRun.containsKey(expected.group(2))) {
            assertTrue(takeovers >= 1, "the first master was killed, so another took over: " + failure);
        } else {
            assertEquals(0, takeovers, "no master was killed: " + failure);
            assertEquals(expected.group(1), master.group(1), "no master was killed: " + failure);
        }
        System.out.printf(Locale.ROOT, "RandomKillScheduleRunTest: %s%n  PASS in %.1f s (wall time %.3f s), killed %s, "
            + "master %s, takeovers %d%n", context, (System.nanoTime() - startNs) / 1e9, wallSeconds,
            killedDuringRun.isEmpty() ? "none while the app ran (it ended first)" : killedDuringRun.values(), master.group(1),
            takeovers);
    }
}
