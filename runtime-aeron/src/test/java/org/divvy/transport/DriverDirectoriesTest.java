package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/** The directories dead nodes' drivers left are removed by the next start; nothing else is touched. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DriverDirectoriesTest {
    /** The pid of a process that has ended (a finished child of this JVM). */
    private static long deadPid() throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-version")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(process.waitFor(20, TimeUnit.SECONDS));
        return process.pid();
    }

    private static File directory(final Path base, final String name) throws IOException {
        final File dir = Files.createDirectories(base.resolve(name)).toFile();
        Files.writeString(dir.toPath().resolve("cnc.dat"), "driver files");
        return dir;
    }

    @Test
    void shouldRemoveOnlyTheDirectoriesOfDeadProcesses(@TempDir final Path base) throws Exception {
        final File dead = directory(base, "divvy-" + deadPid() + "-0b5e");
        final File mine = directory(base, "divvy-" + ProcessHandle.current().pid() + "-11ve");
        final File foreign = directory(base, "aeron-root-4a2f");
        final File notOurs = directory(base, "divvy-notapid-x");
        assertEquals(1, DriverDirectories.removeStale(base.toFile()));
        assertFalse(dead.exists(), "a dead node's leftover is removed");
        assertTrue(mine.exists() && foreign.exists() && notOurs.exists(), "a live process's and other names are kept");
    }

    @Test
    void shouldRemoveALauncherChildsDirectoryOnlyWhenTheLauncherIsDeadAndItsDriverStill(@TempDir final Path base)
        throws Exception {
        final long deadLauncher = deadPid();
        final File noDriver = Files.createDirectories(base.resolve("aeron-root-divvy-" + deadLauncher + "-node1")).toFile();
        final File running = base.resolve("aeron-root-divvy-" + deadLauncher + "-node2").toFile();
        final File stopped = base.resolve("aeron-root-divvy-" + deadLauncher + "-node3").toFile();
        final File liveLauncher = base.resolve("aeron-root-divvy-" + ProcessHandle.current().pid() + "-node4").toFile();
        try (MediaDriver child = launch(running); MediaDriver ofLiveLauncher = launch(liveLauncher)) {
            launch(stopped).close(); // as if SIGKILLed: its files stay, its heartbeat ages
            Thread.sleep(2_500); // a running driver beats once a second (Aeron's timer interval)
            assertEquals(2, DriverDirectories.removeStale(base.toFile(), 2_000));
            assertFalse(noDriver.exists(), "a dead launcher's child that left no driver files");
            assertFalse(stopped.exists(), "a dead launcher's child whose driver stopped");
            assertTrue(running.exists(), "a child that outlives its launcher is still running");
            assertTrue(liveLauncher.exists(), "a live launcher's child");
        }
    }

    private static MediaDriver launch(final File dir) {
        return MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(dir.getPath())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(false)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024));
    }

    @Test
    void shouldNameANewDirectoryForThisProcess(@TempDir final Path base) {
        final File dir = DriverDirectories.newDirectory(base.toFile());
        assertEquals(ProcessHandle.current().pid(), DriverDirectories.pidOf(dir.getName()));
        assertEquals(base.toFile(), dir.getParentFile());
    }
}
