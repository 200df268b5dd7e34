package org.divvy.testing;

import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.LongJob;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;

/** A job with one argument that returns it, as a spawnable {@code long number(long n)} generates it; nothing decodes it. */
public final class NumberJob extends LongJob {
    /** Its usual type. */
    public static final JobType TYPE = new NamedType("test.Numbers#number");

    private final JobType type;
    private final long n;

    public NumberJob(final long n) {
        this(TYPE, n);
    }

    /** With another type of the same shape (a job type known by its name only). */
    public NumberJob(final JobType type, final long n) {
        this.type = type;
        this.n = n;
    }

    @Override
    protected long call() {
        return n;
    }

    @Override
    public JobType type() {
        return type;
    }

    @Override
    public void encodeArguments(final WireWriter writer) {
        writer.writeLong(n);
    }

    /** A job type known by its name only: nothing here decodes. */
    public record NamedType(String name) implements JobType {
        @Override
        public Job decode(final WireReader reader) {
            throw new UnsupportedOperationException();
        }
    }
}
