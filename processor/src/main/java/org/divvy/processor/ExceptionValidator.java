package org.divvy.processor;

import java.util.List;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;

import com.palantir.javapoet.ClassName;

/**
 * Decides how a user exception class is rebuilt at the owner's {@code sync()} when a child on another
 * node threw it: through a constructor {@code (String message, Throwable cause)} or {@code (String message)}
 * the generated code can call. The classes are those the processor can see: declared in a
 * {@code @Spawnable}'s {@code throws} clause, or marked {@code @Wire}. A class that cannot be rebuilt is a
 * javac error on the element that asked for it, saying what to add; a class outside the compilation (JDK or
 * jar: nothing the user can fix) without such a constructor and an abstract class in a {@code throws} clause (its subclasses are what
 * is thrown; a warning says to mark them) arrive as {@code RemoteJobException}, which names the class.
 */
final class ExceptionValidator {
    private final Elements elements;
    private final Types types;
    private final Reporter reporter;
    private final ProcessingEnvironment env;
    private final SourceTypes sources;

    ExceptionValidator(final ProcessingEnvironment env, final SourceTypes sources, final Reporter reporter) {
        this.env = env;
        this.sources = sources;
        this.elements = env.getElementUtils();
        this.types = env.getTypeUtils();
        this.reporter = reporter;
    }

    boolean isThrowable(final TypeMirror type) {
        return types.isSubtype(type, elements.getTypeElement("java.lang.Throwable").asType());
    }

    /** An exception in the throws clause of {@code method}; null when it is not rebuilt (errors were reported). */
    Model.RemoteException declared(final ExecutableElement method, final TypeMirror thrown, final String fromPackage) {
        if (thrown.getKind() != TypeKind.DECLARED) {
            return null; // a type variable: spawnables are not generic, so javac reports it elsewhere
        }
        final TypeElement type = (TypeElement)((DeclaredType)thrown).asElement();
        final String subject = "exception `" + type.getSimpleName() + "` in the throws clause of @Spawnable `" + method.getSimpleName() + "`";
        if (type.getModifiers().contains(Modifier.ABSTRACT)) {
            env.getMessager().printMessage(Diagnostic.Kind.WARNING, subject + " is abstract, so it is never thrown itself; a subclass "
                + "thrown on another node reaches sync() with its own class only if it is marked @Wire or declared, otherwise as "
                + "RemoteJobException", method);
            return null;
        }
        return check(type, fromPackage, method, subject, sources.editable(type));
    }

    /** A class marked @Wire that is an exception; null when it cannot be rebuilt (errors were reported). */
    Model.RemoteException marked(final TypeElement type) {
        final String subject = "@Wire exception `" + type.getSimpleName() + "`";
        if (type.getModifiers().contains(Modifier.ABSTRACT)) {
            reporter.error(type, subject + " is abstract, so it cannot be rebuilt at sync() when a child on another node throws it; "
                + "remove @Wire here and mark the concrete subclasses");
            return null;
        }
        return check(type, Names.packageName(type), type, subject, true);
    }

    private Model.RemoteException check(final TypeElement type, final String fromPackage, final Element reportOn, final String subject,
        final boolean required) {
        final int errorsBefore = reporter.errorCount();
        if (type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
            fail(required, reportOn, subject + " is a local class, which generated code cannot name; make it a top-level or static nested class");
            return null;
        }
        if (type.getNestingKind() == NestingKind.MEMBER && !type.getModifiers().contains(Modifier.STATIC)
            && type.getEnclosingElement().getKind().isClass()) {
            fail(required, reportOn, subject + " is an inner class, which cannot be created without its outer instance; make it static");
            return null;
        }
        for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
            final boolean samePackage = elements.getPackageOf(e).getQualifiedName().contentEquals(fromPackage);
            if (e.getModifiers().contains(Modifier.PRIVATE) || (!e.getModifiers().contains(Modifier.PUBLIC) && !samePackage)) {
                fail(required, reportOn, subject + " is not visible to the generated code in package `" + fromPackage + "`, which rebuilds "
                    + "it at sync() when a child on another node throws it; make `" + ((TypeElement)e).getQualifiedName() + "` public");
                return null;
            }
        }
        boolean withMessage = false;
        boolean withCause = false;
        for (final ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
            if (!callable(constructor, type, fromPackage)) {
                continue;
            }
            final List<? extends javax.lang.model.element.VariableElement> parameters = constructor.getParameters();
            if (parameters.size() == 1 && is(parameters.get(0).asType(), "java.lang.String")) {
                withMessage = true;
            } else if (parameters.size() == 2 && is(parameters.get(0).asType(), "java.lang.String")
                && is(parameters.get(1).asType(), "java.lang.Throwable")) {
                withCause = true;
            }
        }
        if (!withMessage && !withCause) {
            fail(required, reportOn, subject + " has no constructor the generated code can call to rebuild it at sync() when a child on "
                + "another node throws it; add `" + type.getSimpleName() + "(String message, Throwable cause) { super(message, cause); }`"
                + " (public, or package-private in package `" + fromPackage + "`)");
            return null;
        }
        if (reporter.errorCount() != errorsBefore) {
            return null;
        }
        return new Model.RemoteException(type, ClassName.get(type), elements.getBinaryName(type).toString(), withCause);
    }

    private boolean callable(final ExecutableElement constructor, final TypeElement type, final String fromPackage) {
        if (constructor.getModifiers().contains(Modifier.PUBLIC)) {
            return true;
        }
        return !constructor.getModifiers().contains(Modifier.PRIVATE)
            && elements.getPackageOf(type).getQualifiedName().contentEquals(fromPackage);
    }

    private boolean is(final TypeMirror type, final String qualifiedName) {
        return types.isSameType(type, elements.getTypeElement(qualifiedName).asType());
    }

    private void fail(final boolean required, final Element reportOn, final String message) {
        if (required) {
            reporter.error(reportOn, message);
        }
    }
}
