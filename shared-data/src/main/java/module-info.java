/**
 * Shared objects (divide-and-share, Satin++): replicas, write shipping with combining, replica transfer
 * and guard evaluation. Installed on every networked node whose module or class path holds it, through
 * runtime-aeron's extension point; user code needs only the generated replica classes and, for its
 * statistics and tests, {@link org.divvy.sharing.SharedObjectsExtension}.
 */
module org.divvy.sharing {
    requires org.divvy.runtime;

    exports org.divvy.sharing;

    provides org.divvy.extension.NodeExtension with org.divvy.sharing.SharedObjectsExtension;
}
