package org.divvy.codegen;

/**
 * Decodes the jobs of one spawnable method. Generated, one per {@code @Spawnable} method; found
 * through {@link JobTypeProvider}s so every node can rebuild a job a peer sends it.
 */
public interface JobType {
    /**
     * The name every node knows this job type by: the binary name of the class declaring the
     * spawnable method, {@code #}, the method name; for example {@code org.divvy.examples.fib.Fib#fib}.
     */
    String name();

    /** Decodes the receiver and arguments written by {@link Job#encodeArguments(WireWriter)} into a new job. */
    Job decode(WireReader reader);
}
