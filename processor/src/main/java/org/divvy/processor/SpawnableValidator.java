package org.divvy.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Types;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;

/**
 * Validates a class with @Spawnable methods and @Guards, reporting every problem on its element, and
 * builds its model when it is clean.
 */
final class SpawnableValidator {
    /**
     * Names a job class uses for itself or inherits ({@code result}, the callbacks); a parameter field with
     * one of these names is renamed by appending underscores.
     */
    private static final Set<String> JOB_RESERVED =
        Set.of("receiver", "reader", "writer", "TYPE", "result", "resultCallback", "failureCallback");

    private final ProcessingEnvironment env;
    private final SourceTypes sources;
    private final Reporter reporter;
    private final Types types;

    SpawnableValidator(final ProcessingEnvironment env, final SourceTypes sources, final Reporter reporter) {
        this.env = env;
        this.sources = sources;
        this.reporter = reporter;
        this.types = env.getTypeUtils();
    }

    /** The models of the class and of its receiver codec, both clean; null when anything was reported. */
    record Validated(Model.SpawnableClass spawnable, Model.CodecClass receiver) {
    }

    Validated validate(final TypeElement type) {
        final int errorsBefore = reporter.errorCount();
        final List<ExecutableElement> methods = ElementFilter.methodsIn(type.getEnclosedElements());
        final List<ExecutableElement> spawnables = methods.stream()
            .filter(m -> Annotations.has(m, Annotations.SPAWNABLE)).collect(Collectors.toList());
        final String name = type.getSimpleName().toString();

        final boolean shapeOk = classShape(type, spawnables.isEmpty());
        Model.CodecClass receiver = null;
        if (!spawnables.isEmpty() && shapeOk) {
            implementsSpawner(type);
            receiver = new FieldsValidator(env, sources, reporter).validate(
                type, "`" + name + "` (sent with every stolen job as the receiver)",
                "`" + name + "` (sent with every stolen job as the receiver)", false);
        }

        final Map<String, ExecutableElement> byName = new LinkedHashMap<>();
        final Map<String, String> capitalised = new HashMap<>();
        for (final ExecutableElement method : spawnables) {
            final String methodName = method.getSimpleName().toString();
            final String clash = capitalised.putIfAbsent(Names.capitalize(methodName), methodName);
            if (clash != null) {
                reporter.error(method, "@Spawnable `" + methodName + "` has the same name as @Spawnable `" + clash
                    + "` (up to the first letter's case); each spawnable gets a spawn stub, a job type and a guard named after it; "
                    + "rename one");
                continue;
            }
            byName.put(methodName, method);
        }
        for (final ExecutableElement method : methods) {
            final String methodName = method.getSimpleName().toString();
            for (final String spawnable : byName.keySet()) {
                if (methodName.equals(Names.stub(spawnable))) {
                    reporter.error(method, "method `" + methodName + "` has the name of the spawn stub Divvy generates for "
                        + "@Spawnable `" + spawnable + "` in `" + Names.spawner(type).simpleName() + "`; rename it");
                }
            }
        }

        final Map<String, String> guards = guards(type, methods, byName);
        final List<Model.SpawnableMethod> models = new ArrayList<>();
        final Map<String, Model.RemoteException> exceptions = new LinkedHashMap<>();
        final ExceptionValidator exceptionValidator = new ExceptionValidator(env, sources, reporter);
        for (final ExecutableElement method : byName.values()) {
            final Model.SpawnableMethod model = method(type, method, guards.get(method.getSimpleName().toString()));
            if (model != null) {
                models.add(model);
            }
            for (final TypeMirror thrown : method.getThrownTypes()) {
                final Model.RemoteException exception = exceptionValidator.declared(method, thrown, Names.packageName(type));
                if (exception != null) {
                    exceptions.putIfAbsent(exception.binaryName(), exception);
                }
            }
        }
        if (reporter.errorCount() != errorsBefore || spawnables.isEmpty()) {
            return null;
        }
        final Model.SpawnableClass spawnable = new Model.SpawnableClass(
            type, ClassName.get(type), env.getElementUtils().getBinaryName(type).toString(),
            type.getModifiers().contains(Modifier.PUBLIC), Names.spawner(type), Names.jobs(type), List.copyOf(models),
            List.copyOf(exceptions.values()));
        return new Validated(spawnable, receiver);
    }

