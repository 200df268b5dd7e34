package org.divvy.processor;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;

import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

import com.palantir.javapoet.ClassName;

/**
 * Names of generated things. Generated types are always top-level in the user's package, so a nested
 * class's name is flattened: the simple names from the outermost class in, each with {@code _} doubled,
 * joined by {@code _}. {@code p.Outer.Inner} gives {@code Outer_Inner} (its spawner is
 * {@code p.Outer_InnerSpawner}) and a top-level {@code p.Outer_Inner} gives {@code Outer__Inner}, so the
 * two never meet. Only names with a {@code _} at a simple name's edge can still flatten alike
 * ({@code A_.B} and {@code A._B}); {@link GeneratedNames} reports those, and user classes that already
 * hold a generated name, before anything is written.
 */
final class Names {
    private Names() {
    }

    static String packageName(final TypeElement type) {
        Element e = type;
        while (e.getKind() != ElementKind.PACKAGE) {
            e = e.getEnclosingElement();
        }
        return ((PackageElement)e).getQualifiedName().toString();
    }

    static String flatName(final TypeElement type) {
        final Deque<String> names = new ArrayDeque<>();
        for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
            names.addFirst(e.getSimpleName().toString().replace("_", "__"));
        }
        return String.join("_", names);
    }

    static ClassName spawner(final TypeElement type) {
        return ClassName.get(packageName(type), flatName(type) + "Spawner");
    }

    static ClassName jobs(final TypeElement type) {
        return ClassName.get(packageName(type), flatName(type) + "Jobs");
    }

    static ClassName codec(final TypeElement type) {
        return ClassName.get(packageName(type), flatName(type) + "Codec");
    }

    /** The replica subclass generated for a @SharedObject class: {@code BoundShared}. */
    static ClassName sharedReplica(final TypeElement type) {
        return ClassName.get(packageName(type), flatName(type) + "Shared");
    }

    /** As {@link #sharedReplica(TypeElement)}, from the shared class's name. */
    static ClassName sharedReplica(final ClassName shared) {
        return ClassName.get(shared.packageName(), String.join("_", shared.simpleNames().stream().map(n -> n.replace("_", "__")).toList())
            + "Shared");
    }

    static String capitalize(final String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    static String stub(final String methodName) {
        return "spawn" + capitalize(methodName);
    }

    static String jobClass(final String methodName) {
        return capitalize(methodName) + "Job";
    }

    /** {@code name}, with underscores appended until it is not in {@code taken}. */
    static String avoid(final String name, final Collection<String> taken) {
        String candidate = name;
        while (taken.contains(candidate)) {
            candidate += "_";
        }
        return candidate;
    }
}
