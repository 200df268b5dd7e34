package org.divvy.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a user class whose instances may be sent to other nodes as parameters, results or fields, or an
 * exception class to be rebuilt with its own class when a child on another node throws it.
 *
 * <p>The processor generates a codec ({@code SceneCodec} for {@code Scene}) that writes the
 * non-static, non-{@code transient} fields in declaration order, without reflection and without Java
 * serialization. Records need no mark: their components are sent. The processor checks, with a javac
 * error on the element: the class is {@code final} (the codec writes exactly the declared fields, so a
 * subclass would lose data); it has a no-argument constructor that is not private; no sent field is
 * private or final (the codec sets fields directly: make the field package-private, or make the class
 * a record); every sent field has a type that can be sent. After decoding, {@code transient} fields
 * hold their default values.
 *
 * <p>Depth has no limit, and a class whose fields can reach its own type (a linked node, a graph vertex)
 * keeps its shape: within one message an object reached twice arrives once and a cycle arrives as a
 * cycle. Classes that cannot reach themselves, and records, are sent as trees (a value reachable twice is
 * sent twice).
 *
 * <p>On an exception class, {@code @Wire} means: when a child on another node throws it, rebuild it at the
 * parent's {@code sync()} with its own class, message and remote stack trace (unmarked classes arrive as
 * {@code RemoteJobException}, unless a spawnable declares them in its {@code throws} clause). Its fields
 * are not sent; it need not be final, and needs a constructor {@code (String message)} or
 * {@code (String message, Throwable cause)} the generated code in its package can call (a javac error
 * says so otherwise).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Wire {
}
