package org.divvy.examples.portable;

/**
 * A user exception neither declared nor marked @Wire: from another node it arrives as a
 * {@code RemoteJobException} naming this class, which is what checking mode shows on one node.
 */
public class Unlisted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Unlisted(final String message) {
        super(message);
    }
}
