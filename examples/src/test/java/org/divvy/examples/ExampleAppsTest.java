package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.examples.fib.FibApp;
import org.divvy.examples.knapsack.KnapsackApp;
import org.divvy.examples.mergesort.MergeSortApp;
import org.divvy.examples.nqueens.NQueensApp;
import org.divvy.examples.raytracer.RayTracerApp;
import org.divvy.examples.barneshut.BarnesHutApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.examples.tsp.TspApp;
import org.divvy.examples.uts.UtsApp;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every app, at a small size, through the same path a launcher takes: prepare, run, check. The small
 * UTS tree has no published counts (UNCHECKED), so there the parallel answer is held to the sequential one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExampleAppsTest {
    private static List<ExampleApp> smallApps() {
        return List.of(
            new FibApp(22, 6),
            new NQueensApp(9, 3),
            new KnapsackApp(16, 5, 6),
            new RayTracerApp(40, 30, 1, 64),
            new MergeSortApp(20_000, 1000, 3),
            Launcher.parse("uts", "--tree", "T4", "-d", "8", "-b", "4", "--spawn-depth", "3").app(),
            new TspApp(14, 5, 3),
            new TspApp("ulysses22", 3),
            new SatApp("uuf100-01", 3, 100),
            new SatApp(80, 3, 3, 50),
            new BarnesHutApp(1000, 2, 100));
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldPassEveryAppInParallelAndSequentially(final int workers) {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(workers).build())) {
            for (final ExampleApp app : smallApps()) {
                final Problem<?> problem = app.prepare();
                final AppResult parallel = ExampleRunner.runParallel(app.name(), node, problem).result();
                assertTrue(parallel.passed(), parallel.report());
                final AppResult sequential = ExampleRunner.runSequential(app.name(), problem).result();
                assertTrue(sequential.passed(), sequential.report());
                assertEquals(sequential.answer(), parallel.answer(), app.name());
            }
        }
    }
}
