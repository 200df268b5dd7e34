package org.divvy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

import org.divvy.RemoteJobException;
import org.divvy.codegen.ExceptionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A stolen job's exception rebuilt from its text: its own class for the JDK's standard ones, else RemoteJobException. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RemoteExceptionsTest {
    private static String printed(final Throwable t) {
        final StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /**
     * Class, method, file and line of each frame: the module and class loader names do not travel, nor the
     * file of a native method (printed as "Native Method").
     */
    private static String frames(final StackTraceElement[] frames) {
        final StringBuilder text = new StringBuilder();
        for (final StackTraceElement f : frames) {
            text.append(f.getClassName()).append('.').append(f.getMethodName()).append('(')
                .append(f.isNativeMethod() ? "native" : f.getFileName()).append(':').append(f.getLineNumber()).append(")\n");
        }
        return text.toString();
    }

    private static Throwable thrownHere() {
        try {
            Integer.parseInt("not a number");
            return null;
        } catch (final NumberFormatException e) {
            return new IllegalStateException("wrapped", e);
        }
    }

    @Test
    void shouldRebuildAStandardExceptionWithItsMessageAndTheRemoteFramesCausedByTheNodesReport() {
        final Throwable original = thrownHere();
        final Throwable rebuilt = RemoteExceptions.rebuild("fib", 3, IllegalStateException.class.getName(), "wrapped",
            printed(original));
        assertInstanceOf(IllegalStateException.class, rebuilt);
        assertEquals("wrapped", rebuilt.getMessage());
        assertEquals(frames(original.getStackTrace()), frames(rebuilt.getStackTrace()), "the remote frames, up to its own cause");
        final RemoteJobException cause = assertInstanceOf(RemoteJobException.class, rebuilt.getCause());
        assertEquals(3, cause.nodeId());
        assertEquals("job `fib` failed on node 3 with java.lang.IllegalStateException: wrapped", cause.getMessage());
    }

    @Test
    void shouldKeepAnEmptyMessageNull() {
        final Throwable rebuilt = RemoteExceptions.rebuild("f", 1, NullPointerException.class.getName(), "", "");
        assertInstanceOf(NullPointerException.class, rebuilt);
        assertNull(rebuilt.getMessage());
        assertEquals(0, rebuilt.getStackTrace().length);
    }

    /** A user exception with a (String) constructor only. */
    static final class PricingException extends Exception {
        private static final long serialVersionUID = 1L;

        PricingException(final String message) {
            super(message);
        }
    }

    /** A user exception whose constructor sets a cause of its own. */
    static final class QuoteException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        QuoteException(final String message) {
            super(message, new IllegalArgumentException("own cause"));
        }
    }

    private static ExceptionType type(final Class<?> type, final java.util.function.BiFunction<String, Throwable, Throwable> rebuild) {
        return new ExceptionType() {
            @Override
            public String className() {
                return type.getName();
            }

            @Override
            public Throwable rebuild(final String message, final Throwable cause) {
                return rebuild.apply(message, cause);
            }
        };
    }

    @Test
    void shouldRebuildAUserExceptionWithAGeneratedTypeAsItsOwnClass() {
        final RemoteExceptions exceptions = new RemoteExceptions(java.util.Map.of(
            PricingException.class.getName(), type(PricingException.class, (message, cause) -> new PricingException(message)),
            QuoteException.class.getName(), type(QuoteException.class, (message, cause) -> new QuoteException(message)),
            "p.Broken", type(PricingException.class, (message, cause) -> {
                throw new IllegalStateException("constructor failed");
            })));
        final Throwable original = new PricingException("no price for item 7");
        final Throwable rebuilt = exceptions.rebuildException("price", 4, PricingException.class.getName(), original.getMessage(),
            printed(original));
        assertInstanceOf(PricingException.class, rebuilt);
        assertEquals("no price for item 7", rebuilt.getMessage());
        assertEquals(frames(original.getStackTrace()), frames(rebuilt.getStackTrace()));
        assertEquals(4, assertInstanceOf(RemoteJobException.class, rebuilt.getCause()).nodeId());

        final Throwable quote = exceptions.rebuildException("quote", 5, QuoteException.class.getName(), "stale", "");
        assertInstanceOf(QuoteException.class, quote);
        assertInstanceOf(IllegalArgumentException.class, quote.getCause(), "a cause its constructor set stays");
        assertEquals(5, assertInstanceOf(RemoteJobException.class, quote.getSuppressed()[0]).nodeId(), "the node is still named");

        final RemoteJobException broken = assertInstanceOf(RemoteJobException.class,
            exceptions.rebuildException("b", 6, "p.Broken", "m", ""));
        assertEquals("p.Broken", broken.remoteClassName());
        assertEquals("constructor failed", broken.getSuppressed()[0].getMessage());

        assertInstanceOf(RemoteJobException.class, RemoteExceptions.standardOnly().rebuildException("price", 4,
            PricingException.class.getName(), "x", ""), "without its generated type a user class arrives as RemoteJobException");
    }

    @Test
    void shouldSendAFailureThroughTextAsCheckingModeDoes() {
        final RemoteExceptions exceptions = RemoteExceptions.standardOnly();
        final Throwable rebuilt = exceptions.throughText(new ArithmeticException("/ by zero"), "div", 0);
        assertInstanceOf(ArithmeticException.class, rebuilt);
        assertEquals("/ by zero", rebuilt.getMessage());
        final Throwable other = exceptions.throughText(new PricingException("x"), "price", 0);
        assertEquals(PricingException.class.getName(), assertInstanceOf(RemoteJobException.class, other).remoteClassName());
    }

    @Test
    void shouldReportAClassItCannotRebuildAsRemoteJobException() {
        final Throwable rebuilt = RemoteExceptions.rebuild("f", 2, "com.example.PricingException", "no price", "");
        final RemoteJobException remote = assertInstanceOf(RemoteJobException.class, rebuilt);
        assertEquals("com.example.PricingException", remote.remoteClassName());
        assertEquals("no price", remote.remoteMessage());
    }

    @Test
    void shouldReadModuleNativeAndUnknownFramesAndSkipWhatItCannotRead() {
        final StackTraceElement[] frames = RemoteExceptions.ownFrames("java.lang.IllegalStateException: x\n" +
            "\tat java.base/java.lang.Integer.parseInt(Integer.java:652)\n" +
            "\tat a.B.c(Native Method)\n" +
            "\tat a.B.d(Unknown Source)\n" +
            "\tat garbage line\n" +
            "\t... 3 more\n" +
            "Caused by: java.lang.RuntimeException\n" +
            "\tat not.Taken(Here.java:1)\n");
        assertEquals(3, frames.length);
        assertEquals(new StackTraceElement("java.lang.Integer", "parseInt", "Integer.java", 652), frames[0]);
        assertEquals(-2, frames[1].getLineNumber());
        assertNull(frames[2].getFileName());
        assertSame(0, RemoteExceptions.ownFrames(null).length);
    }
}
