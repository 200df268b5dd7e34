package org.divvy.examples.tsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.divvy.examples.WireCopies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TspTest {
    /** TSPLIB's optimal tour of att48 (att48.opt.tour), 1-based. */
    private static final int[] ATT48_OPTIMAL_TOUR = {1, 8, 38, 31, 44, 18, 7, 28, 6, 37, 19, 27, 17, 43, 30, 36, 46,
        33, 20, 47, 21, 32, 39, 48, 5, 42, 24, 10, 45, 35, 4, 26, 2, 29, 34, 41, 16, 22, 3, 23, 14, 25, 13, 11, 12, 15,
        40, 9};

    @Test
    void shouldMeasureTheOptimalTourOfAtt48WithAttDistances() {
        final int[] tour = new int[ATT48_OPTIMAL_TOUR.length];
        for (int i = 0; i < tour.length; i++) {
            tour[i] = ATT48_OPTIMAL_TOUR[i] - 1;
        }
        assertEquals(10628, Tsplib.load("att48").tourLength(tour));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"burma14", "ulysses16", "gr17"})
    void shouldFindTheSameOptimumByDynamicProgrammingAsPublished(final String name) {
        // GEO (burma14, ulysses16) and EXPLICIT LOWER_DIAG_ROW (gr17) distances, checked by an exact algorithm
        final TspInstance instance = Tsplib.load(name);
        assertEquals(Tsplib.KNOWN_OPTIMA.get(name), TspSequential.heldKarp(instance));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"burma14", "ulysses16", "gr17", "ulysses22", "gr24", "fri26", "berlin52"})
    void shouldFindThePublishedOptimumSequentially(final String name) {
        assertEquals(Tsplib.KNOWN_OPTIMA.get(name), TspSequential.solve(Tsplib.load(name)));
    }

    @Test
    void shouldFindTheOptimumWithoutAFirstTour() {
        assertEquals(1272, TspSequential.solve(Tsplib.load("gr24"), TspSequential.NO_TOUR));
    }

    @Test
    void shouldReadEveryExplicitFormatAlike() throws Exception {
        final String header = "NAME: t\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: ";
        final String[] files = {
            header + "FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 3 0\nEOF\n",
            header + "LOWER_DIAG_ROW\nEDGE_WEIGHT_SECTION\n0\n1 0\n2 3 0\nEOF\n",
            header + "UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2\n3\nEOF\n",
            header + "UPPER_DIAG_ROW\nEDGE_WEIGHT_SECTION\n0 1 2\n0 3\n0\nEOF\n"};
        for (final String file : files) {
            final TspInstance instance = Tsplib.parse("t", new BufferedReader(new StringReader(file)));
            assertEquals(1, instance.distance(0, 1), file);
            assertEquals(2, instance.distance(2, 0), file);
            assertEquals(3, instance.distance(1, 2), file);
        }
    }

    @Test
    void shouldRefuseAnUnshippedInstanceNamingTheShippedOnes() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tsplib.load("pr76"));
        assertTrue(e.getMessage().contains("gr24"), e.getMessage());
    }

    @Test
    void shouldAgreeWithHeldKarpOnRandomInstancesSequentially() {
        for (long seed = 1; seed <= 10; seed++) {
            final TspInstance instance = TspInstance.random(12, seed);
            assertEquals(TspSequential.heldKarp(instance), TspSequential.solve(instance), "seed " + seed);
            assertEquals(TspSequential.heldKarp(instance), TspSequential.solve(instance, TspSequential.NO_TOUR),
                "seed " + seed + " without a first tour");
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldAgreeWithHeldKarpInParallel(final int workers) {
        for (long seed = 1; seed <= 4; seed++) {
            final TspInstance instance = TspInstance.random(13, seed);
            final int optimum = TspSequential.heldKarp(instance);
            for (final int depth : new int[] {0, 1, 3, 13}) {
                assertEquals(optimum, Nodes.run(workers, Tsp.solve(instance, depth)), "seed " + seed + " depth " + depth);
            }
            // without a first tour nothing is pruned on the spawned levels: keep them few
            for (final int depth : new int[] {0, 2}) {
                assertEquals(optimum, Nodes.run(workers, Tsp.solve(instance, depth, TspSequential.NO_TOUR)),
                    "seed " + seed + " depth " + depth + " without a first tour");
            }
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldAgreeWithHeldKarpSharingTheBound(final int workers) {
        for (long seed = 1; seed <= 4; seed++) {
            final TspInstance instance = TspInstance.random(13, seed);
            final int optimum = TspSequential.heldKarp(instance);
            final int firstTour = instance.tourLength(TspSequential.heuristicTour(instance));
            for (final int depth : new int[] {0, 1, 3, 13}) {
                assertEquals(optimum, Nodes.run(workers, SharingTsp.solve(instance, depth, firstTour)),
                    "seed " + seed + " depth " + depth);
                // without a first tour the shared bound is what prunes the spawned levels: deeper ones are fine here
                assertEquals(optimum, Nodes.run(workers, SharingTsp.solve(instance, depth, TspSequential.NO_TOUR)),
                    "seed " + seed + " depth " + depth + " without a first tour");
            }
        }
    }

    /** A bound lower than the optimum (a wrong shared value) prunes the optimal tour: what a bound may never be. */
    @Test
    void shouldAnswerTheSharedBoundWhenNothingBeatsIt() {
        final TspInstance instance = TspInstance.random(12, 5);
        final int optimum = TspSequential.heldKarp(instance);
        assertEquals(optimum - 1, Nodes.run(1, SharingTsp.solve(instance, 2, optimum - 1)));
        assertEquals(optimum, Nodes.run(1, SharingTsp.solve(instance, 2, optimum + 1)));
    }

    @Test
    void shouldSolveAShippedInstanceInEveryMode() {
        for (final String mode : new String[] {"sequential", "conquer", "share"}) {
            final org.divvy.examples.ExampleApp app = org.divvy.examples.Launcher.parse("tsp", "--instance", "fri26",
                "--no-first-tour", "--spawn-depth", "2", "--mode", mode, "--workers", "2").app();
            final org.divvy.examples.AppResult result = org.divvy.examples.Launcher.run(app, System.out);
            assertTrue(result.passed(), mode + ": " + result.report());
            assertTrue(result.answer().contains("shortest tour 937"), mode + ": " + result.report());
            assertEquals(mode.equals("sequential"), result.mode().equals("sequential"), result.report());
        }
    }

    @Test
    void shouldRefuseAnUnknownModeAndSequentialWithShare() {
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
            () -> org.divvy.examples.Mode.parse("shared"));
        assertTrue(unknown.getMessage().contains("sequential, conquer or share"), unknown.getMessage());
        final RuntimeException both = assertThrows(RuntimeException.class,
            () -> org.divvy.examples.Launcher.parse("tsp", "--sequential", "--mode", "share"));
        assertTrue(both.getMessage().contains("--sequential and --mode share"), both.getMessage());
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final TspInstance instance = TspInstance.random(11, 3);
        final Tsp tsp = new Tsp(instance, TspSequential.transformedCosts(instance, TspSequential.penalties(instance)), 0);
        final TspJobs.SearchJob copy = WireCopies.copy(new TspJobs.SearchJob(tsp, 1L, 0, 1, 0, TspSequential.NO_TOUR));
        assertEquals(TspSequential.heldKarp(instance), copy.call());
    }
}
