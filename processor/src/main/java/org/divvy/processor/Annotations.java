package org.divvy.processor;

import java.util.Map;
import java.util.Optional;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** Reads Divvy annotations through mirrors, by name, so no annotation class is loaded. */
final class Annotations {
    static final String SPAWNABLE = "org.divvy.annotations.Spawnable";
    static final String GUARD = "org.divvy.annotations.Guard";
    static final String WRITE = "org.divvy.annotations.Write";

    private Annotations() {
    }

    static Optional<AnnotationMirror> find(final Element element, final String qualifiedName) {
        for (final AnnotationMirror mirror : element.getAnnotationMirrors()) {
            final TypeElement type = (TypeElement)mirror.getAnnotationType().asElement();
            if (type.getQualifiedName().contentEquals(qualifiedName)) {
                return Optional.of(mirror);
            }
        }
        return Optional.empty();
    }

    static boolean has(final Element element, final String qualifiedName) {
        return find(element, qualifiedName).isPresent();
    }

    /** The {@code value} member of an annotation, or null when absent. */
    static AnnotationValue value(final AnnotationMirror mirror) {
        for (final Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : mirror.getElementValues().entrySet()) {
            if (e.getKey().getSimpleName().contentEquals("value")) {
                return e.getValue();
            }
        }
        return null;
    }
}
