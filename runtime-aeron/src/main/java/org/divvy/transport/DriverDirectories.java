package org.divvy.transport;

import java.io.File;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.IoUtil;

import io.aeron.CommonContext;

/**
 * Where a node's embedded media driver keeps its files ({@code /dev/shm} on Linux): one directory per
 * driver, named {@code divvy-<pid>-<random>}, so that the directory of a process that died without closing
 * (SIGKILL, a crash) can be told dead by its name and removed by the next node that starts. A driver
 * removes its own directory when it closes; only these leftovers need this.
 *
 * <p>{@code divvy run} names its children's directories itself, {@code <aeron default>-divvy-<pid>-node<k>}
 * with its own pid, so that it can remove a child's after the child died. When the launcher was killed as well
 * those are left too: they are removed once the launcher is dead and their driver has not run for
 * {@link #CHILD_DRIVER_TIMEOUT_MS} (a child outlives its launcher until it notices the registry is gone).
 */
public final class DriverDirectories {
    static final String PREFIX = "divvy-";
    /**
     * How long a launcher's child's driver must have been still before its directory counts as left over:
     * Aeron's own driver timeout (a running driver beats once a second; its clients give up after this).
     */
    public static final long CHILD_DRIVER_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(10);
    private static final Pattern CHILD = Pattern.compile(".*-divvy-(\\d+)-node\\d+");

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
        return removeStale(base, CHILD_DRIVER_TIMEOUT_MS);
    }

    static int removeStale(final File base, final long childDriverTimeoutMs) {
        final File[] entries = base.listFiles(File::isDirectory);
        int removed = 0;
        if (entries == null) {
            return 0;
        }
        for (final File entry : entries) {
            final String name = entry.getName();
            final boolean stale;
            if (name.startsWith(PREFIX)) {
                stale = isDead(pidOf(name));
            } else {
                final Matcher child = CHILD.matcher(name);
                stale = child.matches() && isDead(parsePid(child.group(1))) && !isDriverActive(entry, childDriverTimeoutMs);
            }
            if (stale) {
                IoUtil.delete(entry, true);
                removed++;
            }
        }
        return removed;
    }

    private static boolean isDead(final long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    private static boolean isDriverActive(final File dir, final long timeoutMs) {
        try {
            return CommonContext.isDriverActive(dir, timeoutMs, message -> { });
        } catch (final RuntimeException e) {
            return true; // a CnC file being written, or of another Aeron version: not ours to judge
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
