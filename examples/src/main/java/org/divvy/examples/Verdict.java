package org.divvy.examples;

/** The outcome of checking an answer against an independent reference. */
public enum Verdict {
    /** The answer equals the reference. */
    PASS,
    /** The answer differs from the reference. */
    FAIL,
    /** No reference exists for this input (for example an N-queens size beyond the known table). */
    UNCHECKED
}
