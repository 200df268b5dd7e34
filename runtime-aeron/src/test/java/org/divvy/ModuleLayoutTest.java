package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The module's shape, read from the compiled main classes (target/classes): what it exports, and that no
 * import cycle joins its packages. Dependencies are taken from each class file's constant pool (every
 * class it names: supertypes, fields, calls, descriptors), so fully qualified names count as much as
 * imports, and Javadoc links do not count.
 */
class ModuleLayoutTest {
    /**
     * The public API: its exceptions are used by every package and {@code DivvyNode} assembles the node,
     * so it depends on internals and they on it. It is left out of the graph: a cycle must not go through
     * two internal packages without it.
     */
    private static final String API_PACKAGE = "org.divvy";

    private static final Pattern CLASS_NAME = Pattern.compile("org/divvy/[A-Za-z0-9_$/]+");

    @Test
    void shouldExportOnlyTheApiAndTheContractOfGeneratedCode() throws IOException {
        final ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(mainClasses().resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
        assertEquals("org.divvy.runtime", descriptor.name());
        final Set<String> exported = descriptor.exports().stream()
            .filter(e -> e.targets().isEmpty())
            .map(ModuleDescriptor.Exports::source)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("org.divvy", "org.divvy.codegen"), exported);
        // the shared-data module is a mechanism built outside this module: it alone sees the extension point and
        // the internal types a mechanism names
        final Set<String> toSharedData = descriptor.exports().stream()
            .filter(e -> !e.targets().isEmpty())
            .peek(e -> assertEquals(Set.of("org.divvy.sharing"), e.targets(), "qualified export to another module: " + e))
            .map(ModuleDescriptor.Exports::source)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("org.divvy.extension", "org.divvy.agent", "org.divvy.protocol", "org.divvy.scheduling"), toSharedData);
        assertTrue(descriptor.opens().isEmpty(), "opens nothing: " + descriptor.opens());
    }

    @Test
    void shouldHaveNoImportCycleBetweenPackages() throws IOException {
        final Map<String, Map<String, Set<String>>> graph = packageGraph(mainClasses());
        assertTrue(graph.containsKey("org.divvy.scheduling") && graph.containsKey("org.divvy.codegen"),
            "read the runtime's classes: " + graph.keySet());
        final List<Set<String>> cycles = stronglyConnected(graph).stream().filter(c -> c.size() > 1).toList();
        assertTrue(cycles.isEmpty(), () -> describe(cycles, graph));
    }

    /** {@code target/classes}: where the class under test was loaded from (tests run on the class path). */
    private static Path mainClasses() {
        try {
            final Path location = Path.of(DivvyNode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertTrue(Files.isDirectory(location), "main classes are a directory: " + location);
            return location;
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Package to the packages it uses, each with the classes that use it ({@code Worker -> Task}). */
    private static Map<String, Map<String, Set<String>>> packageGraph(final Path classes) throws IOException {
        final Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(p -> p.toString().endsWith(".class") && !p.endsWith("module-info.class")).toList();
        }
        for (final Path file : files) {
            final String className = classes.relativize(file).toString().replace('\\', '/').replaceAll("\\.class$", "");
            final String from = packageOf(className);
            if (from.equals(API_PACKAGE)) {
                continue;
            }
            final Map<String, Set<String>> uses = graph.computeIfAbsent(from, k -> new TreeMap<>());
            for (final String utf8 : utf8Constants(file)) {
                final Matcher m = CLASS_NAME.matcher(utf8);
                while (m.find()) {
                    final String to = packageOf(m.group());
                    if (!to.equals(from) && !to.equals(API_PACKAGE)) {
                        uses.computeIfAbsent(to, k -> new TreeSet<>()).add(simpleName(className) + " -> " + simpleName(m.group()));
                    }
                }
            }
        }
        return graph;
    }

    private static String packageOf(final String internalName) {
        return internalName.substring(0, internalName.lastIndexOf('/')).replace('/', '.');
    }

    private static String simpleName(final String internalName) {
        return internalName.substring(internalName.lastIndexOf('/') + 1);
    }

    /** The CONSTANT_Utf8 entries of a class file: class names, descriptors and signatures among them. */
    private static List<String> utf8Constants(final Path classFile) throws IOException {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(classFile))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IOException(classFile + " is not a class file");
            }
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            final int count = in.readUnsignedShort();
            final List<String> strings = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                final int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> strings.add(in.readUTF()); // Utf8
                    case 7, 8, 16, 19, 20 -> in.skipBytes(2); // Class, String, MethodType, Module, Package
                    case 15 -> in.skipBytes(3); // MethodHandle
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4); // Integer, Float, refs, NameAndType, dynamic
                    case 5, 6 -> {
                        in.skipBytes(8); // Long, Double take two entries
                        i++;
                    }
                    default -> throw new IOException(classFile + ": unknown constant pool tag " + tag + " at entry " + i);
                }
            }
            return strings;
        }
    }

    /** Tarjan's strongly connected components; each one larger than a package is a cycle. */
    private static List<Set<String>> stronglyConnected(final Map<String, Map<String, Set<String>>> graph) {
        final Map<String, Integer> index = new HashMap<>();
        final Map<String, Integer> lowLink = new HashMap<>();
        final Deque<String> stack = new ArrayDeque<>();
        final Set<String> onStack = new TreeSet<>();
        final List<Set<String>> components = new ArrayList<>();
        for (final String node : graph.keySet()) {
            if (!index.containsKey(node)) {
                connect(node, graph, index, lowLink, stack, onStack, components);
            }
        }
        return components;
    }

    private static void connect(final String node, final Map<String, Map<String, Set<String>>> graph,
        final Map<String, Integer> index, final Map<String, Integer> lowLink, final Deque<String> stack,
        final Set<String> onStack, final List<Set<String>> components) {
        index.put(node, index.size());
        lowLink.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        for (final String next : graph.getOrDefault(node, Map.of()).keySet()) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, lowLink, stack, onStack, components);
                lowLink.put(node, Math.min(lowLink.get(node), lowLink.get(next)));
            } else if (onStack.contains(next)) {
                lowLink.put(node, Math.min(lowLink.get(node), index.get(next)));
            }
        }
        if (lowLink.get(node).equals(index.get(node))) {
            final Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            components.add(component);
        }
    }

    private static String describe(final List<Set<String>> cycles, final Map<String, Map<String, Set<String>>> graph) {
        final StringBuilder sb = new StringBuilder("import cycles between packages (break each by moving a class or ")
            .append("turning a dependency around):");
        for (final Set<String> cycle : cycles) {
            sb.append("\n  ").append(cycle);
            for (final String from : cycle) {
                graph.get(from).forEach((to, uses) -> {
                    if (cycle.contains(to)) {
                        sb.append("\n    ").append(from).append(" -> ").append(to).append(": ").append(uses);
                    }
                });
            }
        }
        return sb.toString();
    }
}
