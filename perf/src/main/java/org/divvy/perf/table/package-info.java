/**
 * {@code divvy-perf table}: every row of issue 10's table measured in one run, each by the perf subcommand that
 * measures it alone ({@code --only fib35,fib35-one}, {@code uts --kernel}, {@code uts --speedup}, {@code uts --memory},
 * {@code lanwan --efficiency}), started as a child process (under {@code flock FILE} with {@code --lock}, so each row
 * holds the machine's lock only for itself), whose CSV is then read back into one line per row: measure, value with its
 * spread, target, met or not, and the command that reproduces the row. All state belongs to the calling thread.
 */
package org.divvy.perf.table;
