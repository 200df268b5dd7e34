package org.divvy.transport;


import org.agrona.concurrent.SleepingMillisIdleStrategy;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/** The one embedded driver a test class shares among its nodes: SHARED threading, sleeping when idle. */
public final class TestDriver {
    private TestDriver() {
    }

    public static MediaDriver launch() {
        return MediaDriver.launchEmbedded(context());
    }

    /** The settings of {@link #launch()}, for a test that changes some (its own directory, term, endpoints). */
    public static MediaDriver.Context context() {
        return new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024);
    }
}
