package org.divvy.scheduling;

import org.divvy.LongSpawn;
import org.divvy.Spawner;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.LongJob;
import org.divvy.codegen.Spawns;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;

/** Fib as a user writes it, with the stub and job the processor would generate, written by hand. */
public final class Fib implements Spawner {
    private final int threshold;

    public Fib(final int threshold) {
        this.threshold = threshold;
    }

    public long fib(final int n) {
        if (n < threshold) {
            return fibSequential(n);
        }
        final LongSpawn a = spawnFib(n - 1);
        final LongSpawn b = spawnFib(n - 2);
        sync();
        return a.get() + b.get();
    }

    public static long fibSequential(final int n) {
        return n < 2 ? n : fibSequential(n - 1) + fibSequential(n - 2);
    }

    /** The generated stub. */
    public LongSpawn spawnFib(final int n) {
        return Spawns.spawn(new FibJob(this, n));
    }

    /** The generated job. */
    public static final class FibJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.scheduling.Fib#fib";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new FibJob(new Fib(reader.readInt()), reader.readInt());
            }
        };

        private final Fib receiver;
        private final int n;

        FibJob(final Fib receiver, final int n) {
            this.receiver = receiver;
            this.n = n;
        }

        @Override
        protected long call() {
            return receiver.fib(n);
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeInt(receiver.threshold).writeInt(n);
        }
    }
}
