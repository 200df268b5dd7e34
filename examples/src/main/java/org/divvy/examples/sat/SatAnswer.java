package org.divvy.examples.sat;

/**
 * A solver's answer: satisfiable with a model, or unsatisfiable.
 *
 * @param satisfiable whether a model was found
 * @param model       entry {@code v} is variable {@code v}'s value (entry 0 unused); empty when unsatisfiable
 */
public record SatAnswer(boolean satisfiable, boolean[] model) {
    public static final SatAnswer UNSATISFIABLE = new SatAnswer(false, new boolean[0]);

    public static SatAnswer satisfiable(final boolean[] model) {
        return new SatAnswer(true, model);
    }
}
