package org.divvy.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose instances are replicated on every node that uses them (divide-and-share).
 *
 * <p>Methods annotated {@link Write} are shipped to every replica and applied there (function
 * shipping); all other methods run on the local replica only, even when they change it. Replicas may
 * differ for a while: updates are best effort and are checked only through {@link Guard}s.
 *
 * <p>The processor generates the replica subclass {@code BoundShared} of a shared class {@code Bound}, with
 * {@code Bound}'s constructors: create {@code new BoundShared(...)}, never {@code Bound} itself. Its methods hold
 * the replica's lock (reads a read lock, writes the write lock), so a read never sees half a write.
 *
 * <p>A shared object is passed to a spawnable method as a direct parameter and travels as an id; on
 * the receiving node it resolves to that node's replica. Rules the processor checks: a shared object
 * is never inside an array, collection, record or {@link Wire} class sent with a job, never a field
 * of another shared object and never an argument of a {@link Write} method. Its own state (non-static,
 * non-transient fields) must have types that can be sent, as for {@link Wire} classes, and be non-private and
 * non-final (the replica assigns it); the class needs a non-private no-argument constructor (for new replicas).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface SharedObject {
}
