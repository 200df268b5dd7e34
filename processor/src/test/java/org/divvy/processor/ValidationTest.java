package org.divvy.processor;

import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.divvy.processor.Sources.assertError;
import static org.divvy.processor.Sources.compile;
import static org.divvy.processor.Sources.lineOf;
import static org.divvy.processor.Sources.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per validation rule: each asserts the error's text and the line of the offending element. */
@Timeout(120)
class ValidationTest {

    private static JavaFileObject fib(final String members) {
        return source("Fib", "public class Fib implements FibSpawner {\n" + members + "\n}\n");
    }

    // ---- @Spawnable placement -------------------------------------------------------------------

    @Test
    void shouldRejectPrivateSpawnable() {
        assertError(fib("    @Spawnable private long fib(int n) { return n; }"),
            "@Spawnable `fib` must not be private: its generated job calls it; make it package-private or public",
            "private long fib");
    }

    @Test
    void shouldRejectStaticSpawnable() {
        assertError(fib("    @Spawnable static long fib(int n) { return n; }"),
            "@Spawnable `fib` must not be static: a job runs it on a receiver; make it an instance method", "static long fib");
    }

    @Test
    void shouldRejectGenericSpawnable() {
        assertError(fib("    @Spawnable <T> long fib(int n) { return n; }"),
            "@Spawnable `fib` must not be generic: a job on another node cannot know its type arguments; remove the type parameters",
            "<T> long fib");
    }

    @Test
    void shouldRejectAbstractSpawnable() {
        assertError(source("Fib", "public abstract class Fib implements FibSpawner {\n    @Spawnable abstract long fib(int n);\n}\n"),
            "@Spawnable `fib` must have a body: a job runs exactly this method; implement it here", "abstract long fib");
    }

    @Test
    void shouldRejectAbstractSpawnableClass() {
        assertError(source("Fib", "public abstract class Fib implements FibSpawner {\n    @Spawnable long fib(int n) { return n; }\n}\n"),
            "class `Fib` (sent with every stolen job as the receiver) is abstract", "public abstract class Fib");
    }

    @Test
    void shouldRejectSpawnableInGenericClass() {
        assertError(source("Fib", "public class Fib<T> implements FibSpawner {\n    @Spawnable long fib(int n) { return n; }\n}\n"),
            "class `Fib` has @Spawnable methods, so it must not be generic: a job on another node cannot know its type arguments; "
                + "remove the type parameters", "public class Fib<T>");
    }

    @Test
    void shouldRejectSpawnableInInterface() {
        assertError(source("Fib", "public interface Fib {\n    @Spawnable default long fib(int n) { return n; }\n}\n"),
            "`Fib` is an interface or annotation with @Spawnable methods; put them in a class that implements `FibSpawner`",
            "public interface Fib");
    }

    @Test
    void shouldRejectSpawnableInRecord() {
        assertError(source("Fib", "public record Fib(int base) implements FibSpawner {\n    @Spawnable public long fib(int n) { return n; }\n}\n"),
            "class `Fib` has @Spawnable methods, so it must be a plain class, not a record", "public record Fib");
    }

    @Test
    void shouldRejectSpawnableInEnum() {
        assertError(source("Fib", "public enum Fib implements FibSpawner {\n    ONE;\n    @Spawnable public long fib(int n) { return n; }\n}\n"),
            "class `Fib` has @Spawnable methods, so it must be a plain class, not an enum", "public enum Fib");
    }

    @Test
    void shouldRejectSpawnableInPrivateNestedClass() {
        assertError(source("Outer", "public class Outer {\n    private static class Inner implements Outer_InnerSpawner {\n"
                + "        @Spawnable long fib(int n) { return n; }\n    }\n}\n"),
            "class `Inner` has @Spawnable methods, so `Inner` must not be private", "private static class Inner");
    }

    @Test
    void shouldRejectSpawnableInInnerClass() {
        assertError(source("Outer", "public class Outer {\n    class Inner implements Outer_InnerSpawner {\n"
                + "        @Spawnable long fib(int n) { return n; }\n    }\n}\n"),
            "it must not be an inner class: a job cannot build its receiver without the outer instance; make the nested class static",
            "class Inner");
    }

