package org.divvy.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a user class whose instances may be sent to other nodes as parameters, results or fields.
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
 * <p>Values are trees: a value reachable twice is sent twice, and a cycle cannot be sent.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Wire {
}
