package org.divvy.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;

/**
 * The one place validation reports through: every error goes on the element it is about, so javac and
 * IDEs point at the offending parameter, field or guard. Counting lets a caller tell whether a class
 * came out clean.
 */
final class Reporter {
    private final Messager messager;
    private int errorCount;

    Reporter(final Messager messager) {
        this.messager = messager;
    }

    void error(final Element element, final String message) {
        errorCount++;
        messager.printMessage(Diagnostic.Kind.ERROR, message, element);
    }

    /**
     * An error on a tree that has no element yet (a method of a local class, found before attribution);
     * javac shows it at the tree's position, like an error on an element.
     */
    void error(final Trees trees, final Tree tree, final CompilationUnitTree unit, final String message) {
        errorCount++;
        trees.printMessage(Diagnostic.Kind.ERROR, message, tree, unit);
    }

    int errorCount() {
        return errorCount;
    }

    /**
     * Reports every problem of a type analysis on {@code element}, as
     * "{subject} has type `Scene` whose field `lights[].color` has type `java.awt.Color`, which ...".
     */
    void typeProblems(final Element element, final String subject, final TypeMirror root, final TypeAnalyzer.Result result) {
        for (final TypeAnalyzer.Problem problem : result.problems()) {
            final StringBuilder message = new StringBuilder(subject).append(" has type `").append(simple(root)).append('`');
            if (!problem.path().isEmpty()) {
                final String path = problem.path().startsWith(".") ? problem.path().substring(1) : problem.path();
                message.append(" whose ").append(problem.pathKind()).append(" `").append(path)
                    .append("` has type `").append(problem.type()).append('`');
            }
            message.append(", ").append(problem.reason());
            error(element, message.toString());
        }
    }

    /** A type as a user reads it: {@code List<Node>} rather than {@code java.util.List<p.Node>}. */
    static String simple(final TypeMirror type) {
        return type.toString().replaceAll("\\b(?:[a-z_][\\w$]*\\.)+(?=[A-Za-z_$])", "");
    }
}
