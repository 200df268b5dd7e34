package org.divvy.results;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

import org.divvy.RemoteJobException;

/**
 * Rebuilds the exception a stolen job threw on its thief, from the text it travelled as (class name,
 * message, stack trace; exceptions are never serialized), so a program that catches it around
 * {@code sync()} behaves on N nodes as on one: the JDK's standard unchecked exceptions and errors come back
 * as their own class with the message and the remote stack trace, caused by a {@link RemoteJobException}
 * that names the job and the node; any other class comes back as that {@code RemoteJobException}.
 *
 * <p>No reflection: the classes it rebuilds are listed here with their constructors.
 */
final class RemoteExceptions {
    private static final Map<String, Function<String, Throwable>> STANDARD = Map.ofEntries(
        Map.entry(IllegalStateException.class.getName(), IllegalStateException::new),
        Map.entry(IllegalArgumentException.class.getName(), IllegalArgumentException::new),
        Map.entry(ArithmeticException.class.getName(), ArithmeticException::new),
        Map.entry(NullPointerException.class.getName(), NullPointerException::new),
        Map.entry(UnsupportedOperationException.class.getName(), UnsupportedOperationException::new),
        Map.entry(IndexOutOfBoundsException.class.getName(), IndexOutOfBoundsException::new),
        Map.entry(ArrayIndexOutOfBoundsException.class.getName(), ArrayIndexOutOfBoundsException::new),
        Map.entry(StringIndexOutOfBoundsException.class.getName(), StringIndexOutOfBoundsException::new),
        Map.entry(ClassCastException.class.getName(), ClassCastException::new),
        Map.entry(NumberFormatException.class.getName(), NumberFormatException::new),
        Map.entry(NegativeArraySizeException.class.getName(), NegativeArraySizeException::new),
        Map.entry(ArrayStoreException.class.getName(), ArrayStoreException::new),
        Map.entry(NoSuchElementException.class.getName(), NoSuchElementException::new),
        Map.entry(ConcurrentModificationException.class.getName(), ConcurrentModificationException::new),
        Map.entry(RuntimeException.class.getName(), RuntimeException::new),
        Map.entry(AssertionError.class.getName(), AssertionError::new),
        Map.entry(StackOverflowError.class.getName(), StackOverflowError::new),
        Map.entry(OutOfMemoryError.class.getName(), OutOfMemoryError::new));

    private RemoteExceptions() {
    }

    /**
     * @param message    the remote message; empty stands for none.
     * @param stackTrace the remote {@code printStackTrace} text (possibly cut).
     */
    static Throwable rebuild(final String jobName, final int nodeId, final String className, final String message,
        final String stackTrace) {
        final RemoteJobException remote = new RemoteJobException(jobName, nodeId, className, message, stackTrace);
        final Function<String, Throwable> constructor = STANDARD.get(className);
        if (constructor == null) {
            return remote;
        }
        final Throwable rebuilt = constructor.apply(message == null || message.isEmpty() ? null : message);
        rebuilt.setStackTrace(ownFrames(stackTrace));
        rebuilt.initCause(remote);
        return rebuilt;
    }

    /**
     * The frames of the first exception in a {@code printStackTrace} text ({@code \tat a.B.m(B.java:12)} lines
     * up to the first "Caused by" or "Suppressed"); lines it cannot read are skipped.
     */
    static StackTraceElement[] ownFrames(final String stackTrace) {
        final List<StackTraceElement> frames = new ArrayList<>();
        if (stackTrace == null) {
            return new StackTraceElement[0];
        }
        for (final String raw : stackTrace.split("\n")) {
            final String line = raw.strip();
            if (line.startsWith("Caused by:") || line.startsWith("Suppressed:")) {
                break;
            }
            if (!line.startsWith("at ")) {
                continue;
            }
            final StackTraceElement frame = frame(line.substring(3));
            if (frame != null) {
                frames.add(frame);
            }
        }
        return frames.toArray(new StackTraceElement[0]);
    }

    /** One frame: {@code [module/]pkg.Class.method(File.java:12)}, {@code (Native Method)} or {@code (Unknown Source)}. */
    private static StackTraceElement frame(final String text) {
        final int open = text.indexOf('(');
        final int close = text.lastIndexOf(')');
        if (open <= 0 || close < open) {
            return null;
        }
        String qualified = text.substring(0, open);
        final int slash = qualified.lastIndexOf('/');
        if (slash >= 0) {
            qualified = qualified.substring(slash + 1); // module name and version are not kept
        }
        final int dot = qualified.lastIndexOf('.');
        if (dot <= 0) {
            return null;
        }
        final String location = text.substring(open + 1, close);
        String file = null;
        int lineNumber = -1;
        if (location.equals("Native Method")) {
            lineNumber = -2;
        } else if (!location.equals("Unknown Source")) {
            final int colon = location.lastIndexOf(':');
            file = colon > 0 ? location.substring(0, colon) : location;
            if (colon > 0) {
                try {
                    lineNumber = Integer.parseInt(location.substring(colon + 1));
                } catch (final NumberFormatException e) {
                    lineNumber = -1;
                }
            }
        }
        return new StackTraceElement(qualified.substring(0, dot), qualified.substring(dot + 1), file, lineNumber);
    }
}
