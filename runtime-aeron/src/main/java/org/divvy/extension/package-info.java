/**
 * The node's extension points for mechanisms that live in other modules (today: shared objects, in the
 * shared-data module, which runtime-aeron does not depend on). An extension is found by
 * {@code ServiceLoader} ({@link org.divvy.extension.NodeExtension}) and installed once per node while the
 * network half is assembled: it registers its message types with the dispatcher, adds its duty to the
 * agent's cycle, and installs its scheduler hook and its job-codec context, as a mechanism inside this
 * module would in {@code NetworkNode}. Exported only to {@code org.divvy.sharing}, with the internal
 * packages whose types it names ({@code agent}, {@code protocol}, {@code scheduling}).
 */
package org.divvy.extension;
