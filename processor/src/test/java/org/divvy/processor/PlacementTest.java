package org.divvy.processor;

import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.divvy.processor.Sources.assertError;
import static org.divvy.processor.Sources.compile;
import static org.divvy.processor.Sources.lineOf;
import static org.divvy.processor.Sources.source;

/**
 * Every Divvy annotation in a place the processor cannot serve is an error on it that says where to put
 * it instead; nothing is silently ignored. Local and anonymous classes are invisible to the usual
 * annotation-processing API, so the processor scans method bodies for them.
 */
@Timeout(120)
class PlacementTest {

    @Test
    void shouldRejectSpawnableInAnAnonymousClass() {
        assertError(source("Host", "public class Host {\n"
                + "    Object worker = new Object() {\n"
                + "        @Spawnable long fib(int n) { return n; }\n"
                + "    };\n}\n"),
            "@Spawnable `fib` is in an anonymous class, which generated code cannot name, so it would never be spawned; "
                + "move the method into a top-level or static nested class",
            "long fib");
    }

    @Test
    void shouldRejectSpawnableInALocalClass() {
        assertError(source("Host", "public class Host {\n"
                + "    void run() {\n"
                + "        class Local {\n"
                + "            @Spawnable long fib(int n) { return n; }\n"
                + "        }\n    }\n}\n"),
            "@Spawnable `fib` is in local class `Local`, which generated code cannot name, so it would never be spawned; "
                + "move the method into a top-level or static nested class",
            "long fib");
    }

    @Test
    void shouldRejectGuardInAnAnonymousClass() {
        assertError(source("Host", "public class Host {\n"
                + "    Runnable r = new Runnable() {\n"
                + "        public void run() { }\n"
                + "        @Guard(\"fib\") boolean ready(int n) { return true; }\n"
                + "    };\n}\n"),
            "@Guard `ready` is in an anonymous class, which generated code cannot name, so it would never be checked; "
                + "put the guard beside its @Spawnable method in a top-level or static nested class",
            "boolean ready");
    }

    @Test
    void shouldRejectWireOnALocalClass() {
        assertError(source("Host", "public class Host {\n"
                + "    void run() {\n"
                + "        @Wire final class Point { int x; }\n"
                + "    }\n}\n"),
            "@Wire `Point` is a local class, which generated code cannot name, so no codec is generated for it; "
                + "move it out of the method: make it a top-level or static nested class",
            "final class Point");
    }

    @Test
    void shouldRejectSharedObjectOnALocalClass() {
        assertError(source("Host", "public class Host {\n"
                + "    void run() {\n"
                + "        @SharedObject class Counts { int n; }\n"
                + "    }\n}\n"),
            "@SharedObject `Counts` is a local class",
            "class Counts");
    }

    @Test
    void shouldRejectWriteInALocalClass() {
        assertError(source("Host", "public class Host {\n"
                + "    void run() {\n"
                + "        class Counts {\n"
                + "            @Write void add(int n) { }\n"
                + "        }\n    }\n}\n"),
            "@Write `add` is in local class `Counts`",
            "void add");
    }

    @Test
    void shouldReportALocalClassBesideOtherErrors() {
        final JavaFileObject host = source("Host", "public class Host {\n"
            + "    @Wire static class Light { int power; }\n"
            + "    void run() {\n"
            + "        class Local {\n"
            + "            @Spawnable long fib(int n) { return n; }\n"
            + "        }\n    }\n}\n");
        final Compilation compilation = compile(host);
        assertThat(compilation).hadErrorContaining("@Wire `Light` must be final").inFile(host).onLine(lineOf(host, "class Light"));
        assertThat(compilation).hadErrorContaining("@Spawnable `fib` is in local class `Local`").inFile(host).onLine(lineOf(host, "long fib"));
    }

    @Test
    void shouldRejectAQualifiedAnnotationInALocalClass() {
        assertError(source("Host", "public class Host {\n"
                + "    void run() {\n"
                + "        class Local {\n"
                + "            @org.divvy.annotations.Spawnable long fib(int n) { return n; }\n"
                + "        }\n    }\n}\n"),
            "@Spawnable `fib` is in local class `Local`",
            "long fib");
    }

    @Test
    void shouldIgnoreOtherAnnotationsNamedLikeDivvyOnesInLocalClasses() {
        final Compilation compilation = compile(JavaFileObjects.forSourceString("q.Host", "package q;\n\npublic class Host {\n"
            + "    @interface Guard { String value(); }\n"
            + "    void run() {\n"
            + "        class Local {\n"
            + "            @Guard(\"x\") boolean ready() { return true; }\n"
            + "        }\n    }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void shouldRejectWireOnAnAnnotationType() {
        assertError(source("Light", "@Wire\npublic @interface Light {\n}\n"),
            "@Wire applies to final classes and records, and `Light` is an annotation type; remove @Wire",
            "public @interface Light");
    }

    @Test
    void shouldRejectSharedObjectOnARecord() {
        assertError(source("Counts", "@SharedObject\npublic record Counts(int n) {\n}\n"),
            "@SharedObject applies to classes, and `Counts` is a record; make it a non-final class",
            "public record Counts");
    }

    @Test
    void shouldSayWhereAWriteInAnInterfaceBelongs() {
        assertError(source("Counts", "public interface Counts {\n    @Write default void add(int n) { }\n}\n"),
            "@Write `add` is in interface `Counts`; write methods exist only in @SharedObject classes: move it into one, or remove @Write",
            "void add");
    }

    @Test
    void shouldSayWhereAWriteInARecordBelongs() {
        assertError(source("Counts", "public record Counts(int n) {\n    @Write public void add(int m) { }\n}\n"),
            "@Write `add` is in record `Counts`; write methods exist only in @SharedObject classes", "void add");
    }

    // ---- @Guard: it goes on the guard method and names its spawnable ------------------------------

    @Test
    void shouldSayWhereAGuardBelongsWhenItIsOnTheSpawnable() {
        assertError(source("Fib", "public class Fib implements FibSpawner {\n"
                + "    @Spawnable @Guard(\"ready\") long fib(int n) { return n; }\n"
                + "    boolean ready(int n) { return true; }\n}\n"),
            "@Guard(\"ready\") is on @Spawnable `fib`, but a @Guard goes on the guard method and names the spawnable it protects: "
                + "remove it here and write `@Guard(\"fib\")` on `ready`",
            "long fib");
    }
}
