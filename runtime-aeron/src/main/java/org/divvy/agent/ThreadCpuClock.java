package org.divvy.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/** The calling thread's CPU time, from the JVM, for the network agent's own-work figures. */
final class ThreadCpuClock {
    private ThreadCpuClock() {
    }

    /** A clock of the calling thread's CPU time in ns; one that answers -1 if the JVM does not measure it. */
    static LongSupplier currentThread() {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            return () -> -1;
        }
        return threads::getCurrentThreadCpuTime; // -1 while CPU time measurement is disabled
    }
}
