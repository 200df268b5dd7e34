package org.divvy.processor;

import java.util.ArrayList;
import java.util.List;

import javax.lang.model.element.Modifier;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;

/**
 * Generates {@code FibJobs}: one job class per spawnable method (its receiver and arguments, the call,
 * the guard, and the argument codec), and the {@code JobTypeProvider} that lets every node decode them.
 */
final class JobsGenerator {
    private final Model.SpawnableClass model;
    private final ClassName receiverCodec;
    private final List<WireType.Component> receiverFields;
    private final CodecEmitter emitter = new CodecEmitter();

    private JobsGenerator(final Model.SpawnableClass model, final Model.CodecClass receiver) {
        this.model = model;
        this.receiverCodec = receiver.codec();
        this.receiverFields = receiver.fields();
    }

    static TypeSpec generate(final Model.SpawnableClass model, final Model.CodecClass receiver) {
        return new JobsGenerator(model, receiver).build();
    }

    private TypeSpec build() {
        final TypeSpec.Builder jobs = TypeSpec.classBuilder(model.jobs())
            .addAnnotation(Generated.ANNOTATION)
            .addJavadoc("The jobs of {@link $T}'s spawnable methods; found by nodes through {@code ServiceLoader}.\n",
                model.className())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addSuperinterface(Generated.JOB_TYPE_PROVIDER)
            .addOriginatingElement(model.element())
            .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC).build());
        final List<CodeBlock> types = new ArrayList<>();
        for (final Model.SpawnableMethod method : model.methods()) {
            jobs.addType(job(method));
            types.add(CodeBlock.of("$N.TYPE", method.jobClassName()));
        }
        jobs.addMethod(MethodSpec.methodBuilder("jobTypes")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(ParameterizedTypeName.get(ClassName.get(List.class), Generated.JOB_TYPE))
            .addStatement("return $T.of($L)", List.class, CodeBlock.join(types, ", "))
            .build());
        if (!model.exceptions().isEmpty()) {
            ExceptionsGenerator.addTo(jobs, model.exceptions());
        }
        jobs.addMethods(emitter.helpers());
        jobs.addFields(emitter.nestedCodecs());
        return jobs.build();
    }

    private TypeSpec job(final Model.SpawnableMethod method) {
        final ClassName jobClass = model.jobs().nestedClass(method.jobClassName());
        final TypeSpec.Builder job = TypeSpec.classBuilder(jobClass)
            .addModifiers(Modifier.STATIC, Modifier.FINAL)
            .superclass(SpawnerGenerator.jobSuperclass(method))
            .addField(jobType(method, jobClass))
            .addField(model.className(), "receiver", Modifier.FINAL);
        final MethodSpec.Builder constructor = MethodSpec.constructorBuilder()
            .addParameter(model.className(), "receiver")
            .addStatement("this.receiver = receiver");
        final List<CodeBlock> arguments = new ArrayList<>();
        for (final Model.Parameter parameter : method.parameters()) {
            job.addField(parameter.typeName(), parameter.fieldName(), Modifier.FINAL);
            constructor.addParameter(parameter.typeName(), parameter.fieldName())
                .addStatement("this.$N = $N", parameter.fieldName(), parameter.fieldName());
            arguments.add(CodeBlock.of("$N", parameter.fieldName()));
        }
        final CodeBlock argumentList = CodeBlock.join(arguments, ", ");
        job.addMethod(constructor.build());

        job.addMethod(MethodSpec.methodBuilder("type")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Generated.JOB_TYPE)
            .addStatement("return TYPE")
            .build());

        final MethodSpec.Builder encode = MethodSpec.methodBuilder("encodeArguments")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addParameter(CodecEmitter.WIRE_WRITER, "writer")
            .addStatement("$T.write(writer, receiver)", receiverCodec);
        for (final Model.Parameter parameter : method.parameters()) {
            if (parameter.type() instanceof WireType.SharedObject) {
                encode.addStatement("$T.write(writer, $N, $S)", SharedObjectGenerator.SHARED_OBJECTS, parameter.fieldName(),
                    parameter.name());
            } else {
                encode.addCode(emitter.write(parameter.type(), "writer", CodeBlock.of("$N", parameter.fieldName())));
            }
        }
        job.addMethod(encode.build());

        final TypeName returnType = method.result() == null ? TypeName.VOID : method.result().typeName();
        final MethodSpec.Builder call = MethodSpec.methodBuilder("call")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PROTECTED)
            .addException(Throwable.class)
            .returns(returnType);
        if (method.result() == null) {
            call.addStatement("receiver.$N($L)", method.name(), argumentList);
        } else {
            call.addStatement("return receiver.$N($L)", method.name(), argumentList);
        }
        job.addMethod(call.build());

        SharedObjectGenerator.addSharedObjects(job, method);
        if (method.guard() != null) {
            job.addMethod(MethodSpec.methodBuilder("guard")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PROTECTED)
                .returns(TypeName.BOOLEAN)
                .addStatement("return receiver.$N($L)", method.guard(), argumentList)
                .build());
        }

        if (method.result() != null && !SpawnableValidator.specialised(kindOf(method.returnType()))) {
            job.addMethod(MethodSpec.methodBuilder("writeValue")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PROTECTED)
                .addParameter(CodecEmitter.WIRE_WRITER, "writer")
                .addParameter(returnType, "value")
                .addCode(emitter.write(method.result(), "writer", CodeBlock.of("value")))
                .build());
            job.addMethod(MethodSpec.methodBuilder("readValue")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PROTECTED)
                .addParameter(CodecEmitter.WIRE_READER, "reader")
                .returns(returnType)
                .addStatement("return $L", emitter.read(method.result(), "reader"))
                .build());
        }
        return job.build();
    }

    /** The job type: its name on the wire, and the decoder that reads what encodeArguments wrote. */
    private FieldSpec jobType(final Model.SpawnableMethod method, final ClassName jobClass) {
        final MethodSpec.Builder decode = MethodSpec.methodBuilder("decode")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Generated.JOB)
            .addParameter(CodecEmitter.WIRE_READER, "reader")
            .addStatement("final $T receiver = $T.read(reader)", model.className(), receiverCodec);
        final List<CodeBlock> arguments = new ArrayList<>();
        arguments.add(CodeBlock.of("receiver"));
        for (final Model.Parameter parameter : method.parameters()) {
            if (parameter.type() instanceof WireType.SharedObject shared) {
                decode.addStatement("final $T $N = $T.read(reader, $T.TYPE)", parameter.typeName(), parameter.fieldName(),
                    SharedObjectGenerator.SHARED_OBJECTS, Names.sharedReplica(shared.typeName()));
            } else {
                decode.addStatement("final $T $N = $L", parameter.typeName(), parameter.fieldName(),
                    emitter.read(parameter.type(), "reader"));
            }
            arguments.add(CodeBlock.of("$N", parameter.fieldName()));
        }
        decode.addStatement("return new $T($L)", jobClass, CodeBlock.join(arguments, ", "));
        final TypeSpec anonymous = TypeSpec.anonymousClassBuilder("")
            .addSuperinterface(Generated.JOB_TYPE)
            .addMethod(MethodSpec.methodBuilder("name")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(String.class)
                .addStatement("return $S", model.binaryName() + "#" + method.name())
                .build())
            .addMethod(MethodSpec.methodBuilder("wireSignature")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(String.class)
                .addStatement("return $S", WireSignature.of(model, method, receiverFields))
                .build())
            .addMethod(decode.build())
            .build();
        return FieldSpec.builder(Generated.JOB_TYPE, "TYPE", Modifier.STATIC, Modifier.FINAL)
            .initializer("$L", anonymous)
            .build();
    }

    private static javax.lang.model.type.TypeKind kindOf(final TypeName typeName) {
        final TypeName t = typeName.withoutAnnotations();
        if (t.equals(TypeName.LONG)) {
            return javax.lang.model.type.TypeKind.LONG;
        }
        if (t.equals(TypeName.INT)) {
            return javax.lang.model.type.TypeKind.INT;
        }
        if (t.equals(TypeName.DOUBLE)) {
            return javax.lang.model.type.TypeKind.DOUBLE;
        }
        if (t.equals(TypeName.BOOLEAN)) {
            return javax.lang.model.type.TypeKind.BOOLEAN;
        }
        return javax.lang.model.type.TypeKind.DECLARED;
    }
}
