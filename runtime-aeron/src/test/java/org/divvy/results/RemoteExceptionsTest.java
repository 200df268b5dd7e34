package org.divvy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

import org.divvy.RemoteJobException;
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
