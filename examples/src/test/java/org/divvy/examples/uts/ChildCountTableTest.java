package org.divvy.examples.uts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChildCountTableTest {
    static Stream<UtsTree> trees() {
        return Stream.of(
            UtsSamples.byName("T1").orElseThrow().tree(),
            UtsSamples.byName("T2").orElseThrow().tree(),
            UtsSamples.byName("T3").orElseThrow().tree(),
            UtsSamples.byName("T4").orElseThrow().tree(),
            UtsSamples.byName("T5").orElseThrow().tree(),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.FIXED, 12, 4, 19, 0, 0, 0.5),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.FIXED, 5, 0.3, 1, 0, 0, 0.5),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.FIXED, 5, 2000, 1, 0, 0, 0.5),
            new UtsTree(UtsTree.GEOMETRIC, UtsTree.LINEAR, 8, 0, 3, 0, 0, 0.5),
            new UtsTree(UtsTree.HYBRID, UtsTree.EXPDEC, 9, 6, 5, 0.2, 5, 0.3));
    }

    /** The table against the formula at random numbers either side of every step, at the ends and at random. */
    @ParameterizedTest
    @MethodSource("trees")
    void shouldGiveTheFormulasCountForEveryRandomNumberTried(final UtsTree tree) {
        final ChildCountTable table = ChildCountTable.of(tree);
        final SplittableRandom random = new SplittableRandom(tree.rootSeed());
        for (int height = 0; height <= 5 * tree.maxDepth() + 3; height++) {
            for (final int r : new int[] {0, 1, 2, Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
                assertSameCount(tree, table, r, height);
            }
            for (int i = 0; i < 20_000; i++) {
                final int r = random.nextInt(Integer.MAX_VALUE);
                assertSameCount(tree, table, r, height);
                assertSameCount(tree, table, r + 1, height);
            }
            for (int k = 1; k <= UtsTree.MAX_CHILDREN && tree.isGeometricAt(height); k++) {
                final int step = leastWithAtLeast(tree, height, k);
                if (step < 0) {
                    break;
                }
                // either side of each step of the formula itself, found here by plain bisection
                if (step > 0) {
                    assertSameCount(tree, table, step - 1, height);
                }
                assertSameCount(tree, table, step, height);
            }
        }
    }

    @Test
    void shouldTabulateGeometricHeightsAndKnowAFixedTreesDepthLimit() {
        final UtsTree tree = new UtsTree(UtsTree.GEOMETRIC, UtsTree.FIXED, 12, 4, 19, 0, 0, 0.5);
        final ChildCountTable table = ChildCountTable.of(tree);
        for (int height = 0; height < 12; height++) {
            assertTrue(table.isTabulated(height), "height " + height + " is tabulated");
            assertFalse(table.isAlwaysLeaf(height), "height " + height + " has nodes with children");
        }
        assertTrue(table.isAlwaysLeaf(12), "the depth limit");
        assertTrue(table.isAlwaysLeaf(13));
        final ChildCountTable binomial = ChildCountTable.of(UtsSamples.byName("T3").orElseThrow().tree());
        assertFalse(binomial.isAlwaysLeaf(1));
        assertFalse(binomial.isTabulated(1), "binomial heights use the formula, which takes no logarithm");
    }

    private static void assertSameCount(final UtsTree tree, final ChildCountTable table, final int r, final int height) {
        assertEquals(tree.numChildren(r, height), table.numChildren(r, height),
            tree.flags() + " height " + height + " random " + r);
        if (table.isAlwaysLeaf(height)) {
            assertEquals(0, tree.numChildren(r, height), tree.flags() + " height " + height + " random " + r);
        }
    }

    /** The least random number with at least {@code k} children by the formula, by bisection; -1 if none. */
    private static int leastWithAtLeast(final UtsTree tree, final int height, final int k) {
        if (tree.numChildren(Integer.MAX_VALUE, height) < k) {
            return -1;
        }
        int low = 0;
        int high = Integer.MAX_VALUE;
        while (low < high) {
            final int middle = (low + high) >>> 1;
            if (tree.numChildren(middle, height) >= k) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }
}
