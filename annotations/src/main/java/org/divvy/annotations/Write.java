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
 * Updates may be lost, duplicated or reordered; use {@link Guard}s to state what a job needs.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Write {
}
