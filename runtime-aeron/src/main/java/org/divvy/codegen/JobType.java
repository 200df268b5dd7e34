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

    /**
     * What a peer must agree on to decode this type's jobs: by default its {@link #name()}; generated types
     * add their parameters' and codecs' shapes. Nodes compare a digest of every type's signature when they
     * join (see {@code JobTypeRegistry#digest}), so a mismatched build is refused instead of decoding garbage.
     */
    default String wireSignature() {
        return name();
    }

    /** Decodes the receiver and arguments written by {@link Job#encodeArguments(WireWriter)} into a new job. */
    Job decode(WireReader reader);
}
