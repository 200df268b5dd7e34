package org.divvy.codegen;

import java.util.List;

/**
 * Lists the job types of one class with spawnable methods. Generated ({@code FibJobs} for {@code Fib})
 * and registered in {@code META-INF/services/org.divvy.codegen.JobTypeProvider} by the processor, so a
 * node finds every job type on its class path with {@link java.util.ServiceLoader}.
 */
public interface JobTypeProvider {
    List<JobType> jobTypes();
}
