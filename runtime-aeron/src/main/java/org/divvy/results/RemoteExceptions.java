package org.divvy.results;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

import org.divvy.RemoteJobException;
import org.divvy.UnsyncedSpawnException;
import org.divvy.codegen.ExceptionType;

/**
 * Rebuilds the exception a stolen job threw on its thief, from the text it travelled as (class name,
 * message, stack trace; exceptions are never serialized), so a program that catches it around
 * {@code sync()} behaves on N nodes as on one: the JDK's standard unchecked exceptions and errors, and the
 * user exception classes the processor generated an {@link ExceptionType} for (declared in a spawnable's
 * {@code throws} clause or marked {@code @Wire}), come back as their own class with the message and the
 * remote stack trace, caused by a {@link RemoteJobException} that names the job and the node; any other
 * class comes back as that {@code RemoteJobException}, which names the class.
 *
 * <p>No reflection: the JDK classes it rebuilds are listed here with their constructors, the user
 * classes by generated code. Immutable: any thread may use one.
 */
public final class RemoteExceptions {
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
        Map.entry(UnsyncedSpawnException.class.getName(), UnsyncedSpawnException::new),
        Map.entry(StackOverflowError.class.getName(), StackOverflowError::new),
        Map.entry(OutOfMemoryError.class.getName(), OutOfMemoryError::new));

    private static final RemoteExceptions STANDARD_ONLY = new RemoteExceptions(Map.of());

    private final Map<String, ExceptionType> userTypes;

    /** Rebuilds the JDK's standard classes and {@code userTypes} (by binary class name). */
    public RemoteExceptions(final Map<String, ExceptionType> userTypes) {
        this.userTypes = Map.copyOf(userTypes);
    }

    /** Rebuilds the JDK's standard classes only. */
    public static RemoteExceptions standardOnly() {
        return STANDARD_ONLY;
    }

    /** With the JDK's standard classes only; see {@link #rebuildException}. */
    static Throwable rebuild(final String jobName, final int nodeId, final String className, final String message,
        final String stackTrace) {
        return STANDARD_ONLY.rebuildException(jobName, nodeId, className, message, stackTrace);
    }

    /**
     * @param message    the remote message; empty stands for none.
     * @param stackTrace the remote {@code printStackTrace} text (possibly cut).
     */
    public Throwable rebuildException(final String jobName, final int nodeId, final String className, final String message,
        final String stackTrace) {
        final RemoteJobException remote = new RemoteJobException(jobName, nodeId, className, message, stackTrace);
        final String text = message == null || message.isEmpty() ? null : message;
        final Throwable rebuilt;
        final ExceptionType userType = userTypes.get(className);
        if (userType != null) {
            try {
                rebuilt = userType.rebuild(text, remote);
            } catch (final RuntimeException | LinkageError e) { // the user's constructor failed: the text still arrives
                remote.addSuppressed(e);
                return remote;
            }
            if (rebuilt == null || !rebuilt.getClass().getName().equals(className)) {
                return remote;
            }
        } else {
            final Function<String, Throwable> constructor = STANDARD.get(className);
            if (constructor == null) {
                return remote;
            }
            rebuilt = constructor.apply(text);
        }
        rebuilt.setStackTrace(ownFrames(stackTrace));
        if (rebuilt.getCause() != remote) {
            try {
                rebuilt.initCause(remote);
            } catch (final IllegalStateException | IllegalArgumentException causeAlreadySet) {
                rebuilt.addSuppressed(remote); // its constructor set a cause of its own: the node is still named
            }
        }
        return rebuilt;
    }

    /**
     * {@code failure} as it arrives at the owner when its job ran on node {@code nodeId}: sent as text (each
     * part cut as a JOB_RESULT cuts it) and rebuilt. Checking mode runs every job's failure through this.
     */
    public Throwable throughText(final Throwable failure, final String jobName, final int nodeId) {
        return rebuildException(jobName, nodeId, ForeignJobs.cut(failure.getClass().getName()), ForeignJobs.cut(failure.getMessage()),
            ForeignJobs.cut(ForeignJobs.stackTrace(failure)));
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
