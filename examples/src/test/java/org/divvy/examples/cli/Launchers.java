package org.divvy.examples.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The launcher processes one multi-process test started, ended after each test (SIGKILL, their children
 * included: it ends a stopped process too). Register as {@code @RegisterExtension final Launchers launchers =
 * new Launchers();} and start every process through it; only these are signalled, by their handles.
 */
final class Launchers implements AfterEachCallback {
    /** 16-queens: 10-20 s on this machine, long enough to stop and start nodes well inside the run. */
    static final List<String> NQUEENS_16 = List.of("nqueens", "-n", "16", "--progress-seconds", "0");
    static final String NQUEENS_16_ANSWER = "16-queens: 14772512 solutions";

    private final List<Process> started = new ArrayList<>();

    /** {@code divvy ARGS} as a real process. */
    LauncherProcess start(final String... args) throws IOException {
        return track(LauncherProcess.start(args));
    }

    /** {@code divvy run RUN_OPTIONS APP...} as a real process. */
    LauncherProcess run(final List<String> app, final String... runOptions) throws IOException {
        final List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(List.of(runOptions));
        args.addAll(app);
        return start(args.toArray(String[]::new));
    }

    /** A launcher process as {@code builder} describes it. */
    LauncherProcess start(final ProcessBuilder builder) throws IOException {
        return track(LauncherProcess.start(builder));
    }

    private LauncherProcess track(final LauncherProcess launched) {
        started.add(launched.process());
        return launched;
    }

    @Override
    public void afterEach(final ExtensionContext context) {
        for (final Process process : started) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        started.clear();
    }
}
