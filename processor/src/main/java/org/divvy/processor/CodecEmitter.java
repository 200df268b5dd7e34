package org.divvy.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import javax.lang.model.element.Modifier;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;

/**
 * Turns {@link WireType}s into code that writes and reads them, for one generated holder class (a
 * {@code *Jobs} or {@code *Codec}). Primitives and strings are single calls; every structural type
 * (box, enum, array, collection, map, record, @Wire class) gets a pair of private static helpers named
 * for the type ({@code writeIntArray2}, {@code readListOfString}), generated once per holder. A helper's
 * name is taken before its body is built, so a type that refers to itself produces finite code.
 *
 * <p>Helpers of types that cannot reach themselves are plain code and call each other, which nests only
 * as deep as the declarations do. A type that reaches itself ({@link TypeGraph#recursive}) gets a
 * {@code NestedCodec} instead, a step machine run on the writer's and reader's work stack, so a linked
 * list of a million nodes never overflows a thread's stack; its mutable members ({@link TypeGraph#tracked})
 * carry reference tags, so shared objects and cycles keep their shape. Readers pass each length the fewest
 * bytes an element takes, so hostile input fails fast with {@code WireDecodeException}.
 */
final class CodecEmitter {
    static final ClassName WIRE_WRITER = ClassName.get("org.divvy.codegen", "WireWriter");
    static final ClassName WIRE_READER = ClassName.get("org.divvy.codegen", "WireReader");
    static final ClassName WIRE_DECODE_EXCEPTION = ClassName.get("org.divvy.codegen", "WireDecodeException");
    static final ClassName NESTED_CODEC = ClassName.get("org.divvy.codegen", "NestedCodec");
    /** The public field of a recursive @Wire class's codec holding its {@code NestedCodec}. */
    static final String WIRE_CLASS_NESTED = "NESTED";

    private final Map<String, String> baseNameByType = new HashMap<>();
    private final Set<String> baseNamesTaken = new HashSet<>();
    private final List<MethodSpec> helpers = new ArrayList<>();
    private final List<FieldSpec> nestedCodecs = new ArrayList<>();
    private final TypeGraph graph = new TypeGraph();

    /** The helpers used so far, in the order first used. */
    List<MethodSpec> helpers() {
        return List.copyOf(helpers);
    }

    /** The {@code NestedCodec} fields of recursive types used so far. */
    List<FieldSpec> nestedCodecs() {
        return List.copyOf(nestedCodecs);
    }

    TypeGraph graph() {
        return graph;
    }