    @Test
    void shouldRejectOverloadedSpawnables() {
        final JavaFileObject source = fib("    @Spawnable long fib(int n) { return n; }\n    @Spawnable long fib(long n) { return n; }");
        assertError(source, "@Spawnable `fib` has the same name as @Spawnable `fib` (up to the first letter's case); each spawnable "
            + "gets a spawn stub, a job type and a guard named after it; rename one", "long fib(long n)");
    }

    @Test
    void shouldRejectUserMethodNamedLikeAStub() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n    void spawnFib(String s) { }"),
            "method `spawnFib` has the name of the spawn stub Divvy generates for @Spawnable `fib` in `FibSpawner`; rename it",
            "void spawnFib");
    }

    @Test
    void shouldRequireTheGeneratedSpawnerInterface() {
        assertError(source("Fib", "public class Fib {\n    @Spawnable long fib(int n) { return n; }\n}\n"),
            "class `Fib` has @Spawnable methods, so it must implement its generated interface `FibSpawner`: "
                + "write `class Fib implements FibSpawner`", "public class Fib");
    }

    @Test
    void shouldRequireANoArgumentConstructorOnTheReceiver() {
        assertError(fib("    final int base;\n    Fib(int base) { this.base = base; }\n    @Spawnable long fib(int n) { return n; }"),
            "class `Fib` (sent with every stolen job as the receiver) has no non-private no-argument constructor", "public class Fib");
    }

    // ---- types that cannot be sent -------------------------------------------------------------

    @Test
    void shouldRejectIteratorParameter() {
        assertError(fib("    @Spawnable long search(Iterator<String> nodes) { return 0; }"),
            "parameter `nodes` of @Spawnable `search` has type `Iterator<String>`, which cannot be sent; use a List",
            "Iterator<String> nodes");
    }

    @Test
    void shouldNameThePathToAnUnsendableField() {
        final JavaFileObject source = source("Render", "public class Render implements RenderSpawner {\n"
            + "    record Light(double power, java.awt.Color color) {}\n"
            + "    record Scene(String name, List<Light> lights) {}\n"
            + "    @Spawnable int render(Scene scene) { return 0; }\n}\n");
        assertError(source, "parameter `scene` of @Spawnable `render` has type `Render.Scene` whose field `lights[].color` has type "
            + "`java.awt.Color`, which cannot be sent; `java.awt.Color` is not in this compilation, so it cannot be marked @Wire; "
            + "convert it to a supported type (a number, String, array or record of its parts), or hold it in a record or @Wire "
            + "class of your own, or mark the field transient",
            "Scene scene");
    }

    @Test
    void shouldNameMapKeysAndValuesInThePath() {
        assertError(fib("    @Spawnable long fib(Map<String, List<Thread>> workers) { return 0; }"),
            "parameter `workers` of @Spawnable `fib` has type `Map<String,List<Thread>>` whose element `{value}[]` has type "
                + "`java.lang.Thread`, which cannot be sent; `java.lang.Thread` is not in this compilation, so it cannot be marked @Wire; "
                + "convert it to a supported type (a number, String, array or record of its parts), or hold it in a record or "
                + "@Wire class of your own", "workers");
    }

    @Test
    void shouldRejectObjectWildcardsRawCollectionsAndOptional() {
        final JavaFileObject source = fib("    @Spawnable long a(Object o) { return 0; }\n"
            + "    @Spawnable long b(List<?> items) { return 0; }\n"
            + "    @Spawnable long c(List items) { return 0; }\n"
            + "    @Spawnable long d(Optional name) { return 0; }\n"
            + "    @Spawnable long e(Runnable task) { return 0; }");
        final Compilation compilation = compile(source);
        assertThat(compilation).hadErrorContaining("parameter `o` of @Spawnable `a` has type `Object`, which cannot be sent; "
            + "use a concrete supported type").inFile(source).onLine(lineOf(source, "Object o"));
        assertThat(compilation).hadErrorContaining("parameter `items` of @Spawnable `b` has type `List<?>` whose element `[]` "
            + "has type `?`, which is a wildcard and cannot be sent").inFile(source).onLine(lineOf(source, "List<?> items"));
        assertThat(compilation).hadErrorContaining("parameter `items` of @Spawnable `c` has type `List`, which is a raw collection "
            + "and cannot be sent; give its type arguments").inFile(source).onLine(lineOf(source, "List items"));
        assertThat(compilation).hadErrorContaining("parameter `name` of @Spawnable `d` has type `Optional`, which is a raw Optional "
            + "and cannot be sent; give its type argument").inFile(source).onLine(lineOf(source, "Optional name"));
        assertThat(compilation).hadErrorContaining("parameter `task` of @Spawnable `e` has type `Runnable`, which is an interface "
            + "and cannot be sent").inFile(source).onLine(lineOf(source, "Runnable task"));
    }

    @Test
    void shouldRejectAnOptionalOnACycleOfTypes() {
        assertError(fib("    record Chain(int value, Optional<Chain> next) {}\n    @Spawnable long fib(Chain chain) { return 0; }"),
            "parameter `chain` of @Spawnable `fib` has type `Fib.Chain` whose field `next` has type `java.util.Optional<p.Fib.Chain>`, "
                + "which is an Optional on a cycle of types (a value that can hold itself through it) and cannot be sent; use the value "
                + "itself, which may be null", "Chain chain");
    }

    @Test
    void shouldRejectUnsendableReturnType() {
        assertError(fib("    @Spawnable Iterator<String> names(int n) { return null; }"),
            "return type of @Spawnable `names` has type `Iterator<String>`, which cannot be sent; use a List", "Iterator<String> names");
    }

    @Test
    void shouldRejectUnsendableReceiverField() {
        assertError(fib("    Thread cache;\n    @Spawnable long fib(int n) { return n; }"),
            "field `cache` of `Fib` (sent with every stolen job as the receiver) has type `Thread`, which cannot be sent; "
                + "`java.lang.Thread` is not in this compilation, so it cannot be marked @Wire; convert it to a supported type (a number, "
                + "String, array or record of its parts), or hold it in a record or @Wire class of your own, or mark the field "
                + "transient", "Thread cache");
    }

    @Test
    void shouldRejectPrivateReceiverField() {
        assertError(fib("    private int threshold;\n    @Spawnable long fib(int n) { return n; }"),
            "field `threshold` of `Fib` (sent with every stolen job as the receiver) is private, but the generated codec assigns it "
                + "directly; make it package-private and not final, or mark it transient",
            "private int threshold");
    }

    @Test
    void shouldRejectTreeSetOfNonComparableElements() {
        assertError(fib("    record P(int x) {}\n    @Spawnable long fib(TreeSet<P> points) { return 0; }"),
            "parameter `points` of @Spawnable `fib` has type `TreeSet<Fib.P>`, whose elements are not Comparable, so it cannot be sent: the receiver rebuilds it with natural ordering (a Comparator is not sent); use a Set or make `p.Fib.P` Comparable", "TreeSet<P> points");
    }

    // ---- @Wire --------------------------------------------------------------------------------

    @Test
    void shouldRequireWireClassesToBeFinal() {
        assertError(source("Light", "@Wire\npublic class Light {\n    int power;\n}\n"),
            "@Wire `Light` must be final: its codec writes exactly the declared fields, so a subclass would lose data; "
                + "make it final or a record", "public class Light");
    }

    @Test
    void shouldRequireWireClassesToHaveANoArgumentConstructor() {
        assertError(source("Light", "@Wire\npublic final class Light {\n    int power;\n    Light(int power) { this.power = power; }\n}\n"),
            "class @Wire `Light` has no non-private no-argument constructor, which Divvy needs to create it on the receiving node; "
                + "add `Light() {}`", "public final class Light");
    }

    @Test
    void shouldRejectPrivateAndFinalWireFields() {
        final JavaFileObject source = source("Light", "@Wire\npublic final class Light {\n    private int power;\n"
            + "    final String name = \"x\";\n    transient final int ignored = 1;\n}\n");
        final Compilation compilation = compile(source);
        assertThat(compilation).hadErrorContaining("field `power` of @Wire `Light` is private, but the generated codec assigns it "
            + "directly; make it package-private and not final, or make the class a record, or mark it transient")
            .inFile(source).onLine(lineOf(source, "private int power"));
        assertThat(compilation).hadErrorContaining("field `name` of @Wire `Light` is final")
            .inFile(source).onLine(lineOf(source, "final String name"));
        assertEquals(2, compilation.errors().size(), compilation.errors().toString());
    }

    @Test
    void shouldRejectNonStaticNestedWireClass() {
        assertError(source("Outer", "public class Outer {\n    @Wire final class Light { int power; }\n}\n"),
            "@Wire `Light` must not be an inner class: its codec cannot build it without the outer instance; make the nested class static",
            "final class Light");
    }

    @Test
    void shouldRejectWireOnInterface() {
        assertError(source("Light", "@Wire\npublic interface Light {\n}\n"),
            "@Wire applies to final classes and records, and `Light` is an interface", "public interface Light");
    }

    @Test
    void shouldRejectUnsendableWireField() {
        assertError(source("Light", "@Wire\npublic final class Light {\n    java.awt.Color color;\n}\n"),
            "field `color` of @Wire `Light` has type `Color`, which cannot be sent; `java.awt.Color` is not in this compilation, so "
                + "it cannot be marked @Wire; convert it to a supported type (a number, String, array or record of its parts), or "
                + "hold it in a record or @Wire class of your own, or mark the field transient", "java.awt.Color color");
    }

    @Test
    void shouldNeverAskToMarkALibraryClassWire() {
        final JavaFileObject source = fib("    @Spawnable long a(java.net.URI n) { return 0; }\n"
            + "    @Spawnable long b(Locale n) { return 0; }\n"
            + "    @Spawnable long c(Currency id) { return 0; }\n"
            + "    @Spawnable long d(java.time.Period days) { return 0; }\n"
            + "    @Spawnable long e(java.awt.Color color) { return 0; }\n"
            + "    @Spawnable long f(java.util.concurrent.atomic.AtomicLong count) { return 0; }\n"
            + "    @Spawnable long g(com.google.testing.compile.JavaFileObjects fromAJar) { return 0; }");
        final Compilation compilation = compile(source);
        assertThat(compilation).hadErrorContaining("parameter `n` of @Spawnable `a` has type `URI`, which cannot be sent; "
            + "`java.net.URI` is not in this compilation, so it cannot be marked @Wire; convert it to a supported type "
            + "(a number, String, array or record of its parts), or hold it in a record or @Wire class of your own")
            .inFile(source).onLine(lineOf(source, "URI n"));
        assertThat(compilation).hadErrorContaining("`com.google.testing.compile.JavaFileObjects` is not in this compilation, so it "
            + "cannot be marked @Wire").inFile(source).onLine(lineOf(source, "fromAJar"));
        assertEquals(7, compilation.errors().stream().filter(e -> e.getMessage(null).contains("cannot be sent")).count(),
            compilation.errors().toString());
        for (final Diagnostic<?> error : compilation.errors()) {
            assertFalse(error.getMessage(null).contains("mark `java"), error.getMessage(null));
            assertFalse(error.getMessage(null).contains("mark `com.google"), error.getMessage(null));
        }
    }

    @Test
    void shouldAskToMarkAClassOfTheCompilationWire() {
        assertError(fib("    static final class Box { int x; }\n    @Spawnable long fib(Box box) { return 0; }"),
            "parameter `box` of @Spawnable `fib` has type `Fib.Box`, which cannot be sent; mark `p.Fib.Box` @Wire or use a record",
            "Box box");
    }

    // ---- @Guard -------------------------------------------------------------------------------

    @Test
    void shouldRejectGuardNamingNoSpawnable() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n    @Guard(\"fibb\") boolean ok(int n) { return true; }"),
            "@Guard `ok` names `fibb`, which is not a @Spawnable method of `Fib`; name one of: fib", "boolean ok");
    }

    @Test
    void shouldRejectGuardWithDifferentParameters() {
        assertError(fib("    @Spawnable long fib(int n, String s) { return n; }\n"
                + "    @Guard(\"fib\") boolean ok(String s, int n) { return true; }"),
            "@Guard `ok` takes (String, int) but @Spawnable `fib` takes (int, String); a guard takes exactly the parameter types "
                + "of its spawnable, in the same order", "boolean ok");
    }

    @Test
    void shouldRejectGuardNotReturningBoolean() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n    @Guard(\"fib\") int ok(int n) { return 1; }"),
            "@Guard `ok` returns `int`; a guard returns boolean", "int ok");
    }

    @Test
    void shouldRejectPrivateGuard() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n    @Guard(\"fib\") private boolean ok(int n) { return true; }"),
            "@Guard `ok` must not be private: the generated job calls it; make it package-private", "private boolean ok");
    }

    @Test
    void shouldRejectStaticGuard() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n    @Guard(\"fib\") static boolean ok(int n) { return true; }"),
            "@Guard `ok` must not be static: it is called on the job's receiver; make it an instance method", "static boolean ok");
    }

    @Test
    void shouldRejectSecondGuard() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n    @Guard(\"fib\") boolean ok(int n) { return true; }\n"
                + "    @Guard(\"fib\") boolean alsoOk(int n) { return true; }"),
            "@Guard `alsoOk` is a second guard for @Spawnable `fib`, which already has @Guard `ok`; a spawnable has at most one "
                + "guard, merge them", "boolean alsoOk");
    }

    @Test
    void shouldRejectGuardInClassWithoutSpawnables() {
        assertError(source("Plain", "public class Plain {\n    @Guard(\"fib\") boolean ok(int n) { return true; }\n}\n"),
            "@Guard `ok` names `fib`, which is not a @Spawnable method of `Plain`; a guard is declared in the same class as the "
                + "@Spawnable method it names, and `Plain` has none",
            "boolean ok");
    }

    // ---- @SharedObject and @Write ---------------------------------------------------------------

    @Test
    void shouldRejectFinalSharedObject() {
        assertError(source("Bodies", "@SharedObject\npublic final class Bodies {\n    int iteration;\n}\n"),
            "@SharedObject `Bodies` must not be final: remove final: Divvy generates a replica subclass", "public final class Bodies");
    }

    @Test
    void shouldRejectWriteOutsideSharedObject() {
        assertError(source("Bodies", "public class Bodies {\n    @Write void step(int n) { }\n}\n"),
            "@Write `step` is in `Bodies`, which is not a @SharedObject", "void step");
    }

    @Test
    void shouldRejectWriteReturningAValue() {
        assertError(source("Bodies", "@SharedObject\npublic class Bodies {\n    @Write int step(int n) { return n; }\n}\n"),
            "@Write `step` returns `int`; a write is applied on every replica and returns nothing: make it void", "int step");
    }

    @Test
    void shouldRejectPrivateWrite() {
        assertError(source("Bodies", "@SharedObject\npublic class Bodies {\n    @Write private void step(int n) { }\n}\n"),
            "@Write `step` must not be private: the replica subclass overrides it; make it package-private", "private void step");
    }

    @Test
    void shouldRejectSharedObjectAsWriteArgument() {
        assertError(source("Bodies", "@SharedObject\npublic class Bodies {\n    @Write void merge(Bodies other) { }\n}\n"),
            "parameter `other` of @Write `merge` has type `Bodies`, which is a @SharedObject: shared objects travel only as direct "
                + "parameters of a @Spawnable", "Bodies other");
    }

    @Test
    void shouldRejectSharedObjectInsideASentValue() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n}\n");
        final JavaFileObject sim = source("Sim", "public class Sim implements SimSpawner {\n"
            + "    @Spawnable long step(List<Bodies> all) { return 0; }\n}\n");
        final Compilation compilation = compile(bodies, sim);
        assertThat(compilation).hadErrorContaining("parameter `all` of @Spawnable `step` has type `List<Bodies>` whose element `[]` "
            + "has type `p.Bodies`, which is a @SharedObject: shared objects travel only as direct parameters of a @Spawnable, never "
            + "inside a value that is sent; pass it as a parameter of its own").inFile(sim).onLine(lineOf(sim, "List<Bodies> all"));
    }

    @Test
    void shouldRejectSharedObjectAsReceiverField() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n}\n");
        final JavaFileObject sim = source("Sim", "public class Sim implements SimSpawner {\n    Bodies bodies;\n"
            + "    @Spawnable long step(int n) { return 0; }\n}\n");
        final Compilation compilation = compile(bodies, sim);
        assertThat(compilation).hadErrorContaining("field `bodies` of `Sim` (sent with every stolen job as the receiver) has type "
            + "`Bodies`, which is a @SharedObject").inFile(sim).onLine(lineOf(sim, "Bodies bodies"));
    }

    @Test
    void shouldRejectStaticAndGenericWrites() {
        final JavaFileObject source = source("Bodies", "@SharedObject\npublic class Bodies {\n"
            + "    @Write static void reset(int n) { }\n    @Write <T> void put(int n) { }\n}\n");
        final Compilation compilation = compile(source);
        assertThat(compilation).hadErrorContaining("@Write `reset` must not be static: it changes a replica; make it an instance method")
            .inFile(source).onLine(lineOf(source, "static void reset"));
        assertThat(compilation).hadErrorContaining("@Write `put` must not be generic; remove the type parameters")
            .inFile(source).onLine(lineOf(source, "<T> void put"));
    }

    @Test
    void shouldRejectSharedObjectInsideAWireClass() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n}\n");
        final JavaFileObject holder = source("Holder", "@Wire\npublic final class Holder {\n    Bodies[] all;\n}\n");
        final Compilation compilation = compile(bodies, holder);
        assertThat(compilation).hadErrorContaining("field `all` of @Wire `Holder` has type `Bodies[]` whose element `[]` has type "
            + "`p.Bodies`, which is a @SharedObject").inFile(holder).onLine(lineOf(holder, "Bodies[] all"));
    }

    @Test
    void shouldRejectSharedObjectInsideARecordParameter() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n}\n");
        final JavaFileObject sim = source("Sim", "public class Sim implements SimSpawner {\n"
            + "    record Step(int n, Bodies bodies) { }\n"
            + "    @Spawnable long step(Step step) { return 0; }\n}\n");
        final Compilation compilation = compile(bodies, sim);
        assertThat(compilation).hadErrorContaining("parameter `step` of @Spawnable `step` has type `Sim.Step` whose field `bodies` "
            + "has type `p.Bodies`, which is a @SharedObject: shared objects travel only as direct parameters of a @Spawnable, never "
            + "inside a value that is sent; pass it as a parameter of its own").inFile(sim).onLine(lineOf(sim, "Step step)"));
    }

    @Test
    void shouldRejectSharedObjectInsideAnArrayParameter() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n}\n");
        final JavaFileObject sim = source("Sim", "public class Sim implements SimSpawner {\n"
            + "    @Spawnable long step(Bodies[] all) { return 0; }\n}\n");
        final Compilation compilation = compile(bodies, sim);
        assertThat(compilation).hadErrorContaining("parameter `all` of @Spawnable `step` has type `Bodies[]` whose element `[]` "
            + "has type `p.Bodies`, which is a @SharedObject").inFile(sim).onLine(lineOf(sim, "Bodies[] all"));
    }

    @Test
    void shouldRejectSharedObjectAsFieldOfASharedObject() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n    Bound bound;\n}\n");
        final JavaFileObject bound = source("Bound", "@SharedObject\npublic class Bound {\n    int best;\n}\n");
        final Compilation compilation = compile(bodies, bound);
        assertThat(compilation).hadErrorContaining("field `bound` of @SharedObject `Bodies` (sent to new replicas) has type `Bound`, "
            + "which is a @SharedObject: shared objects travel only as direct parameters of a @Spawnable, never inside a value that is "
            + "sent; pass it as a parameter of its own").inFile(bodies).onLine(lineOf(bodies, "Bound bound"));
    }

    @Test
    void shouldRejectSharedObjectStateTheReplicaCannotAssign() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    private int iteration;\n"
            + "    Bodies(int start) { iteration = start; }\n}\n");
        final Compilation compilation = compile(bodies);
        assertThat(compilation).hadErrorContaining("field `iteration` of @SharedObject `Bodies` (sent to new replicas) is private, "
            + "but the generated codec assigns it directly; make it package-private and not final, or mark it transient")
            .inFile(bodies).onLine(lineOf(bodies, "private int iteration"));
        assertThat(compilation).hadErrorContaining("class @SharedObject `Bodies` (its state is sent to new replicas) has no non-private "
            + "no-argument constructor, which Divvy needs to create it on the receiving node; add `Bodies() {}`")
            .inFile(bodies).onLine(lineOf(bodies, "public class Bodies"));
    }

    @Test
    void shouldRejectAReadMethodThatCallsAWrite() {
        assertError(source("Best", "@SharedObject\npublic class Best {\n    int value;\n"
                + "    @Write void offer(int v) { if (v < value) value = v; }\n"
                + "    boolean tryImprove(int v) {\n        if (v >= value) return false;\n        this.offer(v);\n        return true;\n    }\n}\n"),
            "method `tryImprove` of @SharedObject `Best` calls @Write `offer`, but it is not @Write itself: it runs under the "
                + "replica's read lock, and a read cannot become a write; mark `tryImprove` @Write (the write it calls is then applied "
                + "with it, not shipped again) or call `offer` from outside the shared object", "this.offer(v)");
    }

    @Test
    void shouldRejectGuardDeclaringCheckedExceptions() {
        assertError(fib("    @Spawnable long fib(int n) { return n; }\n"
                + "    @Guard(\"fib\") boolean ok(int n) throws Exception { return true; }"),
            "@Guard `ok` declares checked exception `Exception`; a guard is a side-effect free predicate, remove the throws clause",
            "boolean ok");
    }

    @Test
    void shouldRejectAbstractWireClass() {
        assertError(source("Light", "@Wire\npublic abstract class Light {\n    int power;\n}\n"),
            "class @Wire `Light` is abstract, but Divvy creates it on the receiving node with its no-argument constructor",
            "public abstract class Light");
    }

    @Test
    void shouldRejectUnsendableComponentOfWireRecord() {
        assertError(source("Light", "@Wire\npublic record Light(int power, Thread owner) {\n}\n"),
            "component `owner` of @Wire `Light` has type `Thread`, which cannot be sent", "Thread owner");
    }

    @Test
    void shouldRejectTypesTheGeneratedCodeCannotSee() {
        assertError(fib("    private enum Mode { A }\n    @Spawnable long fib(Mode mode) { return 0; }"),
            "parameter `mode` of @Spawnable `fib` has type `Fib.Mode`, which is not visible to the generated code in package `p`; "
                + "make `p.Fib.Mode` package-private or public", "Mode mode");
    }

    // ---- all errors in one compile -------------------------------------------------------------

    @Test
    void shouldReportEveryErrorOfAClassInOneCompile() {
        final JavaFileObject source = fib("    private Thread worker;\n"
            + "    @Spawnable private long fib(int n) { return n; }\n"
            + "    @Spawnable long search(Iterator<String> nodes) { return 0; }\n"
            + "    @Guard(\"nothing\") boolean ok(int n) { return true; }");
        final Compilation compilation = compile(source);
        assertThat(compilation).hadErrorContaining("field `worker` of `Fib`").inFile(source).onLine(lineOf(source, "Thread worker"));
        assertThat(compilation).hadErrorContaining("@Spawnable `fib` must not be private").inFile(source)
            .onLine(lineOf(source, "private long fib"));
        assertThat(compilation).hadErrorContaining("parameter `nodes` of @Spawnable `search`").inFile(source)
            .onLine(lineOf(source, "Iterator<String> nodes"));
        assertThat(compilation).hadErrorContaining("@Guard `ok` names `nothing`").inFile(source).onLine(lineOf(source, "boolean ok"));
    }

    @Test
    void shouldCarryOnWithOtherClassesAfterAnError() {
        final JavaFileObject bad = source("Bad", "public class Bad implements BadSpawner {\n    @Spawnable private long fib(int n) { return n; }\n}\n");
        final JavaFileObject good = source("Good", "public class Good implements GoodSpawner {\n    @Spawnable long fib(int n) { return n; }\n}\n");
        final Compilation compilation = compile(bad, good);
        assertThat(compilation).hadErrorContaining("@Spawnable `fib` must not be private").inFile(bad);
        // A failed compilation hides its generated files; that GoodSpawner resolved while BadSpawner did not shows
        // Good was generated although Bad, processed first, had an error.
        final String errors = compilation.errors().toString();
        assertTrue(errors.contains("BadSpawner"), errors);
        assertFalse(errors.contains("GoodSpawner"), errors);
        final long processorErrors = compilation.errors().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR && d.getMessage(null).contains("@Spawnable")).count();
        assertEquals(1, processorErrors, compilation.errors().toString());
    }
}
