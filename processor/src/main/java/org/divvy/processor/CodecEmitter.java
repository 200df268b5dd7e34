package org.divvy.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.lang.model.element.Modifier;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;

/**
 * Turns {@link WireType}s into code that writes and reads them, for one generated holder class (a
 * {@code *Jobs} or {@code *Codec}). Primitives and strings are single calls; every structural type
 * (box, enum, array, collection, map, record, @Wire class) gets a pair of private static helpers named
 * for the type ({@code writeIntArray2}, {@code readListOfString}), generated once per holder. A helper's
 * name is taken before its body is built, so recursive types produce recursive helpers, not endless code.
 *
 * <p>Readers pass each length the fewest bytes an element takes, and wrap every nested value in
 * {@code enter()}/{@code exit()}, so hostile input fails fast with {@code WireDecodeException}.
 */
final class CodecEmitter {
    static final ClassName WIRE_WRITER = ClassName.get("org.divvy.codegen", "WireWriter");
    static final ClassName WIRE_READER = ClassName.get("org.divvy.codegen", "WireReader");
    static final ClassName WIRE_DECODE_EXCEPTION = ClassName.get("org.divvy.codegen", "WireDecodeException");

    private final Map<String, String> baseNameByType = new HashMap<>();
    private final Set<String> baseNamesTaken = new HashSet<>();
    private final List<MethodSpec> helpers = new ArrayList<>();

    /** The helpers used so far, in the order first used. */
    List<MethodSpec> helpers() {
        return List.copyOf(helpers);
    }

    /** A statement writing {@code value} (an expression of type {@code type}) to {@code writer}. */
    CodeBlock write(final WireType type, final String writer, final CodeBlock value) {
        if (type instanceof WireType.Primitive p) {
            return CodeBlock.of("$N.write$L($L);\n", writer, Names.capitalize(p.kind()), value);
        }
        if (type instanceof WireType.Text) {
            return CodeBlock.of("$N.writeString($L);\n", writer, value);
        }
        return CodeBlock.of("write$L($N, $L);\n", helper(type), writer, value);
    }

    /** An expression reading a value of {@code type} from {@code reader}. */
    CodeBlock read(final WireType type, final String reader) {
        if (type instanceof WireType.Primitive p) {
            return CodeBlock.of("$N.read$L()", reader, Names.capitalize(p.kind()));
        }
        if (type instanceof WireType.Text) {
            return CodeBlock.of("$N.readString()", reader);
        }
        return CodeBlock.of("read$L($N)", helper(type), reader);
    }

    private String helper(final WireType type) {
        final String key = type.typeName().toString();
        final String existing = baseNameByType.get(key);
        if (existing != null) {
            return existing;
        }
        String base = baseName(type);
        for (int i = 2; baseNamesTaken.contains(base); i++) {
            base = baseName(type) + "_" + i;
        }
        baseNamesTaken.add(base);
        baseNameByType.put(key, base);
        final MethodSpec.Builder writer = MethodSpec.methodBuilder("write" + base)
            .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
            .addParameter(WIRE_WRITER, "writer")
            .addParameter(type.typeName(), "value");
        final MethodSpec.Builder reader = MethodSpec.methodBuilder("read" + base)
            .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
            .returns(type.typeName())
            .addParameter(WIRE_READER, "reader");
        if (type instanceof WireType.Boxed boxed) {
            nullable(writer, write(boxed.primitive(), "writer", CodeBlock.of("value")));
            reader.addStatement("if (!reader.readPresence()) return null")
                .addStatement("return $L", read(boxed.primitive(), "reader"));
        } else if (type instanceof WireType.Enumeration) {
            nullable(writer, CodeBlock.of("writer.writeInt(value.ordinal());\n"));
            reader.addStatement("if (!reader.readPresence()) return null")
                .addStatement("final $T[] constants = $T.values()", type.typeName(), type.typeName())
                .addStatement("return constants[reader.readOrdinal(constants.length)]");
        } else if (type instanceof WireType.Array array) {
            array(writer, reader, array);
        } else if (type instanceof WireType.Collection collection) {
            collection(writer, reader, collection);
        } else if (type instanceof WireType.MapType map) {
            map(writer, reader, map);
        } else if (type instanceof WireType.RecordType record) {
            record(writer, reader, record);
        } else if (type instanceof WireType.WireClass wireClass) {
            nullable(writer, CodeBlock.of("$T.write(writer, value);\n", wireClass.codec()));
            reader.addStatement("if (!reader.readPresence()) return null")
                .addStatement("reader.enter()")
                .addStatement("final $T value = $T.read(reader)", type.typeName(), wireClass.codec())
                .addStatement("reader.exit()")
                .addStatement("return value");
        } else {
            throw new IllegalStateException("no codec for " + type);
        }
        helpers.add(writer.build());
        helpers.add(reader.build());
        return base;
    }

