/** The same program as a named module: the generated job types are provided here, since a module's META-INF/services is ignored. */
module app {
    requires org.divvy.runtime;
    provides org.divvy.codegen.JobTypeProvider with app.FibJobs;
}
