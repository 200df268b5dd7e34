package org.divvy.transport;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.IoUtil;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;

/**
 * Where a node's embedded media driver keeps its files ({@code /dev/shm} on Linux): one directory per
 * driver, named {@code divvy-<pid>-<random>}, so that the directory of a process that died without closing
 * (SIGKILL, a crash) can be told dead by its name and removed by the next node that starts. A driver
 * removes its own directory when it closes; only these leftovers need this.
 *
 * <p>{@code divvy run} names its children's directories itself, {@code <aeron default>-divvy-<pid>-node<k>}
 * with its own pid, so that it can remove a child's after the child died. When the launcher was killed as well
 * those are left too: they are removed once the launcher is dead and so is the child, whose pid its driver
 * wrote in the directory's CnC file (a child outlives its launcher until it notices the registry is gone).
 * Only plain directories named so are touched, and links in them are not followed. Processes are told
 * alive by pid: with {@code /dev/shm} shared between containers of different pid namespaces, a live node
 * of another container looks dead; give each its own {@code aeron.dir} parent there.
 */
public final class DriverDirectories {
    static final String PREFIX = "divvy-";
    /** {@code <aeron default dir name>-divvy-<launcher pid>-node<k>}: how {@code divvy run} names its children's. */
    private static final Pattern CHILD = Pattern.compile(
        Pattern.quote(new File(CommonContext.AERON_DIR_PROP_DEFAULT).getName()) + "-divvy-(\\d+)-node\\d+");

    private DriverDirectories() {
    }

    /** Where embedded drivers' directories go: beside Aeron's default directory. */
    public static File base() {
        final File parent = new File(CommonContext.getAeronDirectoryName()).getAbsoluteFile().getParentFile();
        return parent != null ? parent : new File(System.getProperty("java.io.tmpdir"));
    }

    /** A new directory name in {@code base} for a driver of this process. */
    static File newDirectory(final File base) {
        return new File(base, PREFIX + ProcessHandle.current().pid() + "-" + UUID.randomUUID());
    }

    /**
     * Removes the directories in {@code base} left by drivers of processes that are no longer alive; never
     * touches a directory that is not named like ours, or whose process lives.
     *
     * @return how many were removed.
     */
    public static int removeStale(final File base) {
        final File[] entries = base.listFiles();
        int removed = 0;
        if (entries == null) {
            return 0;
        }
        for (final File entry : entries) {
            final Path path = entry.toPath();
            if (Files.isSymbolicLink(path) || !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                continue; // ours are plain directories; a link may point anywhere
            }
            final String name = entry.getName();
            final boolean stale;
            if (name.startsWith(PREFIX)) {
                // made by this process's kind itself: its own pid in the name; a CnC, if it got that far, of it too
                final long driverPid = driverPidOf(entry);
                stale = isDead(pidOf(name)) && (driverPid <= 0 || isDead(driverPid));
            } else {
                // made by a launcher for a child: the child's own pid is only in the CnC, which must say it is dead
                final Matcher child = CHILD.matcher(name);
                stale = child.matches() && isDead(parsePid(child.group(1))) && isDead(driverPidOf(entry));
            }
            if (stale && deleteTree(path)) {
                removed++;
            }
        }
        return removed;
    }

    private static boolean isDead(final long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    /** The pid of the driver that made {@code dir}'s CnC file, as it wrote it there; 0 if there is none to read. */
    static long driverPidOf(final File dir) {
        final File cnc = new File(dir, CncFileDescriptor.CNC_FILE);
        if (!cnc.isFile() || cnc.length() < CncFileDescriptor.META_DATA_LENGTH) {
            return 0;
        }
        MappedByteBuffer mapped = null;
        try {
            mapped = IoUtil.mapExistingFile(cnc, FileChannel.MapMode.READ_ONLY, CncFileDescriptor.CNC_FILE);
            return CncFileDescriptor.createMetaDataBuffer(mapped).getLong(CncFileDescriptor.pidOffset(0));
        } catch (final RuntimeException e) {
            return 0;
        } finally {
            if (mapped != null) {
                IoUtil.unmap(mapped);
            }
        }
    }

    /** Deletes {@code dir} and what is in it, never following a link out of it; false if something stayed. */
    private static boolean deleteTree(final Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path visited, final IOException e) throws IOException {
                    Files.delete(visited);
                    return FileVisitResult.CONTINUE;
                }
            });
            return true;
        } catch (final IOException e) {
            return false;
        }
    }

    private static long parsePid(final String digits) {
        try {
            return Long.parseLong(digits);
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    /** The pid in {@code divvy-<pid>-<random>}, or -1. */
    static long pidOf(final String name) {
        final int end = name.indexOf('-', PREFIX.length());
        if (end <= PREFIX.length()) {
            return -1;
        }
        return parsePid(name.substring(PREFIX.length(), end));
    }
}
