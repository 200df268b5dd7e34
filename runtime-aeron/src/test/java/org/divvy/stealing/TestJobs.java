package org.divvy.stealing;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.LongSpawn;
import org.divvy.Spawner;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.JobTypeProvider;
import org.divvy.codegen.LongJob;
import org.divvy.codegen.Spawns;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;

/**
 * Hand-written spawnables with the jobs and job types the processor would generate, registered for
 * decoding through {@code src/test/resources/META-INF/services}.
 */
public final class TestJobs implements JobTypeProvider {
    @Override
    public List<JobType> jobTypes() {
        return List.of(FibJob.TYPE, WorkJob.TYPE, TreeJob.TYPE, ForgetfulJob.TYPE);
    }

    /** Leaves of {@link #tree} that ran to their end, in this JVM (all nodes of a test): recomputation shows here. */
    public static final java.util.concurrent.atomic.AtomicLong TREE_LEAVES_RUN = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A complete tree of {@code fanout}-way spawns, {@code depth} levels deep, whose leaves park for
     * {@code leafMs} (returning early when asked to stop); returns its number of leaves, {@code fanout^depth}.
     */
    public static long tree(final int fanout, final int depth, final long leafMs) {
        if (depth == 0) {
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leafMs);
            while (System.nanoTime() - deadlineNs < 0) {
                if (Spawns.isCancelRequested()) {
                    return -1_000_000; // never read: an aborted job has no value
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            TREE_LEAVES_RUN.incrementAndGet();
            return 1;
        }
        final LongSpawn[] children = new LongSpawn[fanout];
        for (int i = 0; i < fanout; i++) {
            children[i] = spawnTree(fanout, depth - 1, leafMs);
        }
        Spawns.sync();
        long leaves = 0;
        for (final LongSpawn child : children) {
            leaves += child.get();
        }
        return leaves;
    }

    public static LongSpawn spawnTree(final int fanout, final int depth, final long leafMs) {
        return Spawns.spawn(new TreeJob(fanout, depth, leafMs));
    }

    /** Fib whose leaves also park for {@code leafParkMicros}: simulated work, so runs last long enough to steal. */
    public static final class Fib implements Spawner {
        final int threshold;
        final int leafParkMicros;

        public Fib(final int threshold, final int leafParkMicros) {
            this.threshold = threshold;
            this.leafParkMicros = leafParkMicros;
        }

        public long fib(final int n) {
            if (n < threshold) {
                if (leafParkMicros > 0) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(leafParkMicros));
                }
                return sequential(n);
            }
            final LongSpawn a = spawnFib(n - 1);
            final LongSpawn b = spawnFib(n - 2);
            sync();
            return a.get() + b.get();
        }

        public static long sequential(final int n) {
            return n < 2 ? n : sequential(n - 1) + sequential(n - 2);
        }

        public LongSpawn spawnFib(final int n) {
            return Spawns.spawn(new FibJob(this, n));
        }
    }

    static final class FibJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.stealing.TestJobs$Fib#fib";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new FibJob(new Fib(reader.readInt(), reader.readInt()), reader.readInt());
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
            writer.writeInt(receiver.threshold).writeInt(receiver.leafParkMicros).writeInt(n);
        }
    }

    /**
     * {@code work(millis, failWith)}: parks in 1 ms steps for {@code millis} (returning early, with -1,
     * when asked to stop), then throws {@code IllegalStateException(failWith)} if that is non-empty, else
     * returns the milliseconds worked.
     */
    public static LongSpawn spawnWork(final long millis, final String failWith) {
        return Spawns.spawn(new WorkJob(millis, failWith));
    }

    public static long work(final long millis, final String failWith) {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadlineNs < 0) {
            if (Spawns.isCancelRequested()) {
                return -1;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (!failWith.isEmpty()) {
            throw new IllegalStateException(failWith);
        }
        return millis;
    }

    static final class WorkJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.stealing.TestJobs#work";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new WorkJob(reader.readLong(), reader.readString());
            }
        };

        private final long millis;
        private final String failWith;

        WorkJob(final long millis, final String failWith) {
            this.millis = millis;
            this.failWith = failWith;
        }

        @Override
        protected long call() {
            return work(millis, failWith);
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeLong(millis).writeString(failWith);
        }
    }

    /** {@code forgetful(millis)}: spawns {@code work(millis, "")} and returns 1 without syncing it (a user's mistake). */
    public static LongSpawn spawnForgetful(final long millis) {
        return Spawns.spawn(new ForgetfulJob(millis));
    }

    static final class ForgetfulJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.stealing.TestJobs#forgetful";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new ForgetfulJob(reader.readLong());
            }
        };

        private final long millis;

        ForgetfulJob(final long millis) {
            this.millis = millis;
        }

        @Override
        protected long call() {
            spawnWork(millis, "");
            return 1;
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeLong(millis);
        }
    }

    /** Encodes of {@link #spawnUnencodable} jobs tried, in this JVM: a victim tried to give one away. */
    public static final java.util.concurrent.atomic.AtomicLong UNENCODABLE_ENCODES = new java.util.concurrent.atomic.AtomicLong();

    /**
     * {@code work(millis, "")} whose arguments cannot be encoded (its encoder throws, as a generated codec does for a
     * value it cannot write): a victim must keep it and run it, never lose it. Not registered: it never arrives.
     */
    public static LongSpawn spawnUnencodable(final long millis) {
        return Spawns.spawn(new UnencodableJob(millis));
    }

    static final class UnencodableJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.stealing.TestJobs#unencodable";
            }

            @Override
            public Job decode(final WireReader reader) {
                throw new AssertionError("an unencodable job never travels");
            }
        };

        private final long millis;

        UnencodableJob(final long millis) {
            this.millis = millis;
        }

        @Override
        protected long call() {
            return work(millis, "");
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            UNENCODABLE_ENCODES.incrementAndGet();
            throw new IllegalArgumentException("a value this codec cannot write");
        }
    }

    /** The job record of {@link #tree}. */
    static final class TreeJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "org.divvy.stealing.TestJobs#tree";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new TreeJob(reader.readInt(), reader.readInt(), reader.readLong());
            }
        };

        private final int fanout;
        private final int depth;
        private final long leafMs;

        TreeJob(final int fanout, final int depth, final long leafMs) {
            this.fanout = fanout;
            this.depth = depth;
            this.leafMs = leafMs;
        }

        @Override
        protected long call() {
            return tree(fanout, depth, leafMs);
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeInt(fanout).writeInt(depth).writeLong(leafMs);
        }
    }
}
