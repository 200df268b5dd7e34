package org.divvy.codegen;

import java.util.List;

/**
 * Lists the job types of one class with spawnable methods (and the exception classes it rebuilds). Generated ({@code FibJobs} for {@code Fib})
 * and registered in {@code META-INF/services/org.divvy.codegen.JobTypeProvider} by the processor, so a
 * node finds every job type on its class path with {@link java.util.ServiceLoader}.
 */
public interface JobTypeProvider {
    List<JobType> jobTypes();

    /**
     * The user exception classes this provider rebuilds when a remote child threw one: those in the
     * {@code throws} clauses of the class's spawnables, or the one {@code @Wire} exception class of a
     * generated {@code *Codec} provider.
     */
    default List<ExceptionType> exceptionTypes() {
        return List.of();
    }
}
