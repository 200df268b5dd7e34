package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import picocli.CommandLine.ParameterException;

/** {@code --mode} means the same in every app that has versions to choose from (one piece of code: CommonOptions). */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ModeOptionTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tsp", "barneshut", "sat", "locusroute"})
    void shouldRejectSequentialWithShareInOneLine(final String app) {
        final ParameterException both = assertThrows(ParameterException.class,
            () -> Launcher.parse(app, "--sequential", "--mode", "share"));
        assertEquals("--sequential and --mode share contradict each other: give one of them", both.getMessage());
        assertThrows(ParameterException.class, () -> Launcher.parse(app, "--mode", "share", "--sequential"),
            "the order does not matter");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tsp", "barneshut", "sat", "locusroute"})
    void shouldReportTheModeThatRuns(final String app) throws Exception {
        assertEquals(Mode.CONQUER, mode(Launcher.parse(app).app()));
        assertEquals(Mode.SHARE, mode(Launcher.parse(app, "--mode", "share").app()));
        for (final String[] sequential : new String[][] {{"--sequential"}, {"--mode", "sequential"},
            {"--sequential", "--mode", "sequential"}, {"--sequential", "--mode", "conquer"}}) {
            final String[] args = new String[sequential.length + 1];
            args[0] = app;
            System.arraycopy(sequential, 0, args, 1, sequential.length);
            final ExampleApp parsed = Launcher.parse(args).app();
            assertEquals(Mode.SEQUENTIAL, mode(parsed), String.join(" ", args));
            assertTrue(parsed.common().sequential(), String.join(" ", args));
        }
        assertFalse(Launcher.parse(app, "--mode", "share").app().common().sequential());
    }

    private static Mode mode(final ExampleApp app) throws Exception {
        final Method mode = app.getClass().getMethod("mode");
        assertEquals(app.common().mode(), mode.invoke(app), "the app's mode() is its options' mode()");
        return (Mode)mode.invoke(app);
    }
}
