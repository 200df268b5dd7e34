package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.fib.FibApp;
import org.divvy.examples.uts.UtsApp;
import org.divvy.examples.uts.UtsTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine.ParameterException;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LauncherTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldListEveryAppInHelp() {
        assertEquals(Launcher.EXIT_OK, Launcher.execute(new String[] {"--help"}, out, err));
        for (final String app : new String[] {"fib", "nqueens", "knapsack", "raytracer", "mergesort", "uts", "tsp", "sat", "barneshut", "locusroute"}) {
            assertTrue(out().contains(app), "help lists " + app + ":\n" + out());
        }
    }

    @Test
    void shouldShowTheOptionsOfAnApp() {
        assertEquals(Launcher.EXIT_OK, Launcher.execute(new String[] {"uts", "--help"}, out, err));
        assertTrue(out().contains("--spawn-depth") && out().contains("-q"), out());
        assertTrue(Launcher.parse("fib", "--help").isHelpOrVersion());
    }

    @Test
    void shouldParseAnAppWithItsOptions() {
        final Launcher.Invocation invocation = Launcher.parse("fib", "-n", "30", "--threshold", "5", "--workers", "3");
        final FibApp app = assertInstanceOf(FibApp.class, invocation.app());
        assertEquals("fib", app.name());
        assertEquals(3, app.common().workers());
        assertEquals(false, app.common().sequential());
    }

    @Test
    void shouldOverrideSampleTreeParametersWithFlags() {
        final UtsApp app = (UtsApp)Launcher.parse("uts", "--tree", "T3", "-r", "7", "-q", "0.2", "-m", "5").app();
        final UtsTree tree = app.tree();
        assertEquals(UtsTree.BINOMIAL, tree.type());
        assertEquals(7, tree.rootSeed());
        assertEquals(0.2, tree.nonLeafProbability());
        assertEquals(5, tree.nonLeafChildren());
        assertEquals(2000.0, tree.rootBranching());
    }

    @Test
    void shouldRejectAnUnknownApp() {
        final ParameterException e = assertThrows(ParameterException.class, () -> Launcher.parse("fibonacci"));
        assertTrue(e.getMessage().contains("fibonacci"), e.getMessage());
        assertEquals(Launcher.EXIT_USAGE, Launcher.execute(new String[] {"fibonacci"}, out, err));
        assertTrue(err().contains("fibonacci"), err());
    }

    @Test
    void shouldRejectAnUnknownFlag() {
        final ParameterException e = assertThrows(ParameterException.class, () -> Launcher.parse("fib", "--bogus"));
        assertTrue(e.getMessage().contains("--bogus"), e.getMessage());
        assertEquals(Launcher.EXIT_USAGE, Launcher.execute(new String[] {"nqueens", "--bogus", "3"}, out, err));
    }

    @Test
    void shouldRejectAMalformedValue() {
        final ParameterException e = assertThrows(ParameterException.class, () -> Launcher.parse("fib", "-n", "ten"));
        assertTrue(e.getMessage().contains("ten"), e.getMessage());
    }

    @Test
    void shouldRejectValuesOutOfRangeNamingValueAndBound() {
        final ParameterException tooBig = assertThrows(ParameterException.class, () -> Launcher.parse("fib", "-n", "93"));
        assertEquals("-n=93, must be in [0, 92]", tooBig.getMessage());
        final ParameterException workers =
            assertThrows(ParameterException.class, () -> Launcher.parse("nqueens", "--workers", "-1"));
        assertEquals("--workers=-1, must be >= 0", workers.getMessage());
        final ParameterException tree = assertThrows(ParameterException.class, () -> Launcher.parse("uts", "--tree", "T9"));
        assertTrue(tree.getMessage().contains("T9"), tree.getMessage());
    }

    @Test
    void shouldRequireAnApp() {
        final ParameterException e = assertThrows(ParameterException.class, Launcher::parse);
        assertTrue(e.getMessage().contains("fib") && e.getMessage().contains("uts"), e.getMessage());
    }

    @Test
    void shouldRunAnAppAndReportPass() {
        final int exit = Launcher.execute(
            new String[] {"fib", "-n", "24", "--threshold", "8", "--workers", "2", "--progress-seconds", "0"}, out, err);
        assertEquals(Launcher.EXIT_OK, exit, err());
        assertTrue(out().contains("fib(24) = 46368"), out());
        assertTrue(out().contains("PASS"), out());
        assertTrue(out().contains("wall time"), out());
    }

    @Test
    void shouldRunTheSequentialVersion() {
        final int exit = Launcher.execute(new String[] {"nqueens", "-n", "8", "--sequential", "--progress-seconds", "0"},
            out, err);
        assertEquals(Launcher.EXIT_OK, exit, err());
        assertTrue(out().contains("[sequential]") && out().contains("92 solutions") && out().contains("PASS"), out());
    }
}
