package org.divvy.processor;

import javax.lang.model.element.Modifier;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;

/**
 * Generates {@code FooCodec} for a @Wire class or a receiver class: writes the sent fields in
 * declaration order, and reads them back into an instance made with the no-argument constructor.
 * The value itself is never null here; callers write a presence byte where a null can occur.
 */
final class CodecGenerator {
    private CodecGenerator() {
    }

    static TypeSpec generate(final Model.CodecClass model) {
        final CodecEmitter emitter = new CodecEmitter();
        final MethodSpec.Builder write = MethodSpec.methodBuilder("write")
            .addJavadoc("Writes the sent fields of {@code value}, which is not null.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .addParameter(CodecEmitter.WIRE_WRITER, "writer")
            .addParameter(model.className(), "value");
        final MethodSpec.Builder read = MethodSpec.methodBuilder("read")
            .addJavadoc("Reads a value written by {@link #write}; transient fields keep their initial values.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(model.className())
            .addParameter(CodecEmitter.WIRE_READER, "reader")
            .addStatement("final $T value = new $T()", model.className(), model.className());
        for (final WireType.Component field : model.fields()) {
            write.addCode(emitter.write(field.type(), "writer", CodeBlock.of("value.$N", field.name())));
            read.addStatement("value.$N = $L", field.name(), emitter.read(field.type(), "reader"));
        }
        read.addStatement("return value");
        return TypeSpec.classBuilder(model.codec())
            .addAnnotation(Generated.ANNOTATION)
            .addJavadoc("Sends {@link $T} field by field, without reflection.\n", model.className())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addOriginatingElement(model.element())
            .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build())
            .addMethod(write.build())
            .addMethod(read.build())
            .addMethods(emitter.helpers())
            .build();
    }
}