    /** Class-level rules; returns whether the class is shaped so its fields are worth checking. */
    private boolean classShape(final TypeElement type, final boolean guardsOnly) {
        if (guardsOnly) {
            return false;
        }
        final String name = type.getSimpleName().toString();
        final String what = "class `" + name + "` has @Spawnable methods, so ";
        switch (type.getKind()) {
            case CLASS:
                break;
            case RECORD:
            case ENUM:
                reporter.error(type, what + "it must be a plain class, not " + (type.getKind() == ElementKind.RECORD ? "a record" : "an enum")
                    + ": Divvy ships the receiver as a class with assignable fields; move the methods into a class");
                return false;
            default:
                reporter.error(type, "`" + name + "` is an interface or annotation with @Spawnable methods; "
                    + "put them in a class that implements `" + Names.spawner(type).simpleName() + "`");
                return false;
        }
        boolean ok = true;
        if (!type.getTypeParameters().isEmpty()) {
            reporter.error(type, what + "it must not be generic: a job on another node cannot know its type arguments; "
                + "remove the type parameters");
            ok = false;
        }
        if (type.getNestingKind() == NestingKind.LOCAL || type.getNestingKind() == NestingKind.ANONYMOUS) {
            reporter.error(type, what + "it must not be a local or anonymous class; make it a top-level or static nested class");
            return false;
        }
        if (type.getNestingKind() == NestingKind.MEMBER && !type.getModifiers().contains(Modifier.STATIC)
            && type.getEnclosingElement().getKind().isClass()) {
            reporter.error(type, what + "it must not be an inner class: a job cannot build its receiver without the outer "
                + "instance; make the nested class static");
            ok = false;
        }
        for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
            if (e.getModifiers().contains(Modifier.PRIVATE)) {
                reporter.error(type, what + "`" + e.getSimpleName() + "` must not be private: generated classes beside it use it; "
                    + "make it package-private or public");
                ok = false;
            }
        }
        return ok;
    }

    private void implementsSpawner(final TypeElement type) {
        final ClassName spawner = Names.spawner(type);
        for (final TypeMirror implemented : type.getInterfaces()) {
            // In round 1 the spawner does not exist yet: javac hands us an error type carrying the name as written.
            final String written = implemented.toString();
            final String erased = written.contains("<") ? written.substring(0, written.indexOf('<')) : written;
            if (erased.equals(spawner.canonicalName()) || erased.equals(spawner.simpleName())) {
                return;
            }
        }
        reporter.error(type, "class `" + type.getSimpleName() + "` has @Spawnable methods, so it must implement its generated "
            + "interface `" + spawner.simpleName() + "`: write `class " + type.getSimpleName() + " implements "
            + spawner.simpleName() + "`");
    }

    private Model.SpawnableMethod method(final TypeElement type, final ExecutableElement method, final String guard) {
        final int errorsBefore = reporter.errorCount();
        final String name = method.getSimpleName().toString();
        final String subject = "@Spawnable `" + name + "`";
        if (method.getModifiers().contains(Modifier.PRIVATE)) {
            reporter.error(method, subject + " must not be private: its generated job calls it; make it package-private or public");
        }
        if (method.getModifiers().contains(Modifier.STATIC)) {
            reporter.error(method, subject + " must not be static: a job runs it on a receiver; make it an instance method");
        }
        if (method.getModifiers().contains(Modifier.ABSTRACT)) {
            reporter.error(method, subject + " must have a body: a job runs exactly this method; implement it here");
        }
        if (!method.getTypeParameters().isEmpty()) {
            reporter.error(method, subject + " must not be generic: a job on another node cannot know its type arguments; "
                + "remove the type parameters");
        }
        final String pkg = Names.packageName(type);
        final List<Model.Parameter> parameters = new ArrayList<>();
        final List<String> fieldNames = new ArrayList<>(JOB_RESERVED);
        for (final VariableElement parameter : method.getParameters()) {
            final String parameterName = parameter.getSimpleName().toString();
            final TypeAnalyzer.Result result = TypeAnalyzer.analyze(
                env, sources, pkg, parameter.asType(), TypeAnalyzer.Use.SPAWNABLE_PARAMETER);
            reporter.typeProblems(parameter, "parameter `" + parameterName + "` of " + subject, parameter.asType(), result);
            final String fieldName = Names.avoid(parameterName, fieldNames);
            fieldNames.add(fieldName);
            parameters.add(new Model.Parameter(parameterName, fieldName, TypeName.get(parameter.asType()), result.type()));
        }
        final TypeMirror returnType = method.getReturnType();
        WireType result = null;
        if (returnType.getKind() != TypeKind.VOID) {
            final TypeMirror boxed = returnType.getKind().isPrimitive() && !specialised(returnType.getKind())
                ? types.boxedClass(types.getPrimitiveType(returnType.getKind())).asType() : returnType;
            final TypeAnalyzer.Result analysis = TypeAnalyzer.analyze(env, sources, pkg, boxed, TypeAnalyzer.Use.OTHER);
            reporter.typeProblems(method, "return type of " + subject, returnType, analysis);
            result = analysis.type();
        }
        if (reporter.errorCount() != errorsBefore) {
            return null;
        }
        return new Model.SpawnableMethod(
            name, List.copyOf(parameters), method.isVarArgs(), TypeName.get(returnType), result, guard);
    }

    static boolean specialised(final TypeKind kind) {
        return kind == TypeKind.LONG || kind == TypeKind.INT || kind == TypeKind.DOUBLE || kind == TypeKind.BOOLEAN;
    }

    /** Validates the @Guard methods of the class; returns spawnable name to guard name for the valid ones. */
    private Map<String, String> guards(
        final TypeElement type, final List<ExecutableElement> methods, final Map<String, ExecutableElement> spawnables) {
        final Map<String, String> guards = new HashMap<>();
        for (final ExecutableElement guard : methods) {
            final AnnotationMirror mirror = Annotations.find(guard, Annotations.GUARD).orElse(null);
            if (mirror == null) {
                continue;
            }
            final AnnotationValue value = Annotations.value(mirror);
            final String target = value == null ? "" : String.valueOf(value.getValue());
            final String guardName = guard.getSimpleName().toString();
            final String subject = "@Guard `" + guardName + "`";
            final ExecutableElement spawnable = spawnables.get(target);
            if (spawnable == null) {
                reporter.error(guard, misplacedGuard(type, guard, target, methods, spawnables));
                continue;
            }
            final int errorsBefore = reporter.errorCount();
            if (!sameParameterTypes(guard, spawnable)) {
                reporter.error(guard, subject + " takes (" + parameterTypes(guard) + ") but @Spawnable `" + target + "` takes ("
                    + parameterTypes(spawnable) + "); a guard takes exactly the parameter types of its spawnable, in the same order");
            }
            if (guard.getReturnType().getKind() != TypeKind.BOOLEAN) {
                reporter.error(guard, subject + " returns `" + Reporter.simple(guard.getReturnType()) + "`; a guard returns boolean");
            }
            if (guard.getModifiers().contains(Modifier.PRIVATE)) {
                reporter.error(guard, subject + " must not be private: the generated job calls it; make it package-private");
            }
            if (guard.getModifiers().contains(Modifier.STATIC)) {
                reporter.error(guard, subject + " must not be static: it is called on the job's receiver; make it an instance method");
            }
            if (!guard.getTypeParameters().isEmpty()) {
                reporter.error(guard, subject + " must not be generic; remove the type parameters");
            }
            for (final TypeMirror thrown : guard.getThrownTypes()) {
                if (isChecked(thrown)) {
                    reporter.error(guard, subject + " declares checked exception `" + Reporter.simple(thrown)
                        + "`; a guard is a side-effect free predicate, remove the throws clause");
                }
            }
            if (reporter.errorCount() != errorsBefore) {
                continue;
            }
            final String previous = guards.putIfAbsent(target, guardName);
            if (previous != null) {
                reporter.error(guard, subject + " is a second guard for @Spawnable `" + target + "`, which already has @Guard `"
                    + previous + "`; a spawnable has at most one guard, merge them");
            }
        }
        return guards;
    }

    /**
     * Where a @Guard naming no spawnable of its class belongs. A @Guard goes on the guard method (a
     * boolean method of the same class with the spawnable's parameter types) and names the spawnable.
     */
    private static String misplacedGuard(final TypeElement type, final ExecutableElement guard, final String target,
        final List<ExecutableElement> methods, final Map<String, ExecutableElement> spawnables) {
        final String guardName = guard.getSimpleName().toString();
        if (Annotations.has(guard, Annotations.SPAWNABLE)) {
            final boolean targetExists = methods.stream().anyMatch(m -> m.getSimpleName().contentEquals(target));
            return "@Guard(\"" + target + "\") is on @Spawnable `" + guardName + "`, but a @Guard goes on the guard method and names "
                + "the spawnable it protects: remove it here and write `@Guard(\"" + guardName + "\")` on "
                + (targetExists ? "`" + target + "`" : "a boolean method of `" + type.getSimpleName() + "` that takes the parameters of `"
                + guardName + "`");
        }
        final String subject = "@Guard `" + guardName + "` names `" + target + "`, which is not a @Spawnable method of `"
            + type.getSimpleName() + "`; ";
        if (spawnables.isEmpty()) {
            return subject + "a guard is declared in the same class as the @Spawnable method it names, and `" + type.getSimpleName()
                + "` has none";
        }
        return subject + "name one of: " + String.join(", ", spawnables.keySet());
    }

    private boolean sameParameterTypes(final ExecutableElement a, final ExecutableElement b) {
        final List<? extends VariableElement> pa = a.getParameters();
        final List<? extends VariableElement> pb = b.getParameters();
        if (pa.size() != pb.size()) {
            return false;
        }
        for (int i = 0; i < pa.size(); i++) {
            if (!types.isSameType(pa.get(i).asType(), pb.get(i).asType())) {
                return false;
            }
        }
        return true;
    }

    private static String parameterTypes(final ExecutableElement method) {
        return method.getParameters().stream().map(p -> Reporter.simple(p.asType())).collect(Collectors.joining(", "));
    }

    private boolean isChecked(final TypeMirror thrown) {
        final TypeMirror runtime = env.getElementUtils().getTypeElement("java.lang.RuntimeException").asType();
        final TypeMirror error = env.getElementUtils().getTypeElement("java.lang.Error").asType();
        return !types.isSubtype(thrown, runtime) && !types.isSubtype(thrown, error);
    }
}
