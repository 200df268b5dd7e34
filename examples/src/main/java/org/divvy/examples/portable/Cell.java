package org.divvy.examples.portable;

/** A linked list of records, as long as you like: its codec runs on a work stack, not the thread's stack. */
public record Cell(long value, Cell next) {
}
