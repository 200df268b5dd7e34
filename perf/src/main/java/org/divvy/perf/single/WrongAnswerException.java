package org.divvy.perf.single;

import org.divvy.DivvyException;

/** A contender computed a wrong answer: the benchmark is aborted, since its timing would mean nothing. */
public final class WrongAnswerException extends DivvyException {
    private static final long serialVersionUID = 1L;

    public WrongAnswerException(final String benchmarkId, final Contender contender, final String detail) {
        super("benchmark " + benchmarkId + ": " + contender.label() + " computed a wrong answer: " + detail);
    }
}
