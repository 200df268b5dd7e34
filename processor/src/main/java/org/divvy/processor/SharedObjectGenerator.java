package org.divvy.processor;

import java.util.ArrayList;
import java.util.List;

import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;

/**
 * Generates {@code BoundShared}, the replica subclass of a @SharedObject class {@code Bound}, which users
 * create instead of {@code Bound}: it mirrors the constructors, ships every @Write call (write lock, apply
 * through {@code super}, encode the method id and arguments for the other replicas), holds the read lock
 * around every other overridable method, and carries the {@code SharedObjectType} that makes, sends,
 * receives and applies writes to replicas on other nodes, without reflection.
 */
final class SharedObjectGenerator {
    static final ClassName REPLICA_CORE = ClassName.get("org.divvy.codegen", "ReplicaCore");
    static final ClassName SHARED_REPLICA = ClassName.get("org.divvy.codegen", "SharedReplica");
    static final ClassName SHARED_OBJECT_TYPE = ClassName.get("org.divvy.codegen", "SharedObjectType");
    static final ClassName SHARED_OBJECTS = ClassName.get("org.divvy.codegen", "SharedObjects");
    private static final String CORE = "divvyReplica";
    private static final String APPLY = "divvyApply";

    private final Model.SharedClass model;
    private final CodecEmitter emitter = new CodecEmitter();

    private SharedObjectGenerator(final Model.SharedClass model) {
        this.model = model;
    }

    static TypeSpec generate(final Model.SharedClass model) {
        return new SharedObjectGenerator(model).build();
    }

    private TypeSpec build() {
        final ClassName replica = model.replica();
        final TypeSpec.Builder type = TypeSpec.classBuilder(replica)
            .addAnnotation(Generated.ANNOTATION)
            .addJavadoc("A replica of {@link $T}: create this class instead of {@code $L}. Calls of @Write methods are shipped to\n"
                + "every other replica; every other method runs on this replica under its read lock.\n", model.className(),
                model.className().simpleName())
            .addModifiers(Modifier.PUBLIC)
            .superclass(model.className())
            .addSuperinterface(SHARED_REPLICA)
            .addOriginatingElement(model.element())
            .addField(FieldSpec.builder(ParameterizedTypeName.get(SHARED_OBJECT_TYPE, replica), "TYPE",
                    Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
                .addJavadoc("How nodes make, send, receive and update replicas of {@code $L}.\n", model.className().simpleName())
                .initializer("$L", objectType())
                .build())
            .addField(FieldSpec.builder(REPLICA_CORE, CORE, Modifier.PRIVATE, Modifier.FINAL)
                .addJavadoc("Null only while {@code $L}'s own constructor runs: calls made from it are plain calls.\n",
                    model.className().simpleName())
                .initializer("new $T(TYPE, this)", REPLICA_CORE)
                .build());
        for (final ExecutableElement constructor : model.constructors()) {
            type.addMethod(constructor(constructor));
        }
        type.addMethod(MethodSpec.methodBuilder(CORE)
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(REPLICA_CORE)
            .addStatement("return $N", CORE)
            .build());
        for (int id = 0; id < model.writes().size(); id++) {
            type.addMethod(write(model.writes().get(id), id));
        }
        for (final ExecutableElement read : model.reads()) {
            type.addMethod(read(read));
        }
        type.addMethod(apply());
        type.addMethods(emitter.helpers());
        type.addFields(emitter.nestedCodecs());
        return type.build();
    }

    private static MethodSpec constructor(final ExecutableElement constructor) {
        final MethodSpec.Builder builder = MethodSpec.constructorBuilder();
        for (final Modifier modifier : constructor.getModifiers()) {
            if (modifier == Modifier.PUBLIC || modifier == Modifier.PROTECTED) {
                builder.addModifiers(modifier);
            }
        }
        final List<CodeBlock> arguments = new ArrayList<>();
        for (final VariableElement parameter : constructor.getParameters()) {
            builder.addParameter(ParameterSpec.get(parameter));
            arguments.add(CodeBlock.of("$N", parameter.getSimpleName().toString()));
        }
        builder.varargs(constructor.isVarArgs());
        for (final javax.lang.model.type.TypeMirror thrown : constructor.getThrownTypes()) {
            builder.addException(TypeName.get(thrown));
        }
        return builder.addStatement("super($L)", CodeBlock.join(arguments, ", ")).build();
    }

    private static CodeBlock arguments(final ExecutableElement method) {
        final List<CodeBlock> arguments = new ArrayList<>();
        for (final VariableElement parameter : method.getParameters()) {
            arguments.add(CodeBlock.of("$N", parameter.getSimpleName().toString()));
        }
        return CodeBlock.join(arguments, ", ");
    }

    /** Write lock, apply through super, then ship the outermost call of this thread. */
    private MethodSpec write(final Model.WriteMethod write, final int id) {
        final ExecutableElement method = write.element();
        final String name = method.getSimpleName().toString();
        final CodeBlock arguments = arguments(method);
        final MethodSpec.Builder builder = MethodSpec.overriding(method)
            .addStatement("final $T core = $N", REPLICA_CORE, CORE)
            .beginControlFlow("if (core == null)")
            .addStatement("super.$N($L)", name, arguments)
            .addStatement("return")
            .endControlFlow()
            .addStatement("core.writeLock()")
            .beginControlFlow("try")
            .addStatement("super.$N($L)", name, arguments)
            .addStatement("final $T writer = core.beginShip($L)", CodecEmitter.WIRE_WRITER, id)
            .beginControlFlow("if (writer != null)")
            .addStatement("boolean complete = false")
            .beginControlFlow("try");
        for (int i = 0; i < method.getParameters().size(); i++) {
            builder.addCode(emitter.write(write.parameterTypes().get(i), "writer",
                CodeBlock.of("$N", method.getParameters().get(i).getSimpleName().toString())));
        }
        return builder.addStatement("complete = true")
            .nextControlFlow("finally")
            .addStatement("core.endShip(writer, complete)")
            .endControlFlow()
            .endControlFlow()
            .nextControlFlow("finally")
            .addStatement("core.writeUnlock()")
            .endControlFlow()
            .build();
    }

    private static MethodSpec read(final ExecutableElement method) {
        final String name = method.getSimpleName().toString();
        final boolean returns = method.getReturnType().getKind() != TypeKind.VOID;
        final CodeBlock call = CodeBlock.of(returns ? "return super.$N($L)" : "super.$N($L)", name, arguments(method));
        final MethodSpec.Builder builder = MethodSpec.overriding(method)
            .addStatement("final $T core = $N", REPLICA_CORE, CORE)
            .beginControlFlow("if (core == null)")
            .addStatement(call);
        if (!returns) {
            builder.addStatement("return");
        }
        return builder.endControlFlow()
            .addStatement("final int token = core.readLock()")
            .beginControlFlow("try")
            .addStatement(call)
            .nextControlFlow("finally")
            .addStatement("core.readUnlock(token)")
            .endControlFlow()
            .build();
    }

    /** The dispatch of shipped writes: method id to {@code super}'s method, so the call is not shipped again. */
    private MethodSpec apply() {
        final MethodSpec.Builder builder = MethodSpec.methodBuilder(APPLY)
            .addModifiers(Modifier.PRIVATE)
            .addParameter(TypeName.INT, "methodId")
            .addParameter(CodecEmitter.WIRE_READER, "reader")
            .beginControlFlow("switch (methodId)");
        for (int id = 0; id < model.writes().size(); id++) {
            final Model.WriteMethod write = model.writes().get(id);
            final ExecutableElement method = write.element();
            builder.beginControlFlow("case $L:", id);
            final List<CodeBlock> arguments = new ArrayList<>();
            for (int i = 0; i < method.getParameters().size(); i++) {
                final VariableElement parameter = method.getParameters().get(i);
                builder.addStatement("final $T a$L = $L", TypeName.get(parameter.asType()), i,
                    emitter.read(write.parameterTypes().get(i), "reader"));
                arguments.add(CodeBlock.of("a$L", i));
            }
            builder.addStatement("super.$N($L)", method.getSimpleName().toString(), CodeBlock.join(arguments, ", "))
                .addStatement("return")
                .endControlFlow();
        }
        return builder.beginControlFlow("default:")
            .addStatement("throw new $T($S + methodId)", CodecEmitter.WIRE_DECODE_EXCEPTION,
                "no write method of " + model.className().simpleName() + " has id ")
            .endControlFlow()
            .endControlFlow()
            .build();
    }

    /** A job's shared objects, for the runtime to wait for their replicas and fetch fresh ones when its guard fails. */
    static void addSharedObjects(final TypeSpec.Builder job, final Model.SpawnableMethod method) {
        final List<CodeBlock> shared = new ArrayList<>();
        for (final Model.Parameter parameter : method.parameters()) {
            if (parameter.type() instanceof WireType.SharedObject) {
                shared.add(CodeBlock.of("$N", parameter.fieldName()));
            }
        }
        if (shared.isEmpty()) {
            return;
        }
        job.addMethod(MethodSpec.methodBuilder("sharedObjects")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Object[].class)
            .addStatement("return new Object[] {$L}", CodeBlock.join(shared, ", "))
            .build());
    }

