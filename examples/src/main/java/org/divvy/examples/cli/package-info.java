/**
 * The {@code divvy} sub-commands beyond single-node app runs: {@code run} (an app on several nodes: this
 * process as node 0, which hosts the registry, submits the app's root and prints the answer; local child JVMs,
 * one of which the registry makes the master; remote joiners), {@code node} (join a computation and work until
 * it ends) and {@code registry} (a standalone registry), plus the
 * {@code --simulate-leaf-us} option of the apps. The node settings of these commands are not declared
 * here: {@code NodeSettingOptions} derives one flag per row of the runtime's table
 * ({@code org.divvy.NodeSettings}).
 *
 * <p>Threads: each command runs on the caller's thread. Blocking node calls run on daemon threads with a
 * deadline ({@code Deadlines}); the join wait also races the child processes' deaths, so a node that dies
 * before the run started ends it with an error instead of a hang, while one that dies during the run is
 * survived and reported ({@code ChildNodes}). Child output is copied by one daemon thread per child; child
 * exits are seen by the JDK's process reaper, which reports them. Scripted faults ({@code --kill-at},
 * {@code --kill-site}, {@code --join-at}) are done by one daemon thread ({@code FaultInjector}). Child
 * processes are ended by their own process handles, never by name.
 */
package org.divvy.examples.cli;
