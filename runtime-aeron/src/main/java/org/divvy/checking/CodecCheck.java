package org.divvy.checking;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.divvy.DivvyException;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.SharedObjectType;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.results.RemoteExceptions;
import org.divvy.scheduling.ComputeHook;
import org.divvy.scheduling.Task;
import org.divvy.stealing.JobTypeRegistry;

/**
 * Checking mode: runs every spawned job as if another node had stolen it. Its receiver and arguments are
 * encoded and decoded through its job type found by name (as a thief finds it), the decoded copy runs in
 * the job's place, the copy's result is encoded and read back into the job, and an exception it throws
 * travels as text and is rebuilt ({@link RemoteExceptions}), so {@code catch} clauses around {@code sync()}
 * see on one node what they would see on N. Each failure is the one a multi-node run would report:
 *
 * <ul>
 *   <li>arguments that cannot be encoded: the job runs unchanged, with a warning (a victim keeps such a job);</li>
 *   <li>a job type no provider registers, arguments that do not decode: the job fails as a thief's rejection
 *   reaches the owner (a {@code RemoteJobException} naming {@code DivvyException});</li>
 *   <li>a result that cannot be encoded or decoded: the job fails as it would on the owner.</li>
 * </ul>
 *
 * <p>Workers call it concurrently, each with its own writer and reader; a job's nested jobs reuse them
 * only after its encode and decode are done.
 */
public final class CodecCheck implements ComputeHook {
    private static final System.Logger LOG = System.getLogger(CodecCheck.class.getName());

    private final JobTypeRegistry jobTypes;
    private final RemoteExceptions exceptions;
    /**
     * Shared objects travel by id; the copy runs in this JVM, on this node, so an id resolves to the very replica
     * that was sent (a thief's node resolves it to its own replica instead).
     */
    private final SharedObjectContext sameReplicas = new SharedObjectContext() {
        private final ConcurrentHashMap<Long, Object> sent = new ConcurrentHashMap<>();

        @Override
        public void attach(final ReplicaCore core) {
            sent.putIfAbsent(core.id(), core.replica());
        }

        @Override
        public Object resolve(final long id, final SharedObjectType<?> type, final int sourceNodeId) {
            return sent.get(id);
        }
    };
    private final ThreadLocal<WireWriter> writers = ThreadLocal.withInitial(() -> new WireWriter().sharedObjects(sameReplicas));
    private final ThreadLocal<WireReader> readers = ThreadLocal.withInitial(() -> new WireReader().sharedObjects(sameReplicas, -1));
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final AtomicLong jobsChecked = new AtomicLong();
    private volatile int nodeId;

    public CodecCheck(final JobTypeRegistry jobTypes) {
        this.jobTypes = jobTypes;
        this.exceptions = new RemoteExceptions(jobTypes.exceptionTypes());
    }

    /** The node's id, named in the rebuilt exceptions' {@code RemoteJobException}; 0 until a networked node joined. */
    public void nodeId(final int id) {
        nodeId = id;
    }

    /** Jobs whose copy ran. */
    public long jobsChecked() {
        return jobsChecked.get();
    }

    @Override
    public boolean compute(final Task task) throws Throwable {
        if (!(task instanceof Job job)) {
            return false;
        }
        final String name = job.type().name();
        final WireWriter writer = writers.get();
        final WireReader reader = readers.get();
        writer.reset();
        try {
            job.encodeArguments(writer);
        } catch (final RuntimeException e) {
            if (warned.add(name)) {
                LOG.log(System.Logger.Level.WARNING, "checking mode: jobs `" + name + "` cannot be encoded for another node, so they "
                    + "would always run where they were spawned: " + e);
            }
            return false;
        }
        final JobType type = jobTypes.get(name);
        if (type == null) {
            throw rejected(name, "job type `" + name + "` is unknown on node " + nodeId + ": every node needs the same application "
                + "classes (its generated *Jobs provider, registered in META-INF/services/org.divvy.codegen.JobTypeProvider) on its class path");
        }
        final Job copy;
        try {
            reader.wrap(writer.buffer(), 0, writer.length());
            copy = type.decode(reader);
            reader.expectEnd();
        } catch (final RuntimeException e) {
            throw rejected(name, "job `" + name + "` could not be decoded on node " + nodeId + ": " + e.getMessage());
        }
        jobsChecked.incrementAndGet();
        try {
            copy.computeAsCopy();
        } catch (final Throwable t) {
            if (ComputeHook.isAbort(t)) {
                throw t;
            }
            throw exceptions.throughText(t, name, nodeId);
        }
        writer.reset();
        try {
            copy.writeResult(writer);
        } catch (final RuntimeException e) {
            throw exceptions.rebuildException(name, nodeId, e.getClass().getName(),
                "could not encode the result on node " + nodeId + ": " + e.getMessage(), "");
        }
        try {
            reader.wrap(writer.buffer(), 0, writer.length());
            job.readResult(reader);
            reader.expectEnd();
        } catch (final RuntimeException e) {
            throw new DivvyException("the result of job `" + name + "` from node " + nodeId + " could not be decoded: " + e.getMessage(), e);
        }
        return true;
    }

    private Throwable rejected(final String name, final String problem) {
        return exceptions.rebuildException(name, nodeId, DivvyException.class.getName(), problem, "");
    }
}
