package org.divvy.processor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.divvy.processor.Sources.compile;
import static org.divvy.processor.Sources.source;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the processor generates for clean classes. The Fib spawner and jobs are compared with golden
 * files in {@code src/test/resources/golden}; after an intended change, regenerate them with
 * {@code mvn -B -o -pl processor test -Dtest=GenerationTest -Ddivvy.golden.update=true} and review the diff.
 */
@Timeout(120)
class GenerationTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

    private static final String FIB = "public class Fib implements FibSpawner {\n"
        + "    int threshold = 20;\n\n"
        + "    @Spawnable\n"
        + "    public long fib(int n) {\n"
        + "        if (n < threshold) return n < 2 ? n : fib(n - 1) + fib(n - 2);\n"
        + "        LongSpawn a = spawnFib(n - 1);\n"
        + "        LongSpawn b = spawnFib(n - 2);\n"
        + "        sync();\n"
        + "        return a.get() + b.get();\n"
        + "    }\n"
        + "}\n";

    private static String generated(final Compilation compilation, final String qualifiedName) {
        try {
            return compilation.generatedSourceFile(qualifiedName).orElseThrow(() -> new AssertionError(qualifiedName + " not generated"))
                .getCharContent(true).toString();
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertGolden(final String fileName, final String actual) throws IOException {
        final Path golden = GOLDEN.resolve(fileName);
        if (Boolean.getBoolean("divvy.golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), actual,
            fileName + " differs from the golden file; if intended, regenerate with -Ddivvy.golden.update=true");
    }

    @Test
    void shouldGenerateSpawnerJobsCodecAndServiceFileForFib() throws IOException {
        final Compilation compilation = compile(source("Fib", FIB));
        assertThat(compilation).succeededWithoutWarnings();
        assertGolden("FibSpawner.java.txt", generated(compilation, "p.FibSpawner"));
        assertGolden("FibJobs.java.txt", generated(compilation, "p.FibJobs"));
        assertTrue(generated(compilation, "p.FibCodec").contains("value.threshold = reader.readInt();"));
        final String services = compilation.generatedFile(
                StandardLocation.CLASS_OUTPUT, "META-INF/services/org.divvy.codegen.JobTypeProvider")
            .orElseThrow(() -> new AssertionError("no services file")).getCharContent(true).toString();
        assertEquals("p.FibJobs\n", services);
    }

    @Test
    void shouldClaimItsAnnotationsSoXlintAllWerrorPasses() {
        final Compilation compilation = com.google.testing.compile.Compiler.javac().withProcessors(new DivvyProcessor())
            .withOptions("-Xlint:all", "-Werror").compile(source("Fib", FIB),
                source("Light", "@Wire\npublic final class Light {\n    int power;\n\n"
                    + "    @Override\n    public String toString() {\n        return \"light \" + power;\n    }\n}\n"),
                source("Outer", "public class Outer {\n    @Wire public static final class Inner_Part {\n        Light light;\n    }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void shouldSendJdkValuesWithoutUserAction() {
        final Compilation compilation = compile(source("Ledger", "public class Ledger implements LedgerSpawner {\n"
            + "    java.math.BigDecimal balance;\n"
            + "    @Spawnable java.math.BigInteger total(UUID account, java.time.LocalDate day, List<java.time.Instant> times,\n"
            + "        Map<java.time.LocalDateTime, java.time.Duration> spans, java.time.LocalTime at, BitSet flags) { return null; }\n"
            + "}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        final String jobs = generated(compilation, "p.LedgerJobs");
        assertTrue(jobs.contains("writer.writeLong(value.toEpochDay());"), jobs);
        assertTrue(jobs.contains("jdk java.util.UUID(long, long)"), jobs);
        assertTrue(generated(compilation, "p.LedgerCodec").contains("writeBigDecimal(writer, value.balance);"));
    }

    @Test
    void shouldChooseTheHandleByReturnType() {
        final Compilation compilation = compile(source("Kinds", "class Kinds implements KindsSpawner {\n"
            + "    @Spawnable long l() { return 0; }\n"
            + "    @Spawnable int i() { return 0; }\n"
            + "    @Spawnable double d() { return 0; }\n"
            + "    @Spawnable boolean z() { return false; }\n"
            + "    @Spawnable void v() { }\n"
            + "    @Spawnable byte b() { return 0; }\n"
            + "    @Spawnable char c() { return 'c'; }\n"
            + "    @Spawnable float f() { return 0; }\n"
            + "    @Spawnable short s() { return 0; }\n"
            + "    @Spawnable int[] ints() { return null; }\n"
            + "    @Spawnable List<String> strings() throws Exception { return null; }\n"
            + "}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        final String spawner = generated(compilation, "p.KindsSpawner");
        assertTrue(spawner.startsWith("package p;"), spawner);
        assertTrue(spawner.contains("\ninterface KindsSpawner extends Spawner {"), "package-private class, package-private spawner:\n" + spawner);
        for (final String stub : new String[] {
            "default LongSpawn spawnL()", "default IntSpawn spawnI()", "default DoubleSpawn spawnD()", "default BooleanSpawn spawnZ()",
            "default VoidSpawn spawnV()", "default Spawn<Byte> spawnB()", "default Spawn<Character> spawnC()",
            "default Spawn<Float> spawnF()", "default Spawn<Short> spawnS()", "default Spawn<int[]> spawnInts()",
            "default Spawn<List<String>> spawnStrings()"}) {
            assertTrue(spawner.contains(stub), stub + " missing in\n" + spawner);
        }
        assertFalse(spawner.contains("throws"), "stubs declare no checked exceptions:\n" + spawner);
        final String jobs = generated(compilation, "p.KindsJobs");
        assertTrue(jobs.contains("static final class BJob extends ObjectJob<Byte>"), jobs);
        assertTrue(jobs.contains("static final class VJob extends VoidJob"), jobs);
        assertTrue(jobs.contains("static final class StringsJob extends ObjectJob<List<String>>"), jobs);
    }

    @Test
    void shouldKeepVarargsAndRenameFieldsThatClashWithTheJob() {
        final Compilation compilation = compile(source("Sum", "public class Sum implements SumSpawner {\n"
            + "    @Spawnable public long sum(long receiver, String result, int... values) { return 0; }\n"
            + "    long caller() { return spawnSum(1, \"r\", 1, 2, 3).get(); }\n"
            + "}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generated(compilation, "p.SumSpawner").contains("default LongSpawn spawnSum(long receiver, String result, int... values)"));
        final String jobs = generated(compilation, "p.SumJobs");
        assertTrue(jobs.contains("return receiver.sum(receiver_, result_, values);"), jobs);
    }

    @Test
    void shouldAcceptPackagePrivateTypesOfAWireClassInAnotherPackage() {
        final JavaFileObject light = com.google.testing.compile.JavaFileObjects.forSourceString("q.Light", "package q;\n"
            + "import org.divvy.annotations.Wire;\n"
            + "@Wire public final class Light {\n    enum Kind { SPOT, AREA }\n    Kind kind;\n    double power;\n}\n");
        final Compilation compilation = compile(light, source("Render", "public class Render implements RenderSpawner {\n"
            + "    @Spawnable public int render(q.Light light) { return 0; }\n}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generated(compilation, "p.RenderJobs").contains("LightCodec.read(reader)"));
    }

    @Test
    void shouldFlattenNestedClassNames() {
        final Compilation compilation = compile(source("Outer", "public class Outer {\n"
            + "    public static class Inner implements Outer_InnerSpawner {\n"
            + "        @Spawnable public long fib(int n) { return n; }\n"
            + "    }\n"
            + "}\n"));
        assertThat(compilation).succeededWithoutWarnings();
        assertTrue(generated(compilation, "p.Outer_InnerSpawner").contains("public interface Outer_InnerSpawner extends Spawner"));
        assertTrue(generated(compilation, "p.Outer_InnerJobs").contains("return \"p.Outer$Inner#fib\";"));
        assertTrue(generated(compilation, "p.Outer_InnerCodec").contains("public final class Outer_InnerCodec"));
    }

    @Test
    void shouldRecogniseAQualifiedSpawnerName() {
        assertThat(compile(source("Fib", FIB.replace("implements FibSpawner", "implements p.FibSpawner")))).succeededWithoutWarnings();
    }

    @Test
    void shouldCompileEverySupportedShape() {
        final JavaFileObject wire = source("Tree", "@Wire\npublic final class Tree {\n    Tree left;\n    Tree right;\n"
            + "    List<Tree> children;\n    Map<String, Tree> named;\n    int value;\n    transient Thread ignored;\n}\n");
        final JavaFileObject shapes = source("Shapes", "public class Shapes implements ShapesSpawner {\n"
            + "    enum Color { RED, GREEN }\n"
            + "    record Point(int x, double y, String label, List<Point> children, Color color) {}\n"
            + "    String name;\n    Integer boxed;\n    Tree tree;\n    static Thread notSent;\n"
            + "    @Spawnable\n"
            + "    public Map<String, List<Point>> all(byte b, short s, char c, int i, long l, float f, double d, boolean z,\n"
            + "        Byte bb, Short ss, Character cc, Integer ii, Long ll, Float ff, Double dd, Boolean zz,\n"
            + "        String str, Color color, int[][] grid, String[] names, Point point, List<Point> points,\n"
            + "        Set<Color> colors, Map<String, Integer> counts, TreeMap<Integer, List<String>> tree, Tree wire,\n"
            + "        LinkedList<Set<String>> nested, List<String>[] genericArray, Tree[][] trees, HashMap<Color, int[]> byColor,\n"
            + "        ArrayList<Point> arrayList, HashSet<Long> hashSet, LinkedHashSet<String> ordered, TreeSet<String> sorted,\n"
            + "        LinkedHashMap<String, Point> linked, TreeMap<String, Tree> sortedTrees) {\n"
            + "        return null;\n"
            + "    }\n"
            + "}\n");
        final Compilation compilation = compile(wire, shapes);
        assertThat(compilation).succeeded();
        final String jobs = generated(compilation, "p.ShapesJobs");
        assertTrue(jobs.contains("private static Shapes.Point readShapesPoint(WireReader reader)"), jobs);
        assertTrue(jobs.contains("final int[][] value = new int[length][];"), jobs);
        assertTrue(jobs.contains("return reader.readNested(TreeCodec.NESTED);"), "a recursive @Wire class is read by its step codec: " + jobs);
        assertTrue(jobs.contains("return reader.readNested(NESTED_ShapesPoint);"), "so is a recursive record: " + jobs);
        assertTrue(jobs.contains("final String[] value = new String[length];"), "types that do not reach themselves keep plain helpers: " + jobs);
        final String tree = generated(compilation, "p.TreeCodec");
        assertTrue(tree.contains("public static final NestedCodec<Tree> NESTED"), tree);
        assertTrue(tree.contains("writer.push(NESTED_ListOfTree, value.children);"), tree);
        assertTrue(tree.contains("if (reader.readReference(typeKey())) return DONE;"), "a @Wire class that reaches itself is tracked: " + tree);
        assertFalse(generated(compilation, "p.ShapesCodec").contains("notSent"), "static fields are not sent");
    }

    @Test
    void shouldSendADirectSharedObjectParameterAsItsIdAndGenerateTheReplicaSubclass() {
        final JavaFileObject bodies = source("Bodies", "@SharedObject\npublic class Bodies {\n    int iteration;\n"
            + "    @Write void advance(int to) { iteration = to; }\n    int iteration() { return iteration; }\n}\n");
        final JavaFileObject sim = source("Sim", "public class Sim implements SimSpawner {\n"
            + "    @Spawnable public double step(byte[] nodeId, int iteration, Bodies bodies) { return 0; }\n"
            + "    @Guard(\"step\") boolean current(byte[] nodeId, int iteration, Bodies bodies) { return bodies.iteration + 1 == iteration; }\n"
            + "}\n");
        final Compilation compilation = compile(bodies, sim);
        assertThat(compilation).succeededWithoutWarnings();
        final String jobs = generated(compilation, "p.SimJobs");
        assertTrue(jobs.contains("SharedObjects.write(writer, bodies, \"bodies\");"), jobs);
        assertTrue(jobs.contains("final Bodies bodies = SharedObjects.read(reader, BodiesShared.TYPE);"), jobs);
        assertTrue(jobs.contains("return new Object[] {bodies};"), jobs);
        assertTrue(jobs.contains("return receiver.current(nodeId, iteration, bodies);"), jobs);
        final String replica = generated(compilation, "p.BodiesShared");
        assertTrue(replica.contains("public class BodiesShared extends Bodies implements SharedReplica"), replica);
        assertTrue(replica.contains("final WireWriter writer = core.beginShip(0);"), replica);
        assertTrue(replica.contains("final int token = core.readLock();"), "reads hold the read lock: " + replica);
        assertTrue(replica.contains("final int a0 = reader.readInt();"), "the applier decodes the arguments: " + replica);
        assertTrue(replica.contains("super.advance(a0);"), "and calls super's method, which is not shipped again: " + replica);
    }
}
