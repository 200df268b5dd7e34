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
            "org.divvy.examples.uts.Uts#search",
            "org.divvy.examples.tsp.Tsp#search",
            "org.divvy.examples.tsp.SharingTsp#search",
            "org.divvy.examples.sat.Sat#solve",
            "org.divvy.examples.sat.SatShare#solve",
            "org.divvy.examples.barneshut.BarnesHut#simulate",
            "org.divvy.examples.barneshut.BarnesHut#accelerations",
            "org.divvy.examples.barneshut.SharingBarnesHut#simulate",
            "org.divvy.examples.barneshut.SharingBarnesHut#accelerations",
            "org.divvy.examples.locusroute.LocusRoute#routeIterations",
            "org.divvy.examples.locusroute.LocusRoute#routeGroups",
            "org.divvy.examples.locusroute.LocusRouteShare#routeIterations",
            "org.divvy.examples.locusroute.LocusRouteShare#routeWires",
            "org.divvy.examples.portable.Portable#runCases",
            "org.divvy.examples.portable.Portable#failWith",
            "org.divvy.examples.portable.Portable#hold",
            "org.divvy.examples.portable.Portable#sum",
            "org.divvy.examples.portable.Portable#ringLength",
            "org.divvy.examples.portable.Counted#size"),
            // only this module's: built with -am, runtime-aeron's test classes (org.divvy.stealing.TestJobs) are on
            // the class path as a directory, with their provider file, and would be found too
            WireCopies.jobTypeNames().stream().filter(name -> name.startsWith("org.divvy.examples."))
                .collect(java.util.stream.Collectors.toSet()),
            "the apps' and Counted's, a test's");
    }

    @Test
    void shouldRegisterTheUserExceptionTypesOfThePortableApp() {
        assertEquals(Set.of("org.divvy.examples.portable.ItemMissing", "org.divvy.examples.portable.QuotaExceeded"),
            java.util.ServiceLoader.load(org.divvy.codegen.JobTypeProvider.class).stream()
                .flatMap(provider -> provider.get().exceptionTypes().stream())
                .map(org.divvy.codegen.ExceptionType::className)
                .collect(java.util.stream.Collectors.toSet()),
            "the declared ItemMissing (PortableJobs) and the @Wire QuotaExceeded (QuotaExceededCodec); not Unlisted");
    }
}
