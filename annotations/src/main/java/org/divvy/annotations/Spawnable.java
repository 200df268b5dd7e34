package org.divvy.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an instance method whose invocations may run in parallel, on this node or a peer.
 *
 * <p>For a class {@code Fib} with spawnable methods the Divvy processor generates an interface
 * {@code FibSpawner}, which {@code Fib} must implement. It has one spawn stub per spawnable method,
 * named {@code spawn} plus the method name ({@code fib} becomes {@code spawnFib}), taking the
 * method's parameters and returning a handle ({@code LongSpawn}, {@code IntSpawn}, {@code DoubleSpawn},
 * {@code BooleanSpawn}, {@code VoidSpawn} or {@code Spawn<T>}). Calling the method directly runs it
 * sequentially; calling the stub records a job that any worker of any node may run.
 *
 * <pre>{@code
 * public class Fib implements FibSpawner {
 *     @Spawnable
 *     public long fib(int n) {
 *         if (n < 20) return fibSequential(n);
 *         LongSpawn a = spawnFib(n - 1);
 *         LongSpawn b = spawnFib(n - 2);
 *         sync();                       // waits for the children of this invocation only
 *         return a.get() + b.get();
 *     }
 * }
 * }</pre>
 *
 * <p>Rules the processor checks (each a javac error on the offending element): the method is not
 * private, static or generic; its class is not generic, not private and not a local or anonymous
 * class; no two spawnable methods of a class share a name; every parameter, the return type and the
 * fields of the receiver (Divvy ships {@code this} with a stolen job) have types that can be sent:
 * primitives, boxes, {@code String}, enums, arrays, records, {@code List}/{@code Set}/{@code Map} of
 * those, classes marked {@link Wire}, the JDK values {@code BigInteger}, {@code BigDecimal}, {@code UUID},
 * {@code LocalDate}, {@code LocalTime}, {@code LocalDateTime}, {@code Instant}, {@code Duration} and
 * {@code BitSet}, {@code EnumSet}/{@code EnumMap} and {@code Optional} of those, and (as parameters only)
 * {@link SharedObject}s.
 *
 * <p>An exception class in the method's {@code throws} clause is rebuilt with its own class, message and
 * remote stack trace at the parent's {@code sync()} when the job ran on another node; it needs a
 * constructor {@code (String)} or {@code (String, Throwable)} the generated code can call (a javac error
 * says so otherwise).
 *
 * <p>A spawnable method must have no side effects other than on shared objects: a job may run on
 * another machine, on a copy of its receiver and parameters, and may be run again after a crash.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Spawnable {
}