    /** The fewest bytes one encoded value of {@code type} takes here: a tracked value may be a 1-byte tag. */
    int minBytes(final WireType type) {
        return graph.tracked(type) ? 1 : type.minEncodedBytes();
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
        if (graph.recursive(type)) {
            final CodeBlock nested = nestedCodec(type, base);
            writer.addStatement("writer.writeNested($L, value)", nested);
            reader.addStatement("return reader.readNested($L)", nested);
        } else if (type instanceof WireType.Boxed boxed) {
            nullable(writer, write(boxed.primitive(), "writer", CodeBlock.of("value")));
            reader.addStatement("if (!reader.readPresence()) return null")
                .addStatement("return $L", read(boxed.primitive(), "reader"));
        } else if (type instanceof WireType.OptionalType optional) {
            final CodeBlock writeValue = CodeBlock.builder()
                .addStatement("writer.writePresence(value.isPresent())")
                .beginControlFlow("if (value.isPresent())")
                .add(write(optional.value(), "writer", CodeBlock.of("value.get()")))
                .endControlFlow().build();
            nullable(writer, writeValue);
            reader.addStatement("if (!reader.readPresence()) return null")
                .addStatement("if (!reader.readPresence()) return $T.empty()", Optional.class)
                .addStatement("return $T.ofNullable($L)", Optional.class, read(optional.value(), "reader"));
        } else if (type instanceof WireType.JdkValue value) {
            nullable(writer, JdkValues.write(value.typeName()));
            reader.addStatement("if (!reader.readPresence()) return null")
                .addCode(JdkValues.read(value.typeName()));
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
                .addStatement("return $T.read(reader)", wireClass.codec());
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
            .addStatement("if (length == $T.NULL_LENGTH) return null", WIRE_WRITER);
    }

    private void array(final MethodSpec.Builder writer, final MethodSpec.Builder reader, final WireType.Array array) {
        lengthOrNull(writer, "length");
        writer.beginControlFlow("for (final $T element : value)", array.component().typeName())
            .addCode(write(array.component(), "writer", CodeBlock.of("element")))
            .endControlFlow();

        readLength(reader, minBytes(array.component()));
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
            .addStatement("return value");
    }

    private void collection(final MethodSpec.Builder writer, final MethodSpec.Builder reader, final WireType.Collection collection) {
        lengthOrNull(writer, "size()");
        writer.beginControlFlow("for (final $T element : value)", collection.element().typeName())
            .addCode(write(collection.element(), "writer", CodeBlock.of("element")))
            .endControlFlow();

        readLength(reader, minBytes(collection.element()));
        reader.addStatement("final $T value = $L", collection.typeName(), create(collection.decodedAs(), collection.element()))
            .beginControlFlow("for (int i = 0; i < length; i++)");
        if (holdsNoNull(collection.decodedAs())) {
            reader.addStatement("final $T element = $L", collection.element().typeName(), read(collection.element(), "reader"));
            rejectNull(reader, "element", collection.decodedAs());
            reader.addStatement("value.add(element)");
        } else {
            reader.addStatement("value.add($L)", read(collection.element(), "reader"));
        }
        reader.endControlFlow()
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

        readLength(reader, minBytes(map.key()) + minBytes(map.value()));
        reader.addStatement("final $T value = $L", map.typeName(), create(map.decodedAs(), map.key()))
            .beginControlFlow("for (int i = 0; i < length; i++)")
            .addStatement("final $T key = $L", map.key().typeName(), read(map.key(), "reader"));
        if (holdsNoNull(map.decodedAs())) {
            rejectNull(reader, "key", map.decodedAs());
        }
        reader.addStatement("value.put(key, $L)", read(map.value(), "reader"))
            .endControlFlow()
            .addStatement("return value");
    }

    /** Sorted and enum collections and maps hold no null elements or keys. */
    private static boolean holdsNoNull(final ClassName decodedAs) {
        return decodedAs.simpleName().startsWith("Tree") || decodedAs.simpleName().startsWith("Enum");
    }

    /** A new empty collection or map; an enum one needs its enum class ({@code first}: element or key). */
    private static CodeBlock create(final ClassName decodedAs, final WireType first) {
        return switch (decodedAs.simpleName()) {
            case "EnumSet" -> CodeBlock.of("$T.noneOf($T.class)", decodedAs, first.typeName());
            case "EnumMap" -> CodeBlock.of("new $T<>($T.class)", decodedAs, first.typeName());
            default -> CodeBlock.of("new $T<>($L)", decodedAs, capacity(decodedAs));
        };
    }

    /** A sorted or enum collection cannot hold null, so a null there means corrupted bytes, not a value to throw NPE on. */
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

        reader.addStatement("if (!reader.readPresence()) return null");
        final List<String> locals = new ArrayList<>(List.of("reader"));
        final List<CodeBlock> arguments = new ArrayList<>();
        for (final WireType.Component component : record.components()) {
            final String local = Names.avoid(component.name(), locals);
            locals.add(local);
            reader.addStatement("final $T $N = $L", component.type().typeName(), local, read(component.type(), "reader"));
            arguments.add(CodeBlock.of("$N", local));
        }
        reader.addStatement("return new $T($L)", record.typeName(), CodeBlock.join(arguments, ", "));
    }

    // ---- Recursive types: NestedCodec step machines -------------------------------------------------

