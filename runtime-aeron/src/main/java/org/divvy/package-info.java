/**
 * Divvy's public API: start a {@link org.divvy.DivvyNode} with a {@link org.divvy.NodeConfig}, run a
 * {@link org.divvy.RootTask} on it, read the {@link org.divvy.RunResult} and its
 * {@link org.divvy.RunStatistics}. Inside the computation, spawnable methods are called through
 * generated stubs that return handles ({@link org.divvy.LongSpawn}, {@link org.divvy.Spawn}, ...), and
 * {@link org.divvy.Spawner#sync()} / {@link org.divvy.Spawner#abort()} wait for or cancel the children
 * of the current invocation. All exceptions are unchecked and extend {@link org.divvy.DivvyException}.
 *
 * <p>Threads: a node's worker threads run the jobs; application threads only start nodes, call
 * {@code run} (which blocks) and close them. Spawning from any other thread is an error.
 */
package org.divvy;
