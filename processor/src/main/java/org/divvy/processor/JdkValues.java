package org.divvy.processor;

import java.util.Map;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;

/**
 * The JDK value classes that travel without user action, each with one fixed encoding (after the presence
 * byte every nullable value has): {@code BigInteger} as its two's-complement bytes, {@code BigDecimal} as
 * those of its unscaled value and its scale, {@code UUID} as two longs, {@code LocalDate} as its epoch day,
 * {@code LocalTime} as its nano of day, {@code LocalDateTime} as both, {@code Instant} and {@code Duration}
 * as seconds and nanos, {@code BitSet} as its words. All are immutable values except {@code BitSet}, and
 * none holds another object, so each is sent as a tree. Bytes no encoder writes (a zero-length number, a
 * day out of range) fail decoding with {@code WireDecodeException}.
 */
final class JdkValues {
    private static final ClassName WIRE_WRITER = ClassName.get("org.divvy.codegen", "WireWriter");
    private static final ClassName WIRE_DECODE_EXCEPTION = ClassName.get("org.divvy.codegen", "WireDecodeException");
    private static final ClassName BIG_INTEGER = ClassName.get("java.math", "BigInteger");
    private static final ClassName LOCAL_DATE = ClassName.get("java.time", "LocalDate");
    private static final ClassName LOCAL_TIME = ClassName.get("java.time", "LocalTime");

    /** Qualified name to the wire signature of its encoding. */
    private static final Map<String, String> ENCODINGS = Map.of(
        "java.math.BigInteger", "bytes",
        "java.math.BigDecimal", "unscaled bytes, int scale",
        "java.util.UUID", "long, long",
        "java.time.LocalDate", "long epochDay",
        "java.time.LocalTime", "long nanoOfDay",
        "java.time.LocalDateTime", "long epochDay, long nanoOfDay",
        "java.time.Instant", "long seconds, int nanos",
        "java.time.Duration", "long seconds, int nanos",
        "java.util.BitSet", "long[] words");

    private JdkValues() {
    }

    static boolean supports(final String qualifiedName) {
        return ENCODINGS.containsKey(qualifiedName);
    }

    /** What the wire signature says of {@code type}: its name and encoding. */
    static String signature(final ClassName type) {
        return type.canonicalName() + "(" + ENCODINGS.get(type.canonicalName()) + ")";
    }

    /** Statements writing {@code value}, which is not null. */
    static CodeBlock write(final ClassName type) {
        return switch (type.canonicalName()) {
            case "java.math.BigInteger" -> writeBytes("value");
            case "java.math.BigDecimal" -> CodeBlock.builder().add(writeBytes("value.unscaledValue()"))
                .addStatement("writer.writeInt(value.scale())").build();
            case "java.util.UUID" -> CodeBlock.builder().addStatement("writer.writeLong(value.getMostSignificantBits())")
                .addStatement("writer.writeLong(value.getLeastSignificantBits())").build();
            case "java.time.LocalDate" -> CodeBlock.builder().addStatement("writer.writeLong(value.toEpochDay())").build();
            case "java.time.LocalTime" -> CodeBlock.builder().addStatement("writer.writeLong(value.toNanoOfDay())").build();
            case "java.time.LocalDateTime" -> CodeBlock.builder().addStatement("writer.writeLong(value.toLocalDate().toEpochDay())")
                .addStatement("writer.writeLong(value.toLocalTime().toNanoOfDay())").build();
            case "java.time.Instant" -> CodeBlock.builder().addStatement("writer.writeLong(value.getEpochSecond())")
                .addStatement("writer.writeInt(value.getNano())").build();
            case "java.time.Duration" -> CodeBlock.builder().addStatement("writer.writeLong(value.getSeconds())")
                .addStatement("writer.writeInt(value.getNano())").build();
            case "java.util.BitSet" -> CodeBlock.builder().addStatement("final long[] words = value.toLongArray()")
                .addStatement("writer.writeLength(words.length)")
                .beginControlFlow("for (final long word : words)").addStatement("writer.writeLong(word)").endControlFlow().build();
            default -> throw new IllegalArgumentException("not a JDK value: " + type);
        };
    }

    /** Statements reading a value written by {@link #write} (after its presence byte) and returning it. */
    static CodeBlock read(final ClassName type) {
        return switch (type.canonicalName()) {
            case "java.math.BigInteger" -> CodeBlock.builder().add(readBytes()).addStatement("return new $T(bytes)", BIG_INTEGER).build();
            case "java.math.BigDecimal" -> CodeBlock.builder().add(readBytes())
                .addStatement("return new $T(new $T(bytes), reader.readInt())", type, BIG_INTEGER).build();
            case "java.util.UUID" -> CodeBlock.builder().addStatement("return new $T(reader.readLong(), reader.readLong())", type).build();
            case "java.time.LocalDate" -> checked("return $T.ofEpochDay(reader.readLong())", type);
            case "java.time.LocalTime" -> checked("return $T.ofNanoOfDay(reader.readLong())", type);
            case "java.time.LocalDateTime" -> checked("return $T.of($T.ofEpochDay(reader.readLong()), $T.ofNanoOfDay(reader.readLong()))",
                type, LOCAL_DATE, LOCAL_TIME);
            case "java.time.Instant" -> checked("return $T.ofEpochSecond(reader.readLong(), reader.readInt())", type);
            case "java.time.Duration" -> checked("return $T.ofSeconds(reader.readLong(), reader.readInt())", type);
            case "java.util.BitSet" -> CodeBlock.builder().addStatement("final int length = reader.readLength(8)")
                .addStatement("if (length == $T.NULL_LENGTH) throw new $T($S)", WIRE_WRITER, WIRE_DECODE_EXCEPTION, "BitSet without a length")
                .addStatement("final long[] words = new long[length]")
                .beginControlFlow("for (int i = 0; i < length; i++)").addStatement("words[i] = reader.readLong()").endControlFlow()
                .addStatement("return $T.valueOf(words)", type).build();
            default -> throw new IllegalArgumentException("not a JDK value: " + type);
        };
    }

    private static CodeBlock writeBytes(final String number) {
        return CodeBlock.builder().addStatement("final byte[] bytes = $L.toByteArray()", number)
            .addStatement("writer.writeLength(bytes.length)")
            .addStatement("writer.writeBytes(bytes, 0, bytes.length)").build();
    }

    /** A BigInteger's bytes: never empty (a zero is one byte), so an empty or missing array is bad input. */
    private static CodeBlock readBytes() {
        return CodeBlock.builder().addStatement("final int length = reader.readLength(1)")
            .addStatement("if (length <= 0) throw new $T($S + length)", WIRE_DECODE_EXCEPTION, "number without bytes: length ")
            .addStatement("final byte[] bytes = new byte[length]")
            .addStatement("reader.readBytes(bytes, 0, length)").build();
    }

    /** A java.time factory that rejects values out of range: bad input, reported as such. */
    private static CodeBlock checked(final String statement, final Object... args) {
        return CodeBlock.builder().beginControlFlow("try").addStatement(statement, args)
            .nextControlFlow("catch (final $T e)", ClassName.get("java.time", "DateTimeException"))
            .addStatement("throw new $T(e.getMessage())", WIRE_DECODE_EXCEPTION)
            .endControlFlow().build();
    }
}
