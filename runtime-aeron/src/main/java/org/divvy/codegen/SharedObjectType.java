package org.divvy.codegen;

/**
 * What the runtime needs to know about one {@code @SharedObject} class, generated as the {@code TYPE}
 * field of its replica subclass ({@code BoundShared.TYPE}): how to make an empty replica, how to send
 * and receive a replica's state (its sent fields, through the generated codec) and how to apply a write
 * shipped from another replica (a method id and its arguments), all without reflection.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable). {@link #apply} and {@link #readState} are called by the
 * runtime with the replica's write lock held; {@link #writeState} with its read lock held.
 *
 * @param <T> the replica class.
 */
public abstract class SharedObjectType<T> {
    protected SharedObjectType() {
    }

    /** The binary name of the shared class, the same on every node. */
    public abstract String name();

    /** A new replica made with the class's no-argument constructor; its state comes from {@link #readState}. */
    public abstract T newReplica();

    /** Writes the replica's sent fields. */
    public abstract void writeState(WireWriter writer, T replica);

    /** Reads fields written by {@link #writeState} into {@code replica}. */
    public abstract void readState(WireReader reader, T replica);

    /** Applies write method {@code methodId} with the arguments in {@code arguments} to {@code replica}, without shipping it again. */
    public abstract void apply(T replica, int methodId, WireReader arguments);

    /** The name of write method {@code methodId}, for messages and statistics. */
    public abstract String writeName(int methodId);
}
