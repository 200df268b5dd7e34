/**
 * How long a thread copying a large message keeps its JVM from reaching a safepoint:
 * {@link org.divvy.perf.safepoint.SafepointReach}.
 */
package org.divvy.perf.safepoint;
