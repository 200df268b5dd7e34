package org.divvy.processor;

import javax.lang.model.element.Modifier;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;

/**
 * Generates {@code FibSpawner}: the interface the user's class implements, with one default spawn stub
 * per spawnable method. A stub builds the job and hands it to the scheduler; it declares no checked
 * exceptions, because the method's exceptions surface at {@code sync()}.
 */
final class SpawnerGenerator {
    private SpawnerGenerator() {
    }

    static TypeSpec generate(final Model.SpawnableClass model) {
        final TypeSpec.Builder spawner = TypeSpec.interfaceBuilder(model.spawner())
            .addAnnotation(Generated.ANNOTATION)
            .addJavadoc("Spawn stubs for {@link $T}, which implements this interface.\n", model.className())
            .addSuperinterface(Generated.SPAWNER)
            .addOriginatingElement(model.element());
        if (model.isPublic()) {
            spawner.addModifiers(Modifier.PUBLIC);
        }
        for (final Model.SpawnableMethod method : model.methods()) {
            final MethodSpec.Builder stub = MethodSpec.methodBuilder(method.stubName())
                .addModifiers(Modifier.PUBLIC, Modifier.DEFAULT)
                .varargs(method.isVarArgs())
                .returns(handleType(method));
            final CodeBlock.Builder arguments = CodeBlock.builder().add("($T)this", model.className());
            for (final Model.Parameter parameter : method.parameters()) {
                stub.addParameter(parameter.typeName(), parameter.name());
                arguments.add(", $N", parameter.name());
            }
            stub.addStatement("return $T.spawn(new $T($L))", Generated.SPAWNS,
                model.jobs().nestedClass(method.jobClassName()), arguments.build());
            spawner.addMethod(stub.build());
        }
        return spawner.build();
    }

    /** LongSpawn, IntSpawn, DoubleSpawn, BooleanSpawn, VoidSpawn, or Spawn of the boxed result. */
    static TypeName handleType(final Model.SpawnableMethod method) {
        final TypeName returnType = method.returnType().withoutAnnotations();
        if (returnType.equals(TypeName.VOID)) {
            return ClassName.get("org.divvy", "VoidSpawn");
        }
        final String specialised = specialisedPrefix(returnType);
        if (specialised != null) {
            return ClassName.get("org.divvy", specialised + "Spawn");
        }
        return ParameterizedTypeName.get(ClassName.get("org.divvy", "Spawn"), returnType.box());
    }

    /** The superclass of the method's job: LongJob ... VoidJob, or ObjectJob of the boxed result. */
    static TypeName jobSuperclass(final Model.SpawnableMethod method) {
        final TypeName returnType = method.returnType().withoutAnnotations();
        if (returnType.equals(TypeName.VOID)) {
            return ClassName.get("org.divvy.codegen", "VoidJob");
        }
        final String specialised = specialisedPrefix(returnType);
        if (specialised != null) {
            return ClassName.get("org.divvy.codegen", specialised + "Job");
        }
        return ParameterizedTypeName.get(ClassName.get("org.divvy.codegen", "ObjectJob"), returnType.box());
    }

    private static String specialisedPrefix(final TypeName returnType) {
        if (returnType.equals(TypeName.LONG)) {
            return "Long";
        }
        if (returnType.equals(TypeName.INT)) {
            return "Int";
        }
        if (returnType.equals(TypeName.DOUBLE)) {
            return "Double";
        }
        if (returnType.equals(TypeName.BOOLEAN)) {
            return "Boolean";
        }
        return null;
    }
}
