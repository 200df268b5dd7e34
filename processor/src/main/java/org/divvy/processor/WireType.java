package org.divvy.processor;

import java.util.List;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;

/**
 * A type that can be sent, as validation understood it: the model codec generators work from. Every
 * variant knows its JavaPoet {@link #typeName()} and the fewest bytes its encoding can take, which a
 * decoder passes to {@code WireReader.readLength} so a corrupted length fails before allocating.
 */
sealed interface WireType {
    TypeName typeName();

    /** The fewest bytes one encoded value takes. */
    int minEncodedBytes();

    /** A primitive, written fixed-width. {@code kind} is its keyword: {@code int}, {@code long} ... */
    record Primitive(TypeName typeName, String kind, int minEncodedBytes) implements WireType {
    }

    /** A box of a primitive ({@code Integer} ...): presence byte, then the primitive. */
    record Boxed(TypeName typeName, Primitive primitive) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 1;
        }
    }

    /**
     * {@code Optional<T>}: presence byte (null or not), then whether it holds a value, then the value. An
     * Optional never lies on a cycle of types (the processor rejects that), so it has no step codec.
     */
    record OptionalType(TypeName typeName, WireType value) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 1;
        }
    }

    /** A JDK value class with a fixed encoding ({@link JdkValues}): presence byte, then its parts. */
    record JdkValue(ClassName typeName) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 1;
        }
    }

    /** {@code String}: UTF-8 length (-1 for null) and bytes. */
    record Text(TypeName typeName) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 4;
        }
    }

    /**
     * An enum: presence byte, then the ordinal as an int. {@code constants} in declaration order: what the
     * ordinals mean, so part of the wire signature.
     */
    record Enumeration(ClassName typeName, List<String> constants) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 1;
        }
    }

    /** An array: length (-1 for null), then the elements. */
    record Array(TypeName typeName, WireType component) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 4;
        }
    }

    /**
     * A record: presence byte, then its components in declaration order, read back through the
     * canonical constructor. Components are resolved lazily because records may contain themselves.
     */
    record RecordType(ClassName typeName, List<Component> components) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 1;
        }

        // A recursive record holds itself in its components: identity by name keeps these finite.
        @Override
        public boolean equals(final Object other) {
            return other instanceof RecordType r && r.typeName.equals(typeName);
        }

        @Override
        public int hashCode() {
            return typeName.hashCode();
        }

        @Override
        public String toString() {
            return "RecordType[" + typeName + "]";
        }
    }

    /** One record component or sent field. */
    record Component(String name, WireType type) {
    }

    /**
     * A {@code List}/{@code Set} or one of their supported implementations: length (-1 for null),
     * then the elements. {@code decodedAs} is the class a decoder builds.
     */
    record Collection(TypeName typeName, ClassName decodedAs, WireType element) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 4;
        }
    }

    /** A {@code Map} or one of its supported implementations: length (-1 for null), then key, value pairs. */
    record MapType(TypeName typeName, ClassName decodedAs, WireType key, WireType value) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 4;
        }
    }

    /**
     * A class marked {@code @Wire}: presence byte (a reference tag if it reaches itself), then its generated
     * codec's encoding. {@code fields} are resolved lazily, as a record's components are.
     */
    record WireClass(ClassName typeName, ClassName codec, List<Component> fields) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 1;
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof WireClass w && w.typeName.equals(typeName);
        }

        @Override
        public int hashCode() {
            return typeName.hashCode();
        }

        @Override
        public String toString() {
            return "WireClass[" + typeName + "]";
        }
    }

    /**
     * A {@code @SharedObject} passed as a direct parameter. It will travel as an id once the
     * shared-data module exists; until then its generated codec throws.
     */
    record SharedObject(ClassName typeName) implements WireType {
        @Override
        public int minEncodedBytes() {
            return 0;
        }
    }
}
