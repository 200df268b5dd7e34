package org.divvy.processor;

import java.io.IOException;

import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.divvy.processor.Sources.compile;
import static org.divvy.processor.Sources.lineOf;
import static org.divvy.processor.Sources.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User exception classes the processor can see (declared in a spawnable's throws clause, or marked
 * {@code @Wire}) get generated {@code ExceptionType}s, so they reach {@code sync()} with their own class
 * from another node; a class that cannot be rebuilt is an error on the element, saying what to add.
 */
@Timeout(120)
class ExceptionTypesTest {
    private static String generated(final Compilation compilation, final String qualifiedName) {
        try {
            return compilation.generatedSourceFile(qualifiedName).orElseThrow(() -> new AssertionError(qualifiedName + " not generated"))
                .getCharContent(true).toString();
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertError(final JavaFileObject source, final String message, final String lineMarker) {
        final Compilation compilation = compile(source);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining(message).inFile(source).onLine(lineOf(source, lineMarker));
    }

    @Test
    void shouldGenerateExceptionTypesForDeclaredAndMarkedExceptions() throws IOException {
        final JavaFileObject declared = source("PriceMissing", "public class PriceMissing extends Exception {\n"
            + "    public PriceMissing(String message) { super(message); }\n}\n");
        final JavaFileObject marked = source("OutOfStock", "@Wire\npublic class OutOfStock extends RuntimeException {\n"
            + "    OutOfStock(String message, Throwable cause) { super(message, cause); }\n    OutOfStock(int count) { }\n}\n");
        final JavaFileObject shop = source("Shop", "public class Shop implements ShopSpawner {\n"
            + "    @Spawnable public long price(int item) throws PriceMissing, OutOfStock, java.io.IOException { return item; }\n"
            + "    @Spawnable public void restock(int item) throws IllegalStateException, PriceMissing { }\n}\n");
        final Compilation compilation = compile(declared, marked, shop);
        assertThat(compilation).succeededWithoutWarnings();

        final String jobs = generated(compilation, "p.ShopJobs");
        assertTrue(jobs.contains("public List<ExceptionType> exceptionTypes()"), jobs);
        assertTrue(jobs.contains("return \"p.PriceMissing\";"), jobs);
        assertTrue(jobs.contains("return new PriceMissing(message);"), "through its (String) constructor: " + jobs);
        assertTrue(jobs.contains("return new OutOfStock(message, cause);"), "through its (String, Throwable) constructor: " + jobs);
        assertTrue(jobs.contains("return new IOException(message, cause);"), "JDK classes declared are rebuilt too: " + jobs);
        assertEquals(1, jobs.split("new PriceMissing\\(", -1).length - 1, "declared twice, listed once");

        final String codec = generated(compilation, "p.OutOfStockCodec");
        assertTrue(codec.contains("public final class OutOfStockCodec implements JobTypeProvider"), codec);
        assertTrue(codec.contains("return new OutOfStock(message, cause);"), codec);
        final String services = compilation.generatedFile(
                StandardLocation.CLASS_OUTPUT, "META-INF/services/org.divvy.codegen.JobTypeProvider")
            .orElseThrow(() -> new AssertionError("no services file")).getCharContent(true).toString();
        assertEquals("p.OutOfStockCodec\np.ShopJobs\n", services);
    }

    @Test
    void shouldNotChangeJobsWithoutDeclaredExceptions() {
        final Compilation compilation = compile(source("Fib", "public class Fib implements FibSpawner {\n"
            + "    @Spawnable public long fib(int n) { return n; }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        assertFalse(generated(compilation, "p.FibJobs").contains("exceptionTypes"));
    }

    @Test
    void shouldRejectAMarkedExceptionWithoutAMessageConstructor() {
        assertError(source("Failure", "@Wire\npublic class Failure extends RuntimeException {\n    public Failure(int code) { }\n}\n"),
            "@Wire exception `Failure` has no constructor the generated code can call to rebuild it at sync() when a child on another "
                + "node throws it; add `Failure(String message, Throwable cause) { super(message, cause); }` (public, or package-private "
                + "in package `p`)",
            "public class Failure");
    }

    @Test
    void shouldRejectADeclaredExceptionWithoutAVisibleMessageConstructor() {
        final JavaFileObject failure = source("Failure", "public class Failure extends Exception {\n"
            + "    private Failure(String message) { super(message); }\n}\n");
        final JavaFileObject fib = source("Fib", "public class Fib implements FibSpawner {\n"
            + "    @Spawnable public long fib(int n) throws Failure { return n; }\n}\n");
        final Compilation compilation = compile(failure, fib);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("exception `Failure` in the throws clause of @Spawnable `fib` has no constructor the "
            + "generated code can call").inFile(fib).onLine(lineOf(fib, "public long fib"));
    }

    @Test
    void shouldRejectAMarkedAbstractOrInnerException() {
        assertError(source("Failure", "@Wire\npublic abstract class Failure extends RuntimeException {\n"
                + "    public Failure(String message) { super(message); }\n}\n"),
            "@Wire exception `Failure` is abstract, so it cannot be rebuilt at sync() when a child on another node throws it; "
                + "remove @Wire here and mark the concrete subclasses", "public abstract class Failure");
        assertError(source("Outer", "public class Outer {\n    @Wire\n    public class Failure extends RuntimeException {\n"
                + "        public Failure(String message) { super(message); }\n    }\n}\n"),
            "@Wire exception `Failure` is an inner class, which cannot be created without its outer instance; make it static",
            "public class Failure");
    }

    @Test
    void shouldWarnThatAnAbstractDeclaredExceptionIsNotRebuiltItself() {
        final JavaFileObject failure = source("Failure", "public abstract class Failure extends Exception {\n"
            + "    public Failure(String message) { super(message); }\n}\n");
        final JavaFileObject fib = source("Fib", "public class Fib implements FibSpawner {\n"
            + "    @Spawnable public long fib(int n) throws Failure { return n; }\n}\n");
        final Compilation compilation = compile(failure, fib);
        assertThat(compilation).succeeded();
        assertThat(compilation).hadWarningContaining("exception `Failure` in the throws clause of @Spawnable `fib` is abstract")
            .inFile(fib).onLine(lineOf(fib, "public long fib"));
    }

    @Test
    void shouldRejectAnExceptionSentAsAValue() {
        final JavaFileObject fib = source("Fib", "public class Fib implements FibSpawner {\n"
            + "    @Spawnable public long fib(IllegalStateException problem) { return 0; }\n}\n");
        final Compilation compilation = compile(fib);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("which is an exception and cannot be sent as a value")
            .inFile(fib).onLine(lineOf(fib, "public long fib"));
    }
}
