package org.divvy.examples.uts;

import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.examples.WireCopies;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UtsTest {
    private static int[] words(final byte[] digest) {
        final ByteBuffer buffer = ByteBuffer.wrap(digest);
        final int[] words = new int[5];
        for (int i = 0; i < 5; i++) {
            words[i] = buffer.getInt();
        }
        return words;
    }

    @Test
    void shouldMatchMessageDigestSha1() throws NoSuchAlgorithmException {
        final MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        for (final int seed : new int[] {0, 19, 42, -1, Integer.MIN_VALUE}) {
            final int[] root = Sha1Rng.init(seed);
            assertArrayEquals(words(sha1.digest(ByteBuffer.allocate(20).putInt(16, seed).array())), root, "seed " + seed);
            for (final int child : new int[] {0, 1, 7, 99, 1999}) {
                final ByteBuffer message = ByteBuffer.allocate(24);
                for (final int word : root) {
                    message.putInt(word);
                }
                message.putInt(child);
                assertArrayEquals(words(sha1.digest(message.array())), Sha1Rng.spawn(root, child),
                    "seed " + seed + " child " + child);
            }
        }
    }

    @Test
    void shouldTakeTheRandomNumberFromTheLastFourBytes() {
        final int[] state = {0, 0, 0, 0, 0xFFFF_FFFF};
        assertEquals(0x7FFF_FFFF, Sha1Rng.rand(state));
        assertEquals(0x7FFF_FFFF / 2147483648.0, Sha1Rng.toProbability(state));
    }

    @Test
    void shouldCountSampleTreeT1Sequentially() {
        final UtsSamples.Sample t1 = UtsSamples.byName("T1").orElseThrow();
        assertEquals(new Counts(4_130_071, 3_305_118, 10), UtsSequential.search(t1.tree()));
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {2})
    void shouldCountSampleTreeT1InParallel(final int workers) {
        final UtsTree tree = UtsSamples.byName("T1").orElseThrow().tree();
        assertEquals(new Counts(4_130_071, 3_305_118, 10), Nodes.run(workers, new Uts(tree, 6).searchTree()));
    }

    /** Every published sample (geometric of each shape, binomial, hybrid) with the kernel, sequentially. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"T1", "T2", "T3", "T4", "T5"})
    void shouldCountEveryPublishedSampleSequentially(final String name) {
        final UtsSamples.Sample sample = UtsSamples.byName(name).orElseThrow();
        assertEquals(sample.expected(), UtsSequential.search(sample.tree()));
    }

    /**
     * Every published sample on 2 workers: spawning down to height 3, then the kernel per job (so the
     * stolen and the local jobs both run it), and with the example's default spawn depth.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"T1", "T2", "T3", "T4", "T5"})
    void shouldCountEveryPublishedSampleInParallel(final String name) {
        final UtsSamples.Sample sample = UtsSamples.byName(name).orElseThrow();
        assertEquals(sample.expected(), Nodes.run(2, new Uts(sample.tree(), 3).searchTree()), "spawn depth 3");
        final int defaultDepth = new UtsApp(name, null).spawnDepth(sample.tree());
        assertEquals(sample.expected(), Nodes.run(2, new Uts(sample.tree(), defaultDepth).searchTree()),
            "spawn depth " + defaultDepth);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldCountSmallTreesOfEveryTypeAsTheSequentialSearchDoes(final int workers) {
        final UtsTree[] trees = {
            new UtsTree(UtsTree.BINOMIAL, 0, 6, 50, 42, 0.124875, 8, 0.5),
            new UtsTree(UtsTree.BINOMIAL, 0, 6, 100, 7, 0.2, 5, 0.5),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.LINEAR, 8, 4, 34, 0, 0, 0.5),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.EXPDEC, 10, 4, 19, 0, 0, 0.5),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.CYCLIC, 6, 4, 502, 0, 0, 0.5),
            new UtsTree(UtsTree.HYBRID, UtsTree.LINEAR, 8, 4, 1, 0.234375, 4, 0.5),
        };
        for (final UtsTree tree : trees) {
            final Counts expected = UtsSequential.search(tree);
            for (final int spawnDepth : new int[] {0, 3, 1_000_000}) {
                assertEquals(expected, Nodes.run(workers, new Uts(tree, spawnDepth).searchTree()),
                    tree.flags() + " spawn depth " + spawnDepth);
            }
        }
    }

    @Test
    void shouldRecogniseSampleTreesGivenByFlags() {
        final UtsTree t3 = new UtsTree(0, 3, 10, 2000, 42, 0.124875, 8, 0.5);
        assertEquals("T3", UtsSamples.matching(t3).orElseThrow().name());
        assertEquals("T1", UtsSamples.matching(new UtsTree(1, 3, 10, 4, 19, 0.3, 5, 0.5)).orElseThrow().name());
        assertEquals(false, UtsSamples.matching(new UtsTree(1, 3, 10, 4, 20, 0, 0, 0.5)).isPresent());
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final UtsTree tree = new UtsTree(UtsTree.HYBRID, UtsTree.LINEAR, 8, 4, 1, 0.234375, 4, 0.5);
        final int[] root = Sha1Rng.init(tree.rootSeed());
        final UtsJobs.SearchJob copy = WireCopies.copy(new UtsJobs.SearchJob(new Uts(tree, 0), root, 0));
        final Counts counts = copy.call();
        assertEquals(UtsSequential.search(tree), counts);
        final WireWriter writer = new WireWriter();
        copy.writeValue(writer, counts);
        assertEquals(counts, copy.readValue(new WireReader(writer.toByteArray())), "the counts travel back");
    }
}