    private static void nullable(final MethodSpec.Builder writer, final CodeBlock writeValue) {
        writer.addStatement("writer.writePresence(value != null)")
            .beginControlFlow("if (value != null)")
            .addCode(writeValue)
            .endControlFlow();
    }

    private static void lengthOrNull(final MethodSpec.Builder writer, final String size) {
        writer.beginControlFlow("if (value == null)")
            .addStatement("writer.writeLength($T.NULL_LENGTH)", WIRE_WRITER)
            .addStatement("return")
            .endControlFlow()
            .addStatement("writer.writeLength(value.$L)", size);
    }

    private static void readLength(final MethodSpec.Builder reader, final int minBytesPerElement) {
        reader.addStatement("final int length = reader.readLength($L)", minBytesPerElement)
            .addStatement("if (length == $T.NULL_LENGTH) return null", WIRE_WRITER)
            .addStatement("reader.enter()");
    }

    private void array(final MethodSpec.Builder writer, final MethodSpec.Builder reader, final WireType.Array array) {
        lengthOrNull(writer, "length");
        writer.beginControlFlow("for (final $T element : value)", array.component().typeName())
            .addCode(write(array.component(), "writer", CodeBlock.of("element")))
            .endControlFlow();

        readLength(reader, array.component().minEncodedBytes());
        // new T[length][]...: generic element types are created raw (Java forbids generic array creation).
        TypeName innermost = array.component().typeName();
        int extraDimensions = 0;
        while (innermost instanceof ArrayTypeName arrayTypeName) {
            innermost = arrayTypeName.componentType();
            extraDimensions++;
        }
        final String dimensions = "[]".repeat(extraDimensions);
        if (innermost instanceof ParameterizedTypeName parameterized) {
            reader.addAnnotation(AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "{$S, $S}", "unchecked", "rawtypes").build());
            reader.addStatement("final $T value = ($T)new $T[length]$L", array.typeName(), array.typeName(),
                parameterized.rawType(), dimensions);
        } else {
            reader.addStatement("final $T value = new $T[length]$L", array.typeName(), innermost, dimensions);
        }
        reader.beginControlFlow("for (int i = 0; i < length; i++)")
            .addStatement("value[i] = $L", read(array.component(), "reader"))
            .endControlFlow()
            .addStatement("reader.exit()")
            .addStatement("return value");
    }

    private void collection(final MethodSpec.Builder writer, final MethodSpec.Builder reader, final WireType.Collection collection) {
        lengthOrNull(writer, "size()");
        writer.beginControlFlow("for (final $T element : value)", collection.element().typeName())
            .addCode(write(collection.element(), "writer", CodeBlock.of("element")))
            .endControlFlow();

        readLength(reader, collection.element().minEncodedBytes());
        reader.addStatement("final $T value = new $T<>($L)", collection.typeName(), collection.decodedAs(), capacity(collection.decodedAs()))
            .beginControlFlow("for (int i = 0; i < length; i++)");
        if (sorted(collection.decodedAs())) {
            reader.addStatement("final $T element = $L", collection.element().typeName(), read(collection.element(), "reader"));
            rejectNull(reader, "element", collection.decodedAs());
            reader.addStatement("value.add(element)");
        } else {
            reader.addStatement("value.add($L)", read(collection.element(), "reader"));
        }
        reader.endControlFlow()
            .addStatement("reader.exit()")
            .addStatement("return value");
    }

    private void map(final MethodSpec.Builder writer, final MethodSpec.Builder reader, final WireType.MapType map) {
        lengthOrNull(writer, "size()");
        final TypeName entry = ParameterizedTypeName.get(
            ClassName.get("java.util", "Map", "Entry"), map.key().typeName(), map.value().typeName());
        writer.beginControlFlow("for (final $T entry : value.entrySet())", entry)
            .addCode(write(map.key(), "writer", CodeBlock.of("entry.getKey()")))
            .addCode(write(map.value(), "writer", CodeBlock.of("entry.getValue()")))
            .endControlFlow();

        readLength(reader, map.key().minEncodedBytes() + map.value().minEncodedBytes());
        reader.addStatement("final $T value = new $T<>($L)", map.typeName(), map.decodedAs(), capacity(map.decodedAs()))
            .beginControlFlow("for (int i = 0; i < length; i++)")
            .addStatement("final $T key = $L", map.key().typeName(), read(map.key(), "reader"));
        if (sorted(map.decodedAs())) {
            rejectNull(reader, "key", map.decodedAs());
        }
        reader.addStatement("value.put(key, $L)", read(map.value(), "reader"))
            .endControlFlow()
            .addStatement("reader.exit()")
            .addStatement("return value");
    }

    private static boolean sorted(final ClassName decodedAs) {
        return decodedAs.simpleName().startsWith("Tree");
    }

    /** A sorted collection cannot hold null, so a null there means corrupted bytes, not a value to throw NPE on. */
    private static void rejectNull(final MethodSpec.Builder reader, final String local, final ClassName decodedAs) {
        reader.beginControlFlow("if ($N == null)", local)
            .addStatement("throw new $T($S + reader.position())", WIRE_DECODE_EXCEPTION,
                "null " + local + " of a " + decodedAs.simpleName() + " at offset ")
            .endControlFlow();
    }

    /** Sized constructors where the class has one, so decoding a large collection does not rehash or regrow. */
    private static String capacity(final ClassName decodedAs) {
        return switch (decodedAs.simpleName()) {
            case "ArrayList", "HashSet", "LinkedHashSet", "HashMap", "LinkedHashMap" -> "length";
            default -> "";
        };
    }

    private void record(final MethodSpec.Builder writer, final MethodSpec.Builder reader, final WireType.RecordType record) {
        final CodeBlock.Builder writeComponents = CodeBlock.builder();
        for (final WireType.Component component : record.components()) {
            writeComponents.add(write(component.type(), "writer", CodeBlock.of("value.$N()", component.name())));
        }
        nullable(writer, writeComponents.build());

        reader.addStatement("if (!reader.readPresence()) return null")
            .addStatement("reader.enter()");
        final List<String> locals = new ArrayList<>(List.of("reader"));
        final List<CodeBlock> arguments = new ArrayList<>();
        for (final WireType.Component component : record.components()) {
            final String local = Names.avoid(component.name(), locals);
            locals.add(local);
            reader.addStatement("final $T $N = $L", component.type().typeName(), local, read(component.type(), "reader"));
            arguments.add(CodeBlock.of("$N", local));
        }
        reader.addStatement("reader.exit()")
            .addStatement("return new $T($L)", record.typeName(), CodeBlock.join(arguments, ", "));
    }

    /** The part of a helper's name that names the type: {@code IntArray2}, {@code ListOfString}, {@code MapOfStringToPoint}. */
    static String baseName(final WireType type) {
        if (type instanceof WireType.Primitive p) {
            return Names.capitalize(p.kind());
        }
        if (type instanceof WireType.Array) {
            WireType innermost = type;
            int dimensions = 0;
            while (innermost instanceof WireType.Array a) {
                innermost = a.component();
                dimensions++;
            }
            return baseName(innermost) + "Array" + (dimensions > 1 ? String.valueOf(dimensions) : "");
        }
        if (type instanceof WireType.Collection c) {
            return rawSimpleName(c.typeName()) + "Of" + baseName(c.element());
        }
        if (type instanceof WireType.MapType m) {
            return rawSimpleName(m.typeName()) + "Of" + baseName(m.key()) + "To" + baseName(m.value());
        }
        return String.join("", ((ClassName)rawType(type.typeName())).simpleNames());
    }

    private static TypeName rawType(final TypeName typeName) {
        return typeName instanceof ParameterizedTypeName p ? p.rawType() : typeName.withoutAnnotations();
    }

    private static String rawSimpleName(final TypeName typeName) {
        return ((ClassName)rawType(typeName)).simpleName();
    }
}
