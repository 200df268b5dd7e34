package org.divvy.codegen;

/**
 * Rebuilds one user exception class at the owner's {@code sync()} when a child that ran on another node
 * threw it (exceptions travel as text: class name, message, stack trace). Generated, without reflection,
 * for each exception class the processor can see: declared in a {@code @Spawnable}'s {@code throws}
 * clause (listed by that class's {@code *Jobs}) or marked {@code @Wire} (listed by its {@code *Codec});
 * found through {@link JobTypeProvider#exceptionTypes()}.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable).
 */
public interface ExceptionType {
    /** The binary name of the class ({@link Class#getName()}), as the remote node reports it. */
    String className();

    /**
     * A new instance with {@code message} (null for none), through its {@code (String, Throwable)}
     * constructor, which gets {@code cause} (the {@code RemoteJobException} naming the node), or its
     * {@code (String)} constructor, which does not (the runtime then sets the cause).
     */
    Throwable rebuild(String message, Throwable cause);
}