    /** The NestedCodec of {@code type} (recursive), declared once: a field of this holder, or a @Wire class codec's. */
    private CodeBlock nestedCodec(final WireType type, final String base) {
        if (type instanceof WireType.WireClass wireClass) {
            return CodeBlock.of("$T.$N", wireClass.codec(), WIRE_CLASS_NESTED);
        }
        final String field = "NESTED_" + base;
        final TypeSpec body = nestedCodecBody(type);
        nestedCodecs.add(FieldSpec.builder(nestedCodecType(type), field, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .initializer("$L", body)
            .build());
        return CodeBlock.of("$N", field);
    }

    /** The NestedCodec a step pushes for a value of recursive type {@code type}. */
    private CodeBlock nestedRef(final WireType type) {
        final String base = helper(type);
        if (type instanceof WireType.WireClass wireClass) {
            return CodeBlock.of("$T.$N", wireClass.codec(), WIRE_CLASS_NESTED);
        }
        return CodeBlock.of("$N", "NESTED_" + base);
    }

    static TypeName nestedCodecType(final WireType type) {
        return ParameterizedTypeName.get(NESTED_CODEC, type.typeName());
    }

    /** The anonymous {@code NestedCodec} subclass writing and reading {@code type} step by step. */
    TypeSpec nestedCodecBody(final WireType type) {
        final MethodSpec.Builder write = MethodSpec.methodBuilder("writeStep")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(TypeName.INT)
            .addParameter(WIRE_WRITER, "writer")
            .addParameter(type.typeName(), "value")
            .addParameter(TypeName.INT, "step");
        final MethodSpec.Builder read = MethodSpec.methodBuilder("readStep")
            .addAnnotation(Override.class)
            .addAnnotation(AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "{$S, $S}", "unchecked", "rawtypes").build())
            .addModifiers(Modifier.PUBLIC)
            .returns(TypeName.INT)
            .addParameter(WIRE_READER, "reader")
            .addParameter(TypeName.INT, "step")
            .addParameter(ClassName.OBJECT, "child");
        if (type instanceof WireType.RecordType record) {
            structSteps(write, read, type, record.components(), true);
        } else if (type instanceof WireType.WireClass wireClass) {
            structSteps(write, read, type, wireClass.fields(), false);
        } else if (type instanceof WireType.Array array) {
            arraySteps(write, read, array);
        } else if (type instanceof WireType.Collection collection) {
            collectionSteps(write, read, collection);
        } else if (type instanceof WireType.MapType map) {
            mapSteps(write, read, map);
        } else {
            throw new IllegalStateException("no nested codec for " + type);
        }
        if (!(type instanceof WireType.RecordType || type instanceof WireType.WireClass)) {
            write.addAnnotation(AnnotationSpec.builder(SuppressWarnings.class).addMember("value", "$S", "unchecked").build());
        }
        return TypeSpec.anonymousClassBuilder("$S", TypeGraph.key(type))
            .superclass(nestedCodecType(type))
            .addMethod(write.build())
            .addMethod(read.build())
            .build();
    }

