/**
 * The {@code divvy} sub-commands beyond single-node app runs: {@code run} (an app on several nodes: this
 * process as node 0 and master, local child JVMs, remote joiners), {@code node} (join a computation and
 * work until the master ends it) and {@code registry} (a standalone registry), plus the
 * {@code --simulate-leaf-us} option of the apps. The node settings of these commands are not declared
 * here: {@code NodeSettingOptions} derives one flag per row of the runtime's table
 * ({@code org.divvy.NodeSettings}).
 *
 * <p>Threads: each command runs on the caller's thread. Blocking node calls run on daemon threads and
 * race the child processes' deaths and a deadline ({@code Deadlines}), so a dead node ends a run with an
 * error instead of a hang. Child output is copied by one daemon thread per child; child exits are seen
 * by the JDK's process reaper, which only completes a future. Child processes are ended by their own
 * process handles, never by name.
 */
package org.divvy.examples.cli;
