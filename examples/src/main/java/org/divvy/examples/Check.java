package org.divvy.examples;

/**
 * The verdict on one answer and a line saying what it was compared with.
 *
 * @param verdict PASS, FAIL or UNCHECKED
 * @param detail  what the answer was compared with, e.g. "expected 4130071 nodes (UTS sample tree T1)"
 */
public record Check(Verdict verdict, String detail) {
    public static Check pass(final String detail) {
        return new Check(Verdict.PASS, detail);
    }

    public static Check fail(final String detail) {
        return new Check(Verdict.FAIL, detail);
    }

    public static Check unchecked(final String detail) {
        return new Check(Verdict.UNCHECKED, detail);
    }

    /** PASS when {@code actual == expected}, FAIL otherwise; the detail names both. */
    public static Check equal(final long actual, final long expected, final String reference) {
        return actual == expected
            ? pass("equals " + reference + " (" + expected + ")")
            : fail("expected " + expected + " from " + reference + ", got " + actual);
    }
}