    private TypeSpec objectType() {
        final ClassName replica = model.replica();
        final MethodSpec.Builder writeState = MethodSpec.methodBuilder("writeState")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addParameter(CodecEmitter.WIRE_WRITER, "writer")
            .addParameter(replica, "value");
        final MethodSpec.Builder readState = MethodSpec.methodBuilder("readState")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addParameter(CodecEmitter.WIRE_READER, "reader")
            .addParameter(replica, "value");
        for (final WireType.Component field : model.fields()) {
            writeState.addCode(emitter.write(field.type(), "writer", CodeBlock.of("value.$N", field.name())));
            readState.addStatement("value.$N = $L", field.name(), emitter.read(field.type(), "reader"));
        }
        final MethodSpec.Builder writeName = MethodSpec.methodBuilder("writeName")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(String.class)
            .addParameter(TypeName.INT, "methodId")
            .beginControlFlow("switch (methodId)");
        for (int id = 0; id < model.writes().size(); id++) {
            writeName.addStatement("case $L: return $S", id, model.writes().get(id).element().getSimpleName().toString());
        }
        writeName.addStatement("default: return $S + methodId", "#").endControlFlow();
        return TypeSpec.anonymousClassBuilder("")
            .superclass(ParameterizedTypeName.get(SHARED_OBJECT_TYPE, replica))
            .addMethod(MethodSpec.methodBuilder("name")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(String.class)
                .addStatement("return $S", model.binaryName())
                .build())
            .addMethod(MethodSpec.methodBuilder("newReplica")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(replica)
                .addStatement("return new $T()", replica)
                .build())
            .addMethod(writeState.build())
            .addMethod(readState.build())
            .addMethod(MethodSpec.methodBuilder("apply")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .addParameter(replica, "replica")
                .addParameter(TypeName.INT, "methodId")
                .addParameter(CodecEmitter.WIRE_READER, "arguments")
                .addStatement("replica.$N(methodId, arguments)", APPLY)
                .build())
            .addMethod(writeName.build())
            .build();
    }
}
