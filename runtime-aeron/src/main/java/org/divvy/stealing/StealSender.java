package org.divvy.stealing;

/** Where a {@link StealStrategy} sends its requests: the thief, or a test's recorder. */
@FunctionalInterface
interface StealSender {
    /** Sends a steal request; false when it could not be queued now (try again later). */
    boolean send(int victimId, long requestId, boolean wideArea);
}
