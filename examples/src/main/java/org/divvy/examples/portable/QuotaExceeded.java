package org.divvy.examples.portable;

import org.divvy.annotations.Wire;

/** An unchecked user exception marked @Wire: rebuilt with its own class at sync() wherever it is thrown. */
@Wire
public class QuotaExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public QuotaExceeded(final String message, final Throwable cause) {
        super(message, cause);
    }
}
