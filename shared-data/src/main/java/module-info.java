/**
 * Shared objects. The package {@code org.divvy.sharing} holds no classes yet, and an empty package cannot
 * be exported: {@code exports org.divvy.sharing;} comes with the shared-objects work.
 */
module org.divvy.sharing {
    requires org.divvy.runtime;
}
