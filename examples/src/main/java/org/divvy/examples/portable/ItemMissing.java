package org.divvy.examples.portable;

/** A checked user exception declared in a spawnable's throws clause: rebuilt with its own class at sync(). */
public class ItemMissing extends Exception {
    private static final long serialVersionUID = 1L;

    public ItemMissing(final String message) {
        super(message);
    }
}
