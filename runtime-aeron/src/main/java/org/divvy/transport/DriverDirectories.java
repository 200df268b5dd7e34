package org.divvy.transport;

import java.io.File;
import java.util.UUID;

import org.agrona.IoUtil;

import io.aeron.CommonContext;

/**
 * Where a node's embedded media driver keeps its files ({@code /dev/shm} on Linux): one directory per
 * driver, named {@code divvy-<pid>-<random>}, so that the directory of a process that died without closing
 * (SIGKILL, a crash) can be told dead by its name and removed by the next node that starts. A driver
 * removes its own directory when it closes; only these leftovers need this.
 */
public final class DriverDirectories {
    static final String PREFIX = "divvy-";

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
        final File[] entries = base.listFiles((dir, name) -> name.startsWith(PREFIX));
        int removed = 0;
        if (entries == null) {
            return 0;
        }
        for (final File entry : entries) {
            final long pid = pidOf(entry.getName());
            if (pid > 0 && entry.isDirectory() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
                IoUtil.delete(entry, true);
                removed++;
            }
        }
        return removed;
    }

    /** The pid in {@code divvy-<pid>-<random>}, or -1. */
    static long pidOf(final String name) {
        final int end = name.indexOf('-', PREFIX.length());
        if (end <= PREFIX.length()) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(PREFIX.length(), end));
        } catch (final NumberFormatException e) {
            return -1;
        }
    }
}
