package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JobTypesTest {
    @Test
    void shouldRegisterTheJobTypeOfEveryApp() {
        assertEquals(Set.of(
            "org.divvy.examples.fib.Fib#fib",
            "org.divvy.examples.nqueens.NQueens#count",
            "org.divvy.examples.knapsack.Knapsack#search",
            "org.divvy.examples.raytracer.RayTracer#render",
            "org.divvy.examples.mergesort.MergeSort#sort",
            "org.divvy.examples.uts.Uts#search"), WireCopies.jobTypeNames());
    }
}
