package org.divvy.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a write method of a {@link SharedObject} class: a call is applied to the local replica and
 * shipped, with its arguments, to every other replica.
 *
 * <p>A write method returns {@code void}, is not private or static, and takes only parameters that
 * can be sent (no shared objects). It must be deterministic: every replica applies it to its own state.
 * Updates may be lost, duplicated or reordered; use {@link Guard}s to state what a job needs. Writes made
 * within the node's combining delay travel together; other nodes apply them at safe points (a spawn, a sync,
 * the end of a job, an explicit poll, and while idle). A write may call other methods of its object; a method
 * that is not a write must not call a write (it would run under the read lock).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Write {
}
