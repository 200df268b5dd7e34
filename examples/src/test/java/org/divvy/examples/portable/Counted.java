package org.divvy.examples.portable;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;

/**
 * A spawnable whose argument counts how often it is iterated: the generated codec iterates a list to
 * encode it, and nothing else here does, so the count says how many jobs were encoded.
 */
public class Counted implements CountedSpawner {
    /** Iterations of every {@link CountingList}: encodes of a job holding one. */
    static final AtomicInteger ITERATIONS = new AtomicInteger();

    /** A list that counts its iterations. */
    static final class CountingList extends ArrayList<Integer> {
        private static final long serialVersionUID = 1L;

        CountingList(final List<Integer> values) {
            super(values);
        }

        @Override
        public Iterator<Integer> iterator() {
            ITERATIONS.incrementAndGet();
            return super.iterator();
        }
    }

    @Spawnable
    public long size(final List<Integer> values) {
        return values.size();
    }

    /** Spawns {@code jobs} jobs, each with a counting list of 3 values; returns the sum of their sizes. */
    long spawnAll(final int jobs) {
        final List<LongSpawn> sizes = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            sizes.add(spawnSize(new CountingList(List.of(i, i + 1, i + 2))));
        }
        sync();
        long sum = 0;
        for (final LongSpawn size : sizes) {
            sum += size.get();
        }
        return sum;
    }
}
