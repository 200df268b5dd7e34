package org.divvy.scheduling;

/**
 * How a worker waits when it finds no work: spin a little (work often appears within microseconds),
 * then yield, then park for a time that doubles from a minimum to a maximum, so an idle node does not
 * burn a core yet a busy one reacts fast. After {@link #DEEP_IDLE_AFTER_MAX_PARKS} parks at the maximum
 * (the worker has found nothing for about that many maximum park times) it parks for the deep-idle time:
 * an idle node then wakes each worker a few dozen times a second instead of a thousand. Owned by one
 * worker; a pure object.
 */
final class IdleBackoff {
    static final int SPIN = 0;
    static final int YIELD = 1;
    static final int PARK = 2;

    private final int spinCount;
    private final int yieldCount;
    private final long parkMinNs;
    private final long parkMaxNs;
    private final long deepParkNs;
    private int maxParks;
    private int spins;
    private int yields;
    private long parkNs;

    /** Parks at the maximum time before parks lengthen to the deep-idle time. */
    static final int DEEP_IDLE_AFTER_MAX_PARKS = 100;

    IdleBackoff(final int spinCount, final int yieldCount, final long parkMinNs, final long parkMaxNs,
        final long deepParkNs) {
        this.spinCount = spinCount;
        this.yieldCount = yieldCount;
        this.parkMinNs = parkMinNs;
        this.parkMaxNs = parkMaxNs;
        this.deepParkNs = Math.max(parkMaxNs, deepParkNs);
        reset();
    }

    /** Work was found: the next wait starts with spinning again. */
    void reset() {
        spins = 0;
        yields = 0;
        maxParks = 0;
        parkNs = parkMinNs;
    }

    /** The next step: {@link #SPIN}, {@link #YIELD} or {@link #PARK} (then call {@link #parkNs()}). */
    int next() {
        if (spins < spinCount) {
            spins++;
            return SPIN;
        }
        if (yields < yieldCount) {
            yields++;
            return YIELD;
        }
        return PARK;
    }

    /** The park time of this step; doubles up to the maximum for the next one. */
    long parkNs() {
        final long ns = parkNs;
        if (ns < parkMaxNs) {
            parkNs = Math.min(parkMaxNs, ns << 1);
            return ns;
        }
        if (maxParks < DEEP_IDLE_AFTER_MAX_PARKS) {
            maxParks++;
            return parkMaxNs;
        }
        return deepParkNs;
    }
}
