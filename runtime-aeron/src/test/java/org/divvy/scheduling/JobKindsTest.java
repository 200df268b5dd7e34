package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.BooleanSpawn;
import org.divvy.DivvyNode;
import org.divvy.DoubleSpawn;
import org.divvy.IntSpawn;
import org.divvy.VoidSpawn;
import org.divvy.codegen.BooleanJob;
import org.divvy.codegen.DoubleJob;
import org.divvy.codegen.IntJob;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.Spawns;
import org.divvy.codegen.VoidJob;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every result-specialised job kind, hand-written as the processor generates them, through spawn and sync. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class JobKindsTest {
    static final JobType TYPE = new JobType() {
        @Override
        public String name() {
            return "test.Kinds#kind";
        }

        @Override
        public Job decode(final WireReader reader) {
            throw new UnsupportedOperationException();
        }
    };

    static final class Square extends IntJob {
        final int x;

        Square(final int x) {
            this.x = x;
        }

        @Override
        protected int call() {
            return x * x;
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeInt(x);
        }
    }

    static final class Half extends DoubleJob {
        final double x;

        Half(final double x) {
            this.x = x;
        }

        @Override
        protected double call() {
            return x / 2;
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeDouble(x);
        }
    }

    static final class IsEven extends BooleanJob {
        final int x;

        IsEven(final int x) {
            this.x = x;
        }

        @Override
        protected boolean call() {
            return x % 2 == 0;
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeInt(x);
        }
    }

    static final class Record extends VoidJob {
        final List<String> log;
        final String entry;

        Record(final List<String> log, final String entry) {
            this.log = log;
            this.entry = entry;
        }

        @Override
        protected void call() {
            synchronized (log) {
                log.add(entry);
            }
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeString(entry);
        }
    }

    @Test
    void shouldDeliverPrimitiveResultsThroughHandlesAndInlets() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final String out = node.run(() -> {
                final List<String> inlets = new ArrayList<>();
                final List<String> log = new ArrayList<>();
                final IntSpawn square = Spawns.spawn(new Square(7)).onResult(v -> inlets.add("int " + v));
                final DoubleSpawn half = Spawns.spawn(new Half(5)).onResult(v -> inlets.add("double " + v));
                final BooleanSpawn even = Spawns.spawn(new IsEven(4)).onResult(v -> inlets.add("boolean " + v));
                final VoidSpawn recorded = Spawns.spawn(new Record(log, "ran")).onResult(() -> inlets.add("void"));
                Spawns.sync();
                recorded.get();
                inlets.sort(null);
                return square.get() + " " + half.get() + " " + even.get() + " " + log + " " + inlets;
            }).value();
            assertEquals("49 2.5 true [ran] [boolean true, double 2.5, int 49, void]", out);
        }
    }
}
