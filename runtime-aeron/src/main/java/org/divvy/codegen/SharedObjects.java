package org.divvy.codegen;

import org.divvy.DivvyException;

/**
 * How a shared object passed to a spawnable travels: as its id, resolved to the receiving node's
 * replica. Called by generated job codecs.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable).
 */
public final class SharedObjects {
    private SharedObjects() {
    }

    /** Writes a presence byte and {@code value}'s id; attaches it to the sending node so its writes are shipped. */
    public static void write(final WireWriter writer, final Object value, final String parameter) {
        if (value == null) {
            writer.writePresence(false);
            return;
        }
        if (!(value instanceof SharedReplica replica) || replica.divvyReplica() == null) {
            throw new DivvyException("shared object parameter `" + parameter + "` holds a plain `" + value.getClass().getSimpleName()
                + "`, which has no replicas: create it as `new " + value.getClass().getSimpleName() + "Shared(...)`");
        }
        final ReplicaCore core = replica.divvyReplica();
        final SharedObjectContext context = writer.sharedObjects();
        if (context != null) {
            context.attach(core);
        }
        writer.writePresence(true);
        writer.writeLong(core.id());
    }

    /** Reads what {@link #write} wrote: this node's replica of the object (made empty, to be fetched, if new here). */
    @SuppressWarnings("unchecked")
    public static <T> T read(final WireReader reader, final SharedObjectType<T> type) {
        if (!reader.readPresence()) {
            return null;
        }
        final long id = reader.readLong();
        final SharedObjectContext context = reader.sharedObjects();
        if (context == null) {
            throw new WireDecodeException("a shared object `" + type.name() + "` arrived where this node cannot resolve it "
                + "(only jobs stolen from other nodes carry shared objects; a root that carries one must run on the node that made it)");
        }
        return (T)context.resolve(id, type, reader.sharedSourceNodeId());
    }
}
