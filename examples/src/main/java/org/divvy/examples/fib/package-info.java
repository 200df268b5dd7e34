/** Fibonacci by double recursion: the measure of spawn overhead (threshold 0 or 1 spawns every call). */
package org.divvy.examples.fib;
