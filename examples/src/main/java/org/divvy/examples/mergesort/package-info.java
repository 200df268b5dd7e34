/**
 * Merge sort of an int array with spawned halves. Every job returns its sorted part instead of sorting
 * in place, because a job stolen by another node works on a copy of its argument.
 */
package org.divvy.examples.mergesort;
