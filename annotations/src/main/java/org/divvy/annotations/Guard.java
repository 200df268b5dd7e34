package org.divvy.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the guard of a spawnable method: a predicate over the job's shared objects, checked before a
 * stolen job runs (guard consistency, Satin++).
 *
 * <p>The annotation goes on the guard method, never on the spawnable, and names the spawnable it protects.
 * The guard is an instance method declared in the same class as its spawnable method, not private, takes
 * exactly the same parameter types in the same order, and returns {@code boolean}; a spawnable has at
 * most one guard. It returns {@code true} when the
 * replicas of the shared objects the job uses are consistent enough to run it. When it returns
 * {@code false} the node waits briefly for late updates, then fetches fresh replicas from the node the
 * job came from. A guard must be side-effect free.
 *
 * <pre>{@code
 * @Spawnable
 * public Forces computeForces(byte[] nodeId, int iteration, Bodies bodies) { ... }
 *
 * @Guard("computeForces")
 * boolean bodiesAreCurrent(byte[] nodeId, int iteration, Bodies bodies) {
 *     return bodies.iteration + 1 == iteration;
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Guard {
    /** The name of the spawnable method this guard protects, declared in the same class. */
    String value();
}
