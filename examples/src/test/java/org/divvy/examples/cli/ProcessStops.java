package org.divvy.examples.cli;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Stopping a real process for a while, as a long GC pause, a suspended laptop or a busy hypervisor would. */
final class ProcessStops {
    private ProcessStops() {
    }

    /** {@code kill -STOP pid}, waits {@code ms}, {@code kill -CONT pid}. */
    static void stopFor(final long pid, final long ms) throws InterruptedException {
        signal("STOP", pid);
        try {
            Thread.sleep(ms);
        } finally {
            signal("CONT", pid);
        }
    }

    private static void signal(final String signal, final long pid) {
        try {
            final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new AssertionError("kill -" + signal + " " + pid + " did not return");
            }
        } catch (final IOException e) {
            throw new AssertionError("cannot run kill -" + signal + " " + pid, e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
