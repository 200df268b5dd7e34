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
        final WireType.WireClass self = new WireType.WireClass(model.className(), model.codec(), model.fields());
        if (emitter.graph().recursive(self)) {
            return recursive(model, emitter, self);
        }
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
            .addFields(emitter.nestedCodecs())
            .build();
    }

    /**
     * A class that reaches itself (a linked node, a tree node): its codec is a {@code NestedCodec}, public as
     * {@code NESTED} for the codecs of other holders, run on the writer's and reader's work stack. Its
     * instances carry reference tags, so shared nodes and cycles keep their shape; {@code write}/{@code read}
     * write and read one, tag included.
     */
    private static TypeSpec recursive(final Model.CodecClass model, final CodecEmitter emitter, final WireType.WireClass self) {
        final com.palantir.javapoet.FieldSpec nested = com.palantir.javapoet.FieldSpec.builder(CodecEmitter.nestedCodecType(self),
                CodecEmitter.WIRE_CLASS_NESTED, Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("Writes and reads {@link $T} graphs step by step on the writer's and reader's work stack.\n", model.className())
            .initializer("$L", emitter.nestedCodecBody(self))
            .build();
        final MethodSpec write = MethodSpec.methodBuilder("write")
            .addJavadoc("Writes {@code value}, which is not null, and every object it reaches.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .addParameter(CodecEmitter.WIRE_WRITER, "writer")
            .addParameter(model.className(), "value")
            .addStatement("writer.writeNested($N, value)", nested)
            .build();
        final MethodSpec read = MethodSpec.methodBuilder("read")
            .addJavadoc("Reads a value written by {@link #write}; transient fields keep their initial values.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(model.className())
            .addParameter(CodecEmitter.WIRE_READER, "reader")
            .addStatement("final $T value = reader.readNested($N)", model.className(), nested)
            .beginControlFlow("if (value == null)")
            .addStatement("throw new $T($S + reader.position())", CodecEmitter.WIRE_DECODE_EXCEPTION,
                "null " + model.className().simpleName() + " where a value belongs, at offset ")
            .endControlFlow()
            .addStatement("return value")
            .build();
        return TypeSpec.classBuilder(model.codec())
            .addAnnotation(Generated.ANNOTATION)
            .addJavadoc("Sends {@link $T} graphs (shared nodes and cycles included) field by field, without reflection or recursion.\n",
                model.className())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addOriginatingElement(model.element())
            .addField(nested)
            .addFields(emitter.nestedCodecs())
            .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build())
            .addMethod(write)
            .addMethod(read)
            .addMethods(emitter.helpers())
            .build();
    }
}
