package org.divvy.processor;

import java.util.ArrayList;
import java.util.List;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * The rules for a class a generated codec sends field by field (a @Wire class, or the receiver of
 * spawnable methods, which Divvy ships with every stolen job): the codec builds it with its no-argument
 * constructor and assigns its fields directly, without reflection.
 */
final class FieldsValidator {
    private final ProcessingEnvironment env;
    private final SourceTypes sources;
    private final Reporter reporter;

    FieldsValidator(final ProcessingEnvironment env, final SourceTypes sources, final Reporter reporter) {
        this.env = env;
        this.sources = sources;
        this.reporter = reporter;
    }

    /**
     * Checks the class and its sent fields; {@code role} describes it in messages, e.g. "@Wire `Light`"
     * or "`Fib` (sent with every stolen job as the receiver)"; {@code mayBeRecord}: whether advice may say
     * "make the class a record" (not for a receiver: records cannot have @Spawnable methods). Returns the
     * codec model, or null when anything is wrong (everything wrong has been reported).
     */
    Model.CodecClass validate(final TypeElement type, final String role, final String fieldRole, final boolean mayBeRecord) {
        final int errorsBefore = reporter.errorCount();
        final String name = type.getSimpleName().toString();
        if (type.getModifiers().contains(Modifier.ABSTRACT)) {
            reporter.error(type, "class " + role + " is abstract, but Divvy creates it on the receiving node with its no-argument "
                + "constructor; make it a concrete class");
        }
        boolean hasNoArgConstructor = false;
        for (final ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
            if (constructor.getParameters().isEmpty() && !constructor.getModifiers().contains(Modifier.PRIVATE)) {
                hasNoArgConstructor = true;
            }
        }
        if (!hasNoArgConstructor) {
            reporter.error(type, "class " + role + " has no non-private no-argument constructor, which Divvy needs to create it on "
                + "the receiving node; add `" + name + "() {}`");
        }
        inheritedFields(type, role);
        final String pkg = Names.packageName(type);
        final List<WireType.Component> fields = new ArrayList<>();
        for (final VariableElement field : TypeAnalyzer.sentFields(type)) {
            final String fieldName = field.getSimpleName().toString();
            final String subject = "field `" + fieldName + "` of " + fieldRole;
            if (field.getModifiers().contains(Modifier.PRIVATE) || field.getModifiers().contains(Modifier.FINAL)) {
                final String modifier = field.getModifiers().contains(Modifier.PRIVATE) ? "private" : "final";
                reporter.error(field, subject + " is " + modifier + ", but the generated codec assigns it directly; make it "
                    + "package-private and not final, " + (mayBeRecord ? "or make the class a record, " : "") + "or mark it transient");
            }
            final TypeAnalyzer.Result result = TypeAnalyzer.analyze(env, sources, pkg, field.asType(), TypeAnalyzer.Use.FIELD);
            reporter.typeProblems(field, subject, field.asType(), result);
            fields.add(new WireType.Component(fieldName, result.type()));
        }
        if (reporter.errorCount() != errorsBefore) {
            return null;
        }
        return new Model.CodecClass(type, com.palantir.javapoet.ClassName.get(type), Names.codec(type), List.copyOf(fields));
    }

    /** Fields of superclasses would be silently lost: the codec writes only the declared ones. */
    private void inheritedFields(final TypeElement type, final String role) {
        TypeMirror superclass = type.getSuperclass();
        while (superclass.getKind() == TypeKind.DECLARED) {
            final TypeElement parent = (TypeElement)((DeclaredType)superclass).asElement();
            if (parent.getQualifiedName().contentEquals("java.lang.Object")) {
                return;
            }
            for (final VariableElement field : TypeAnalyzer.sentFields(parent)) {
                final String fix = sources.editable(parent)
                    ? "mark that field transient or move it into `" + type.getSimpleName() + "`"
                    : "`" + parent.getQualifiedName() + "` is not in this compilation, so do not extend it: hold what "
                        + "`" + type.getSimpleName() + "` needs in its own fields";
                reporter.error(type, "class " + role + " extends `" + parent.getQualifiedName() + "`, whose field `"
                    + field.getSimpleName() + "` would not be sent: Divvy sends only the fields a class declares; " + fix);
            }
            superclass = parent.getSuperclass();
        }
    }
}
