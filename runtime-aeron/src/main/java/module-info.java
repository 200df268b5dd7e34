/**
 * The Divvy runtime: the public API ({@code org.divvy}) and the contract generated code compiles against
 * ({@code org.divvy.codegen}). Every other package (the scheduler, the network agent and its mechanisms)
 * is internal.
 *
 * <p>Aeron and Agrona have no module descriptors; they are required by their {@code Automatic-Module-Name}.
 * Agrona is required transitively because {@code WireReader} and {@code WireWriter} wrap its buffers, and
 * {@code java.compiler} statically and transitively because generated code carries
 * {@code @javax.annotation.processing.Generated} (source retention: needed to compile, not to run).
 *
 * <p>A modular application declares its generated job types itself, since a named module's
 * {@code META-INF/services} files are ignored: {@code provides org.divvy.codegen.JobTypeProvider with
 * app.FibJobs;} for each class with spawnable methods.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module org.divvy.runtime {
    requires java.management; // the network agent reads its own thread's CPU time (NetworkAgent)
    requires transitive org.divvy.annotations;
    requires transitive org.agrona;
    requires static transitive java.compiler;
    requires io.aeron.client;
    requires io.aeron.driver;

    exports org.divvy;
    exports org.divvy.codegen;
    // The shared-data module is a mechanism of the node built outside this module: it installs itself through
    // org.divvy.extension and names the agent's, the protocol's and the scheduler's types that a mechanism uses.
    exports org.divvy.extension to org.divvy.sharing;
    exports org.divvy.agent to org.divvy.sharing;
    exports org.divvy.protocol to org.divvy.sharing;
    exports org.divvy.scheduling to org.divvy.sharing;

    uses org.divvy.codegen.JobTypeProvider;
    uses org.divvy.extension.NodeExtension;
}
