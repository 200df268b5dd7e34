package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;

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
    void shouldRemoveALauncherChildsDirectoryOnlyWhenTheLauncherAndTheChildAreDead(@TempDir final Path base)
        throws Exception {
        final long deadLauncher = deadPid();
        final String prefix = new File(CommonContext.AERON_DIR_PROP_DEFAULT).getName() + "-divvy-";
        final File deadChild = base.resolve(prefix + deadLauncher + "-node1").toFile();
        final File liveChild = base.resolve(prefix + deadLauncher + "-node2").toFile();
        final File ofLiveLauncher = base.resolve(prefix + ProcessHandle.current().pid() + "-node3").toFile();
        final File noDriverFiles = Files.createDirectories(base.resolve(prefix + deadLauncher + "-node4")).toFile();
        final File otherPrefix = base.resolve("other-divvy-" + deadLauncher + "-node5").toFile();
        try (MediaDriver running = launch(liveChild); MediaDriver live = launch(ofLiveLauncher);
            MediaDriver other = launch(otherPrefix)) {
            launch(deadChild).close(); // its files stay, as a SIGKILLed child's would
            writeDriverPid(deadChild, deadPid()); // and the driver that wrote them is dead
            assertEquals(1, DriverDirectories.removeStale(base.toFile()));
            assertFalse(deadChild.exists(), "a dead launcher's dead child");
            assertTrue(liveChild.exists(), "a child that outlives its launcher (its CnC names this live JVM)");
            assertTrue(ofLiveLauncher.exists(), "a live launcher's child");
            assertTrue(noDriverFiles.exists(), "no CnC: nothing says the child is dead");
            assertTrue(otherPrefix.exists(), "not named as divvy run names them");
        }
    }

    @Test
    void shouldNeverFollowALinkOutOfTheBase(@TempDir final Path base, @TempDir final Path elsewhere) throws Exception {
        final Path precious = Files.writeString(elsewhere.resolve("precious"), "keep me");
        Files.createSymbolicLink(base.resolve("divvy-" + deadPid() + "-link"), elsewhere);
        assertEquals(0, DriverDirectories.removeStale(base.toFile()));
        assertTrue(Files.exists(precious));
    }

    /** Overwrites the driver pid in {@code dir}'s CnC file. */
    private static void writeDriverPid(final File dir, final long pid) {
        final MappedByteBuffer cnc = IoUtil.mapExistingFile(new File(dir, CncFileDescriptor.CNC_FILE), "cnc");
        try {
            CncFileDescriptor.createMetaDataBuffer(cnc).putLong(CncFileDescriptor.pidOffset(0), pid);
        } finally {
            IoUtil.unmap(cnc);
        }
        assertEquals(pid, DriverDirectories.driverPidOf(dir));
    }

    private static MediaDriver launch(final File dir) {
        return MediaDriver.launchEmbedded(TestDriver.context().aeronDirectoryName(dir.getPath()).dirDeleteOnShutdown(false));
    }

    @Test
    void shouldNameANewDirectoryForThisProcess(@TempDir final Path base) {
        final File dir = DriverDirectories.newDirectory(base.toFile());
        assertEquals(ProcessHandle.current().pid(), DriverDirectories.pidOf(dir.getName()));
        assertEquals(base.toFile(), dir.getParentFile());
    }
}
