package org.divvy.processor;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/** Validates @Wire classes, @SharedObject classes and their @Write methods. */
final class DataValidator {
    private final ProcessingEnvironment env;
    private final SourceTypes sources;
    private final Reporter reporter;

    DataValidator(final ProcessingEnvironment env, final SourceTypes sources, final Reporter reporter) {
        this.env = env;
        this.sources = sources;
        this.reporter = reporter;
    }

    /** Whether {@code type} is an exception class: @Wire on it means "rebuild it at sync() with its own class". */
    boolean isException(final TypeElement type) {
        return type.getKind() == ElementKind.CLASS && new ExceptionValidator(env, sources, reporter).isThrowable(type.asType());
    }

    /** Validates a @Wire exception class; returns how to rebuild it, or null (errors were reported). */
    Model.RemoteException wireException(final TypeElement type) {
        return new ExceptionValidator(env, sources, reporter).marked(type);
    }

    /** Validates a @Wire type; returns the codec to generate, or null (records need none; errors were reported). */
    Model.CodecClass wire(final TypeElement type) {
        final String name = type.getSimpleName().toString();
        final String role = "@Wire `" + name + "`";
        if (type.getKind() == ElementKind.RECORD) {
            if (!type.getTypeParameters().isEmpty()) {
                reporter.error(type, "record " + role + " must not be generic: a receiver cannot know its type arguments; "
                    + "use concrete component types");
            }
            for (final RecordComponentElement component : type.getRecordComponents()) {
                final TypeAnalyzer.Result result = TypeAnalyzer.analyze(env, sources, Names.packageName(type), component.asType(), TypeAnalyzer.Use.FIELD);
                reporter.typeProblems(componentField(type, component), "component `" + component.getSimpleName() + "` of " + role, component.asType(), result);
            }
            return null;
        }
        if (type.getKind() != ElementKind.CLASS) {
            reporter.error(type, "@Wire applies to final classes and records, and `" + name + "` is " + switch (type.getKind()) {
                case ENUM -> "an enum (enums are sent without @Wire; remove it)";
                case ANNOTATION_TYPE -> "an annotation type; remove @Wire";
                default -> "an interface; mark its implementing final classes instead";
            });
            return null;
        }
        final int errorsBefore = reporter.errorCount();
        if (!type.getModifiers().contains(Modifier.FINAL)) {
            reporter.error(type, role + " must be final: its codec writes exactly the declared fields, so a subclass would lose "
                + "data; make it final or a record");
        }
        if (!type.getTypeParameters().isEmpty()) {
            reporter.error(type, role + " must not be generic: a receiver cannot know its type arguments; remove the type parameters");
        }
        if (type.getNestingKind() == NestingKind.MEMBER && !type.getModifiers().contains(Modifier.STATIC)
            && type.getEnclosingElement().getKind().isClass()) {
            reporter.error(type, role + " must not be an inner class: its codec cannot build it without the outer instance; "
                + "make the nested class static");
        }
        for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
            if (e.getModifiers().contains(Modifier.PRIVATE)) {
                reporter.error(type, role + ": `" + e.getSimpleName() + "` must not be private, its generated codec uses it; "
                    + "make it package-private or public");
            }
        }
        final Model.CodecClass codec = new FieldsValidator(env, sources, reporter).validate(type, role, role, true);
        return reporter.errorCount() == errorsBefore ? codec : null;
    }

    /** Javac gives record components no source position; the field behind one has the component's. */
    private static Element componentField(final TypeElement record, final RecordComponentElement component) {
        for (final VariableElement field : javax.lang.model.util.ElementFilter.fieldsIn(record.getEnclosedElements())) {
            if (field.getSimpleName().contentEquals(component.getSimpleName())) {
                return field;
            }
        }
        return record;
    }

    /**
     * Validates a @SharedObject class: the class, its state (the fields sent to new replicas, as for a
     * @Wire class: a non-private no-argument constructor, non-private non-final fields of types that can be
     * sent and are not shared objects) and what its replica subclass overrides. Returns the model of the
     * replica subclass, or null when anything is wrong (reported here or by {@link #write}).
     */
    Model.SharedClass sharedObject(final TypeElement type) {
        final String name = type.getSimpleName().toString();
        final String role = "@SharedObject `" + name + "`";
        if (type.getKind() != ElementKind.CLASS) {
            reporter.error(type, "@SharedObject applies to classes, and `" + name + "` is " + switch (type.getKind()) {
                case RECORD -> "a record";
                case ENUM -> "an enum";
                case ANNOTATION_TYPE -> "an annotation type";
                default -> "an interface";
            } + "; make it a non-final class");
            return null;
        }
        final int errorsBefore = reporter.errorCount();
        if (type.getModifiers().contains(Modifier.FINAL)) {
            reporter.error(type, role + " must not be final: remove final: Divvy generates a replica subclass");
        }
        if (Annotations.has(type, TypeAnalyzer.WIRE)) {
            reporter.error(type, role + " is also marked @Wire; a shared object travels as an id, never by value: remove @Wire");
        }
        if (!type.getTypeParameters().isEmpty()) {
            reporter.error(type, role + " must not be generic: a replica on another node cannot know its type arguments; "
                + "remove the type parameters");
        }
        if (type.getNestingKind() == NestingKind.MEMBER && !type.getModifiers().contains(Modifier.STATIC)
            && type.getEnclosingElement().getKind().isClass()) {
            reporter.error(type, role + " must not be an inner class: its replicas are made without an outer instance; "
                + "make the nested class static");
        }
        for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
            if (e.getModifiers().contains(Modifier.PRIVATE)) {
                reporter.error(type, role + ": `" + e.getSimpleName() + "` must not be private, its generated replica subclass "
                    + "extends it; make it package-private or public");
            }
        }
        final Model.CodecClass state = new FieldsValidator(env, sources, reporter).validate(
            type, role + " (its state is sent to new replicas)", role + " (sent to new replicas)", false);
        final java.util.List<ExecutableElement> constructors = new java.util.ArrayList<>();
        for (final ExecutableElement constructor : javax.lang.model.util.ElementFilter.constructorsIn(type.getEnclosedElements())) {
            if (!constructor.getModifiers().contains(Modifier.PRIVATE)) {
                constructors.add(constructor);
            }
        }
        final java.util.List<Model.WriteMethod> writes = new java.util.ArrayList<>();
        final java.util.List<ExecutableElement> reads = new java.util.ArrayList<>();
        for (final ExecutableElement method : javax.lang.model.util.ElementFilter.methodsIn(type.getEnclosedElements())) {
            final java.util.Set<Modifier> modifiers = method.getModifiers();
            if (Annotations.has(method, Annotations.WRITE)) {
                final java.util.List<WireType> parameterTypes = new java.util.ArrayList<>();
                boolean sendable = true;
                for (final VariableElement parameter : method.getParameters()) {
                    final WireType wireType = TypeAnalyzer.analyze(
                        env, sources, Names.packageName(type), parameter.asType(), TypeAnalyzer.Use.OTHER).type();
                    sendable &= wireType != null;
                    parameterTypes.add(wireType);
                }
                final boolean shaped = method.getReturnType().getKind() == TypeKind.VOID && !modifiers.contains(Modifier.PRIVATE)
                    && !modifiers.contains(Modifier.STATIC) && !modifiers.contains(Modifier.FINAL) && method.getTypeParameters().isEmpty();
                if (!sendable || !shaped) {
                    return null; // reported by write()
                }
                writes.add(new Model.WriteMethod(method, java.util.List.copyOf(parameterTypes)));
            } else if (!modifiers.contains(Modifier.PRIVATE) && !modifiers.contains(Modifier.STATIC) && !modifiers.contains(Modifier.FINAL)
                && !modifiers.contains(Modifier.ABSTRACT)) {
                reads.add(method);
            }
        }
        final java.util.Set<String> writeNames = new java.util.HashSet<>();
        for (final Model.WriteMethod write : writes) {
            writeNames.add(write.element().getSimpleName().toString());
        }
        final ReadCallsWriteScanner readsCallingWrites = ReadCallsWriteScanner.create(env, reporter);
        for (final ExecutableElement read : reads) {
            readsCallingWrites.check(name, read, writeNames);
        }
        if (state == null || reporter.errorCount() != errorsBefore) {
            return null;
        }
        return new Model.SharedClass(type, com.palantir.javapoet.ClassName.get(type), Names.sharedReplica(type),
            env.getElementUtils().getBinaryName(type).toString(), java.util.List.copyOf(constructors), java.util.List.copyOf(writes),
            java.util.List.copyOf(reads), state.fields());
    }

    private static String kindOf(final Element type) {
        return switch (type.getKind()) {
            case RECORD -> "record";
            case ENUM -> "enum";
            case ANNOTATION_TYPE -> "annotation type";
            default -> "interface";
        };
    }

    void write(final ExecutableElement method) {
        final String subject = "@Write `" + method.getSimpleName() + "`";
        final Element owner = method.getEnclosingElement();
        if (owner.getKind() != ElementKind.CLASS) {
            reporter.error(method, subject + " is in " + kindOf(owner) + " `" + owner.getSimpleName() + "`; write methods exist only "
                + "in @SharedObject classes: move it into one, or remove @Write");
        } else if (!Annotations.has(owner, TypeAnalyzer.SHARED_OBJECT)) {
            reporter.error(method, subject + " is in `" + owner.getSimpleName() + "`, which is not a @SharedObject; write methods "
                + "exist only in shared objects: mark the class @SharedObject or remove @Write");
        }
        if (method.getReturnType().getKind() != TypeKind.VOID) {
            reporter.error(method, subject + " returns `" + Reporter.simple(method.getReturnType()) + "`; a write is applied on "
                + "every replica and returns nothing: make it void");
        }
        if (method.getModifiers().contains(Modifier.PRIVATE)) {
            reporter.error(method, subject + " must not be private: the replica subclass overrides it; make it package-private");
        }
        if (method.getModifiers().contains(Modifier.STATIC)) {
            reporter.error(method, subject + " must not be static: it changes a replica; make it an instance method");
        }
        if (method.getModifiers().contains(Modifier.FINAL)) {
            reporter.error(method, subject + " must not be final: the replica subclass overrides it; remove final");
        }
        if (!method.getTypeParameters().isEmpty()) {
            reporter.error(method, subject + " must not be generic; remove the type parameters");
        }
        for (final VariableElement parameter : method.getParameters()) {
            final TypeAnalyzer.Result result = TypeAnalyzer.analyze(
                env, sources, Names.packageName((TypeElement)owner), parameter.asType(), TypeAnalyzer.Use.OTHER);
            reporter.typeProblems(parameter, "parameter `" + parameter.getSimpleName() + "` of " + subject, parameter.asType(), result);
        }
    }
}
