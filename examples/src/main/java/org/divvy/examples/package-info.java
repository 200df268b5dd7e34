/**
 * The example applications and their launcher ({@code divvy-examples.jar}).
 *
 * <p>Each app lives in its own package {@code org.divvy.examples.<app>} with three classes side by
 * side: the Divvy version {@code <App>} (its {@code @Spawnable} method and the spawns), the plain
 * sequential version {@code <App>Sequential} (the same algorithm without spawns, reused by the perf
 * module), and the command {@code <App>App} (picocli options, input preparation, the reference check).
 *
 * <p>Launchers drive every app the same way: {@link org.divvy.examples.ExampleApp#prepare()} builds the
 * input untimed, then {@link org.divvy.examples.ExampleRunner} solves the {@link org.divvy.examples.Problem}
 * on a node (or sequentially), times the solve alone and checks the answer. Nothing here holds static
 * mutable state, so several nodes may run apps in one JVM.
 */
package org.divvy.examples;
