package org.divvy.processor;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;

import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.tools.StandardLocation;

/**
 * The classes declared in the sources of this compilation, and which classes a user can edit: those, and
 * classes of the project compiled earlier (an incremental build recompiles only some files; their class
 * files are in the compiler's class output). Advice never asks to change any other class (from the JDK or
 * a jar): "mark `java.math.BigInteger` @Wire" cannot be followed. Filled from each round's root elements,
 * leaving out the types Divvy generated.
 */
final class SourceTypes {
    private final Set<String> names = new HashSet<>();
    private final Filer filer;
    private final Elements elements;

    SourceTypes(final Filer filer, final Elements elements) {
        this.filer = filer;
        this.elements = elements;
    }

    /** Adds {@code root} and the member types nested in it. */
    void add(final TypeElement root) {
        names.add(root.getQualifiedName().toString());
        for (final Element member : ElementFilter.typesIn(root.getEnclosedElements())) {
            add((TypeElement)member);
        }
    }

    boolean contains(final TypeElement type) {
        return names.contains(type.getQualifiedName().toString());
    }

    /** Whether the user can edit {@code type}: it is in this compilation or in the project's class output. */
    boolean editable(final TypeElement type) {
        if (contains(type)) {
            return true;
        }
        final String pkg = elements.getPackageOf(type).getQualifiedName().toString();
        final String binary = elements.getBinaryName(type).toString();
        final String file = (pkg.isEmpty() ? binary : binary.substring(pkg.length() + 1)) + ".class";
        try (InputStream in = filer.getResource(StandardLocation.CLASS_OUTPUT, pkg, file).openInputStream()) {
            return true;
        } catch (final IOException | RuntimeException e) {
            return false; // not there: a JDK or jar class
        }
    }

    boolean contains(final String qualifiedName) {
        return names.contains(qualifiedName);
    }
}
