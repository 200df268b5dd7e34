package org.divvy.processor;

import java.util.HashSet;
import java.util.Set;

import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * The classes declared in the sources of this compilation, the only ones a user can edit. Advice never
 * asks to change a class outside it (from the JDK or a jar): "mark `java.math.BigInteger` @Wire" cannot
 * be followed. Filled from each round's root elements, leaving out the types Divvy generated.
 */
final class SourceTypes {
    private final Set<String> names = new HashSet<>();

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

    boolean contains(final String qualifiedName) {
        return names.contains(qualifiedName);
    }
}
