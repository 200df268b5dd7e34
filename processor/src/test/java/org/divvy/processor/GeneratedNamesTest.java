package org.divvy.processor;

import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.divvy.processor.Sources.assertError;
import static org.divvy.processor.Sources.compile;
import static org.divvy.processor.Sources.source;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated names never collide: a nested class and a top-level class with an underscore get different
 * names by construction ({@code A.B} gives {@code A_B…}, {@code A_B} gives {@code A__B…}), and a user's own
 * class that has a generated name is an error on the annotated class, never a {@code FilerException}.
 */
@Timeout(120)
class GeneratedNamesTest {

    @Test
    void shouldGiveANestedClassAndAnUnderscoredTopLevelClassDifferentSpawners() {
        final Compilation compilation = compile(
            source("A_B", "public class A_B implements A__BSpawner {\n    @Spawnable long f(int n) { return n; }\n}\n"),
            source("A", "public class A {\n    public static class B implements A_BSpawner {\n"
                + "        @Spawnable long g(int n) { return n; }\n    }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation).generatedSourceFile("p.A__BSpawner");
        assertThat(compilation).generatedSourceFile("p.A__BJobs");
        assertThat(compilation).generatedSourceFile("p.A_BSpawner");
        assertThat(compilation).generatedSourceFile("p.A_BJobs");
    }

    @Test
    void shouldGiveANestedWireClassAndAnUnderscoredOneTheirOwnCodecs() {
        final Compilation compilation = compile(
            source("Scene", "public class Scene {\n    @Wire public static final class Light { int power; }\n}\n"),
            source("Scene_Light", "@Wire\npublic final class Scene_Light { String name; }\n"),
            source("Render", "public class Render implements RenderSpawner {\n"
                + "    @Spawnable int render(Scene.Light light, Scene_Light named) { return light.power + named.name.length(); }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generatedText(compilation, "p.Scene_LightCodec").contains("value.power = reader.readInt();"));
        assertTrue(generatedText(compilation, "p.Scene__LightCodec").contains("value.name = reader.readString();"));
    }

    @Test
    void shouldRejectAUserClassNamedLikeTheCodecOfAWireClass() {
        assertError(source("Calc", "@Wire\npublic final class Calc { int total; }\n"),
            "@Wire `Calc` needs a generated class named `p.CalcCodec`, but `p.CalcCodec` is a class of yours; rename `CalcCodec` "
                + "(Divvy generates `CalcCodec` for `Calc`)",
            "public final class Calc",
            source("CalcCodec", "public class CalcCodec { }\n"));
    }

    @Test
    void shouldRejectAUserClassNamedLikeTheJobsOfASpawnableClass() {
        assertError(source("Fib", "public class Fib implements FibSpawner {\n    @Spawnable long fib(int n) { return n; }\n}\n"),
            "class `Fib` with @Spawnable methods needs a generated class named `p.FibJobs`, but `p.FibJobs` is a class of yours; "
                + "rename `FibJobs`",
            "public class Fib",
            source("FibJobs", "class FibJobs { }\n"));
    }

    @Test
    void shouldRejectAUserClassNamedLikeTheReceiverCodec() {
        assertError(source("Fib", "public class Fib implements FibSpawner {\n    @Spawnable long fib(int n) { return n; }\n}\n"),
            "needs a generated class named `p.FibCodec`, but `p.FibCodec` is a class of yours; rename `FibCodec`",
            "public class Fib",
            source("FibCodec", "class FibCodec { }\n"));
    }

    @Test
    void shouldRejectANestedUserClassNamedLikeAGeneratedOneOnlyWhenItIsTopLevel() {
        // Outer.CalcCodec is p.Outer.CalcCodec, not p.CalcCodec: no clash.
        final Compilation compilation = compile(source("Calc", "@Wire\npublic final class Calc { int total; }\n"),
            source("Outer", "public class Outer {\n    static class CalcCodec { }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void shouldRejectTwoClassesWhoseGeneratedNamesStillCollide() {
        // Underscores at a name's edge make the escaped names meet: A_.B and A._B both give A___B.
        final JavaFileObject first = source("A_", "public class A_ {\n    @Wire public static final class B { int x; }\n}\n");
        final JavaFileObject second = source("A", "public class A {\n    @Wire public static final class _B { int y; }\n}\n");
        final Compilation compilation = compile(first, second);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("needs a generated class named `p.A___BCodec`, which Divvy also generates for");
    }

    private static String generatedText(final Compilation compilation, final String qualifiedName) {
        try {
            return compilation.generatedSourceFile(qualifiedName).orElseThrow(() -> new AssertionError(qualifiedName + " not generated"))
                .getCharContent(true).toString();
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
