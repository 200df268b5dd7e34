package org.divvy.agent;

/**
 * A mechanism's part of the agent's duty cycle: its timers and the outbox its workers or application
 * threads fill. Runs on the agent thread after the cycle's frames were dispatched; must not block.
 */
@FunctionalInterface
public interface Duty {
    /**
     * @param nowNs the cycle's one clock reading.
     * @return the work done, 0 when there was nothing to do, so the idle strategy can back off.
     */
    int doWork(long nowNs);

    /**
     * Whether this duty's work only keeps the node going (heartbeats, joins, steal requests to peers)
     * rather than serving the computation (results, aborts, run starts): housekeeping work does not
     * keep a node out of deep idle. False by default.
     */
    default boolean isHousekeeping() {
        return false;
    }

    /**
     * Whether this duty's work can wait a fraction of a millisecond: timers (heartbeats, failure detection, joins,
     * hand-over deadlines) and requests of application threads (a leave, a run start, a root to send). While the
     * agent spins between frames, a cycle of a few microseconds, such a duty runs at most once per
     * {@link NetworkAgent#PACED_DUTY_INTERVAL_NS}, and in every cycle that follows or receives work: an idle cycle
     * is most of a frame's wait, so it should be short. False by default: run every cycle (results, steal replies,
     * shared-object writes: a computation waits for them).
     */
    default boolean isPaced() {
        return false;
    }

    /**
     * The agent stopped: give back what this duty holds that would outlive the node, the off-heap frames above all (a
     * JVM of many nodes, the tests', would leak them). On the agent thread, after its last cycle and after the node's
     * codec thread stopped (what its finished tasks made is in this duty's inbox; a task still running when the codec
     * thread's bounded close gave up waiting, 1 s, adds its output later and that is not given back), before the
     * transport closes. Nothing by default.
     */
    default void onAgentClose() {
    }
}