    /**
     * A record or @Wire class: its parts in order, split into steps at each part of a recursive type, which
     * is pushed. A record's parts wait in an Object[] until the last one, then the record is built; a @Wire
     * object is created first and registered, so references back to it from its own parts resolve.
     */
    private void structSteps(final MethodSpec.Builder write, final MethodSpec.Builder read, final WireType type,
        final List<WireType.Component> parts, final boolean record) {
        final TypeName typeName = type.typeName();
        final boolean tracked = graph.tracked(type);
        final CodeBlock.Builder w = CodeBlock.builder().beginControlFlow("switch (step)");
        final CodeBlock.Builder r = CodeBlock.builder().beginControlFlow("switch (step)");
        int step = 0;
        w.add("case 0: {\n$>");
        r.add("case 0: {\n$>");
        if (tracked) {
            w.addStatement("if (writer.writeReference(value)) return DONE");
            r.addStatement("if (reader.readReference(typeKey())) return DONE");
        } else {
            w.addStatement("writer.writePresence(value != null)").addStatement("if (value == null) return DONE");
            r.addStatement("if (!reader.readPresence()) return DONE");
        }
        if (record) {
            r.addStatement("final Object[] parts = new Object[$L]", parts.size()).addStatement("reader.frameValue(parts)");
        } else {
            r.addStatement("final $T value = new $T()", typeName, typeName);
            if (tracked) {
                r.addStatement("reader.register(value, typeKey())");
            } else {
                r.addStatement("reader.frameValue(value)");
            }
        }
        for (int i = 0; i < parts.size(); i++) {
            final WireType.Component part = parts.get(i);
            final CodeBlock access = record ? CodeBlock.of("value.$N()", part.name()) : CodeBlock.of("value.$N", part.name());
            final CodeBlock slot = record ? CodeBlock.of("parts[$L]", i) : CodeBlock.of("value.$N", part.name());
            if (!graph.recursive(part.type())) {
                w.add(write(part.type(), "writer", access));
                r.addStatement("$L = $L", slot, read(part.type(), "reader"));
                continue;
            }
            step++;
            w.addStatement("writer.push($L, $L)", nestedRef(part.type()), access).addStatement("return $L", step).add("$<}\n");
            r.addStatement("reader.push($L)", nestedRef(part.type())).addStatement("return $L", step).add("$<}\n");
            w.add("case $L: {\n$>", step);
            r.add("case $L: {\n$>", step);
            if (record) {
                w.add("// $N is written\n", part.name());
                r.addStatement("final Object[] parts = (Object[])reader.frameValue()");
                r.addStatement("$L = child", slot);
            } else {
                r.addStatement("final $T value = ($T)reader.frameValue()", typeName, typeName);
                r.addStatement("$L = ($T)child", slot, part.type().typeName());
            }
        }
        if (record) {
            final List<CodeBlock> arguments = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                arguments.add(CodeBlock.of("($T)parts[$L]", parts.get(i).type().typeName(), i));
            }
            r.addStatement("reader.frameValue(new $T($L))", typeName, CodeBlock.join(arguments, ", "));
        }
        w.addStatement("return DONE").add("$<}\n");
        r.addStatement("return DONE").add("$<}\n");
        w.add("default:\n$>").addStatement("throw new $T($S + step)", IllegalStateException.class, "no step ").add("$<").endControlFlow();
        r.add("default:\n$>").addStatement("throw new $T($S + step)", IllegalStateException.class, "no step ").add("$<").endControlFlow();
        write.addCode(w.build());
        read.addCode(r.build());
    }

    /** An array of a recursive type: the step is the index of the next element. */
    private void arraySteps(final MethodSpec.Builder write, final MethodSpec.Builder read, final WireType.Array array) {
        final WireType component = array.component();
        write.beginControlFlow("if (step == 0)")
            .addStatement("if (writer.writeReference(value)) return DONE")
            .addStatement("writer.writeLength(value.length)")
            .endControlFlow()
            .addStatement("if (step == value.length) return DONE")
            .addStatement("writer.push($L, value[step])", nestedRef(component))
            .addStatement("return step + 1");
        TypeName innermost = component.typeName();
        int extraDimensions = 0;
        while (innermost instanceof ArrayTypeName arrayTypeName) {
            innermost = arrayTypeName.componentType();
            extraDimensions++;
        }
        final String dimensions = "[]".repeat(extraDimensions);
        final TypeName created = innermost instanceof ParameterizedTypeName parameterized ? parameterized.rawType() : innermost;
        read.addStatement("final $T value", array.typeName())
            .beginControlFlow("if (step == 0)")
            .addStatement("if (reader.readReference(typeKey())) return DONE")
            .addStatement("value = ($T)new $T[reader.readCount($L)]$L", array.typeName(), created, minBytes(component), dimensions)
            .addStatement("reader.register(value, typeKey())")
            .nextControlFlow("else")
            .addStatement("value = ($T)reader.frameValue()", array.typeName())
            .addStatement("value[step - 1] = ($T)child", component.typeName())
            .endControlFlow()
            .addStatement("if (step == value.length) return DONE")
            .addStatement("reader.push($L)", nestedRef(component))
            .addStatement("return step + 1");
    }

    /** A collection of a recursive type: an iterator is the writer's cursor; the step counts elements read. */
    private void collectionSteps(final MethodSpec.Builder write, final MethodSpec.Builder read, final WireType.Collection collection) {
        final WireType element = collection.element();
        final TypeName iterator = ParameterizedTypeName.get(ClassName.get("java.util", "Iterator"), element.typeName());
        write.beginControlFlow("if (step == 0)")
            .addStatement("if (writer.writeReference(value)) return DONE")
            .addStatement("writer.writeLength(value.size())")
            .addStatement("writer.frameCursor(value.iterator())")
            .endControlFlow()
            .addStatement("final $T elements = ($T)writer.frameCursor()", iterator, iterator)
            .addStatement("if (!elements.hasNext()) return DONE")
            .addStatement("writer.push($L, elements.next())", nestedRef(element))
            .addStatement("return 1");
        read.addStatement("final $T value", collection.typeName())
            .beginControlFlow("if (step == 0)")
            .addStatement("if (reader.readReference(typeKey())) return DONE")
            .addStatement("final int length = reader.readCount($L)", minBytes(element))
            .addStatement("value = $L", create(collection.decodedAs(), collection.element()))
            .addStatement("reader.register(value, typeKey())")
            .addStatement("reader.frameLength(length)")
            .nextControlFlow("else")
            .addStatement("value = ($T)reader.frameValue()", collection.typeName())
            .addStatement("final $T element = ($T)child", element.typeName(), element.typeName());
        if (holdsNoNull(collection.decodedAs())) {
            rejectNull(read, "element", collection.decodedAs());
        }
        read.addStatement("value.add(element)")
            .endControlFlow()
            .addStatement("if (step == reader.frameLength()) return DONE")
            .addStatement("reader.push($L)", nestedRef(element))
            .addStatement("return step + 1");
    }

    /**
     * A map with a key or value of a recursive type. Writer states: 0 header, 1 the held entry's value,
     * 2 the next entry; reader states: 0 header, 1 a pushed key arrived, 2 the next entry, 3 the value,
     * 4 a pushed value arrived. Parts of other types are written inline.
     */
    private void mapSteps(final MethodSpec.Builder write, final MethodSpec.Builder read, final WireType.MapType map) {
        final TypeName entry = ParameterizedTypeName.get(ClassName.get("java.util", "Map", "Entry"), map.key().typeName(),
            map.value().typeName());
        final TypeName iterator = ParameterizedTypeName.get(ClassName.get("java.util", "Iterator"), entry);
        final boolean keyNested = graph.recursive(map.key());
        final boolean valueNested = graph.recursive(map.value());
        write.addStatement("int state = step")
            .beginControlFlow("for (;;)")
            .beginControlFlow("switch (state)")
            .addCode("case 0:\n$>")
            .addStatement("if (writer.writeReference(value)) return DONE")
            .addStatement("writer.writeLength(value.size())")
            .addStatement("writer.frameCursor(value.entrySet().iterator())")
            .addStatement("state = 2")
            .addStatement("break")
            .addCode("$<case 1: {\n$>")
            .addStatement("final $T entry = ($T)writer.frameHeld()", entry, entry);
        if (valueNested) {
            write.addStatement("writer.push($L, entry.getValue())", nestedRef(map.value())).addStatement("return 2");
        } else {
            write.addCode(write(map.value(), "writer", CodeBlock.of("entry.getValue()")))
                .addStatement("state = 2").addStatement("break");
        }
        write.addCode("$<}\ncase 2: {\n$>")
            .addStatement("final $T entries = ($T)writer.frameCursor()", iterator, iterator)
            .addStatement("if (!entries.hasNext()) return DONE")
            .addStatement("final $T entry = entries.next()", entry)
            .addStatement("writer.frameHeld(entry)");
        if (keyNested) {
            write.addStatement("writer.push($L, entry.getKey())", nestedRef(map.key())).addStatement("return 1");
        } else {
            write.addCode(write(map.key(), "writer", CodeBlock.of("entry.getKey()")))
                .addStatement("state = 1").addStatement("break");
        }
        write.addCode("$<}\ndefault:\n$>")
            .addStatement("throw new $T($S + state)", IllegalStateException.class, "no state ")
            .addCode("$<")
            .endControlFlow()
            .endControlFlow();

        final TypeName mapType = map.typeName();
        read.addStatement("int state = step")
            .beginControlFlow("for (;;)")
            .beginControlFlow("switch (state)")
            .addCode("case 0: {\n$>")
            .addStatement("if (reader.readReference(typeKey())) return DONE")
            .addStatement("final int length = reader.readCount($L)", minBytes(map.key()) + minBytes(map.value()))
            .addStatement("reader.register($L, typeKey())", create(map.decodedAs(), map.key()))
            .addStatement("reader.frameLength(length)")
            .addStatement("state = 2")
            .addStatement("break")
            .addCode("$<}\ncase 1: {\n$>")
            .addStatement("final $T key = ($T)child", map.key().typeName(), map.key().typeName());
        if (holdsNoNull(map.decodedAs())) {
            rejectNull(read, "key", map.decodedAs());
        }
        read.addStatement("reader.frameHeld(key)")
            .addStatement("state = 3")
            .addStatement("break")
            .addCode("$<}\ncase 2: {\n$>")
            .addStatement("if (reader.frameCount() == reader.frameLength()) return DONE")
            .addStatement("reader.frameCount(reader.frameCount() + 1)");
        if (keyNested) {
            read.addStatement("reader.push($L)", nestedRef(map.key())).addStatement("return 1");
        } else {
            read.addStatement("final $T key = $L", map.key().typeName(), read(map.key(), "reader"));
            if (holdsNoNull(map.decodedAs())) {
                rejectNull(read, "key", map.decodedAs());
            }
            read.addStatement("reader.frameHeld(key)").addStatement("state = 3").addStatement("break");
        }
        read.addCode("$<}\ncase 3: {\n$>");
        if (valueNested) {
            read.addStatement("reader.push($L)", nestedRef(map.value())).addStatement("return 4");
        } else {
            read.addStatement("(($T)reader.frameValue()).put(($T)reader.frameHeld(), $L)", mapType, map.key().typeName(),
                read(map.value(), "reader")).addStatement("state = 2").addStatement("break");
        }
        read.addCode("$<}\ncase 4:\n$>")
            .addStatement("(($T)reader.frameValue()).put(($T)reader.frameHeld(), ($T)child)", mapType, map.key().typeName(),
                map.value().typeName())
            .addStatement("state = 2")
            .addStatement("break")
            .addCode("$<default:\n$>")
            .addStatement("throw new $T($S + state)", IllegalStateException.class, "no state ")
            .addCode("$<")
            .endControlFlow()
            .endControlFlow();
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
        if (type instanceof WireType.OptionalType o) {
            return "OptionalOf" + baseName(o.value());
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
