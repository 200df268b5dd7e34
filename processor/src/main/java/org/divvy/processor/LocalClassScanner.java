package org.divvy.processor;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;

/**
 * Finds Divvy annotations inside local and anonymous classes, which annotation processing never hands to
 * a processor (they live in method bodies), and reports each as an error saying where to put it: generated
 * code cannot name such a class, so the annotation would otherwise be silently ignored.
 *
 * <p>Annotations in method bodies are not resolved yet when processors run, so they are matched by name:
 * {@code @org.divvy.annotations.Spawnable}, or {@code @Spawnable} in a file that imports it or its package.
 * This needs javac's tree API; where the environment is not javac's (a wrapped environment, another
 * compiler) the scan is skipped.
 */
final class LocalClassScanner {
    private static final String PACKAGE = "org.divvy.annotations";

    /** Per annotation on a method: the consequence of being in a class generated code cannot name, and the fix. */
    private static final Map<String, String> METHOD_ADVICE = Map.of(
        "Spawnable", "so it would never be spawned; move the method into a top-level or static nested class",
        "Guard", "so it would never be checked; put the guard beside its @Spawnable method in a top-level or static nested class",
        "Write", "so it would never be shipped to replicas; move the method into a top-level or static nested @SharedObject class");

    /** Per annotation on a class, likewise. */
    private static final Map<String, String> CLASS_ADVICE = Map.of(
        "Wire", "so no codec is generated for it",
        "SharedObject", "so it would never be replicated");

    private final Trees trees;
    private final Reporter reporter;
    private final Set<String> scanned = new HashSet<>();

    private LocalClassScanner(final Trees trees, final Reporter reporter) {
        this.trees = trees;
        this.reporter = reporter;
    }

    /**
     * A scanner over javac's trees, or one that finds nothing when they are not available. Javac calls
     * {@code process} only in compilations with a Divvy annotation it can see, so a file whose only Divvy
     * annotations are in a local class is scanned after javac has analysed it (the scan's errors then show
     * only when there are no earlier ones).
     */
    static LocalClassScanner create(final ProcessingEnvironment env, final Reporter reporter) {
        final LocalClassScanner scanner;
        try {
            scanner = new LocalClassScanner(Trees.instance(env), reporter);
        } catch (final IllegalArgumentException | LinkageError e) {
            return new LocalClassScanner(null, reporter);
        }
        try {
            JavacTask.instance(env).addTaskListener(new TaskListener() {
                @Override
                public void finished(final TaskEvent event) {
                    final TypeElement type = event.getTypeElement();
                    if (event.getKind() == TaskEvent.Kind.ANALYZE && type != null
                        && type.getEnclosingElement().getKind() == ElementKind.PACKAGE) {
                        try {
                            scanner.scan(type);
                        } catch (final RuntimeException | StackOverflowError e) {
                            reporter.error(type, "Divvy processor failed on `" + type.getSimpleName() + "`: " + e + ", please report");
                        }
                    }
                }
            });
        } catch (final IllegalArgumentException | IllegalStateException | LinkageError e) {
            // Not a JavacTask: only the classes seen in process() are scanned.
        }
        return scanner;
    }

    /** Scans the source of a top-level class once. */
    void scan(final TypeElement root) {
        if (trees == null || !scanned.add(root.getQualifiedName().toString())) {
            return;
        }
        final TreePath path = trees.getPath(root);
        if (path == null) {
            return;
        }
        final CompilationUnitTree unit = path.getCompilationUnit();
        final Set<String> imported = importedNames(unit);
        new TreePathScanner<Void, String>() {
            /** {@code where}: null in a class generated code can name, else which unnamable class encloses this one. */
            @Override
            public Void visitClass(final ClassTree tree, final String where) {
                final Tree.Kind parent = getCurrentPath().getParentPath().getLeaf().getKind();
                final String here;
                final String what;
                if (parent == Tree.Kind.NEW_CLASS) {
                    here = "an anonymous class";
                    what = here;
                } else if (where != null) {
                    here = "class `" + tree.getSimpleName() + "`, nested in " + where;
                    what = "nested in " + where;
                } else if (!isTypeDeclaration(parent)) {
                    here = "local class `" + tree.getSimpleName() + "`";
                    what = "a local class";
                } else {
                    here = null;
                    what = null;
                }
                if (here != null) {
                    for (final AnnotationTree annotation : tree.getModifiers().getAnnotations()) {
                        final String name = divvyName(annotation, imported);
                        if (name != null && CLASS_ADVICE.containsKey(name)) {
                            reporter.error(trees, tree, unit, "@" + name + " `" + tree.getSimpleName() + "` is " + what
                                + ", which generated code cannot name, "
                                + CLASS_ADVICE.get(name) + "; move it out of the method: make it a top-level or static nested class");
                        }
                    }
                    for (final Tree member : tree.getMembers()) {
                        if (member instanceof MethodTree method) {
                            for (final AnnotationTree annotation : method.getModifiers().getAnnotations()) {
                                final String name = divvyName(annotation, imported);
                                if (name != null && METHOD_ADVICE.containsKey(name)) {
                                    reporter.error(trees, method, unit, "@" + name + " `" + method.getName() + "` is in " + here
                                        + ", which generated code cannot name, " + METHOD_ADVICE.get(name));
                                }
                            }
                        }
                    }
                }
                return super.visitClass(tree, here);
            }
        }.scan(path, null);
    }

    private static boolean isTypeDeclaration(final Tree.Kind kind) {
        return kind == Tree.Kind.COMPILATION_UNIT || kind == Tree.Kind.CLASS || kind == Tree.Kind.INTERFACE
            || kind == Tree.Kind.ENUM || kind == Tree.Kind.ANNOTATION_TYPE || "RECORD".equals(kind.name());
    }

    /** The Divvy annotation's simple name, or null when the annotation is not one of Divvy's. */
    private static String divvyName(final AnnotationTree annotation, final Set<String> imported) {
        final String written = annotation.getAnnotationType().toString();
        if (written.startsWith(PACKAGE + ".")) {
            return written.substring(PACKAGE.length() + 1);
        }
        return imported.contains(written) ? written : null;
    }

    /** The Divvy annotations usable by simple name in {@code unit}. */
    private static Set<String> importedNames(final CompilationUnitTree unit) {
        final Set<String> names = new HashSet<>();
        final List<String> all = List.of("Spawnable", "Guard", "Write", "Wire", "SharedObject");
        final boolean samePackage = unit.getPackageName() != null && unit.getPackageName().toString().equals(PACKAGE);
        for (final ImportTree imported : unit.getImports()) {
            final String name = imported.getQualifiedIdentifier().toString();
            if (!imported.isStatic() && name.equals(PACKAGE + ".*")) {
                names.addAll(all);
            } else if (!imported.isStatic() && name.startsWith(PACKAGE + ".") && all.contains(name.substring(PACKAGE.length() + 1))) {
                names.add(name.substring(PACKAGE.length() + 1));
            }
        }
        if (samePackage) {
            names.addAll(all);
        }
        return names;
    }
}
