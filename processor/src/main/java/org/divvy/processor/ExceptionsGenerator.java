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
 * Generates the {@code ExceptionType}s that rebuild user exception classes at {@code sync()}: listed by a
 * {@code *Jobs} class for the exceptions its spawnables declare, and by a {@code *Codec} provider of its own
 * for an exception class marked {@code @Wire}. Plain constructor calls, no reflection.
 */
final class ExceptionsGenerator {
    static final ClassName EXCEPTION_TYPE = ClassName.get("org.divvy.codegen", "ExceptionType");
    private static final String FIELD = "EXCEPTION_TYPES";

    private ExceptionsGenerator() {
    }

    /** Adds the list of exception types and the {@code exceptionTypes()} override to a provider. */
    static void addTo(final TypeSpec.Builder provider, final List<Model.RemoteException> exceptions) {
        final List<CodeBlock> types = new ArrayList<>();
        for (final Model.RemoteException exception : exceptions) {
            types.add(CodeBlock.of("$L", exceptionType(exception)));
        }
        final TypeName list = ParameterizedTypeName.get(ClassName.get(List.class), EXCEPTION_TYPE);
        provider.addField(FieldSpec.builder(list, FIELD, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer("$T.of(\n$>$L$<)", List.class, CodeBlock.join(types, ",\n"))
            .build());
        provider.addMethod(MethodSpec.methodBuilder("exceptionTypes")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(list)
            .addStatement("return $N", FIELD)
            .build());
    }

    private static TypeSpec exceptionType(final Model.RemoteException exception) {
        final MethodSpec.Builder rebuild = MethodSpec.methodBuilder("rebuild")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Throwable.class)
            .addParameter(String.class, "message")
            .addParameter(Throwable.class, "cause");
        if (exception.withCause()) {
            rebuild.addStatement("return new $T(message, cause)", exception.className());
        } else {
            rebuild.addStatement("return new $T(message)", exception.className());
        }
        return TypeSpec.anonymousClassBuilder("")
            .addSuperinterface(EXCEPTION_TYPE)
            .addMethod(MethodSpec.methodBuilder("className")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(String.class)
                .addStatement("return $S", exception.binaryName())
                .build())
            .addMethod(rebuild.build())
            .build();
    }

    /** {@code FooCodec} for a @Wire exception class {@code Foo}: a provider of no jobs and this one exception type. */
    static TypeSpec codec(final Model.RemoteException exception) {
        final TypeSpec.Builder codec = TypeSpec.classBuilder(Names.codec(exception.element()))
            .addAnnotation(Generated.ANNOTATION)
            .addJavadoc("Rebuilds {@link $T} at {@code sync()} when a child on another node threw it; found through {@code ServiceLoader}.\n",
                exception.className())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addSuperinterface(Generated.JOB_TYPE_PROVIDER)
            .addOriginatingElement(exception.element())
            .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC).build())
            .addMethod(MethodSpec.methodBuilder("jobTypes")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(ParameterizedTypeName.get(ClassName.get(List.class), Generated.JOB_TYPE))
                .addStatement("return $T.of()", List.class)
                .build());
        addTo(codec, List.of(exception));
        return codec.build();
    }
}
