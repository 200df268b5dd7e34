package org.divvy.processor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the graph of sendable types says about a type's values, decided at compile time:
 *
 * <ul>
 *   <li><b>recursive</b>: the type reaches itself through components, fields, elements, keys or values (a
 *   linked list node, a tree, a list of trees). Its values can nest without bound, so its codec runs on the
 *   writer's and reader's work stack ({@code NestedCodec}), never by recursion. Other types nest only as deep
 *   as their declarations, so plain recursive helpers are safe for them.</li>
 *   <li><b>tracked</b>: recursive and mutable (a {@code @Wire} class, an array, a collection or a map): its
 *   values can form a cycle and be shared, so they carry reference tags and go in the message's object table;
 *   a cycle or a shared object round-trips with its shape. A cycle needs a mutable object on it (a record's
 *   components exist before the record), so records are values: never tracked, sent as trees.</li>
 * </ul>
 */
final class TypeGraph {
    private final Map<String, Boolean> recursive = new HashMap<>();

    static String key(final WireType type) {
        return type.typeName().toString();
    }

    /** The types a value of {@code type} holds directly. */
    static List<WireType> children(final WireType type) {
        if (type instanceof WireType.RecordType r) {
            return r.components().stream().map(WireType.Component::type).toList();
        }
        if (type instanceof WireType.WireClass w) {
            return w.fields().stream().map(WireType.Component::type).toList();
        }
        if (type instanceof WireType.Array a) {
            return List.of(a.component());
        }
        if (type instanceof WireType.Collection c) {
            return List.of(c.element());
        }
        if (type instanceof WireType.MapType m) {
            return List.of(m.key(), m.value());
        }
        if (type instanceof WireType.OptionalType o) {
            return List.of(o.value());
        }
        return List.of();
    }

    /** Whether {@code type} reaches itself. */
    boolean recursive(final WireType type) {
        return recursive.computeIfAbsent(key(type), k -> reaches(type, k));
    }

    /** Whether values of {@code type} carry reference tags: recursive and mutable. */
    boolean tracked(final WireType type) {
        return recursive(type) && !(type instanceof WireType.RecordType);
    }

    private static boolean reaches(final WireType from, final String target) {
        final Set<String> seen = new HashSet<>();
        final Deque<WireType> pending = new ArrayDeque<>();
        children(from).stream().filter(java.util.Objects::nonNull).forEach(pending::push);
        while (!pending.isEmpty()) {
            final WireType type = pending.pop();
            final String key = key(type);
            if (key.equals(target)) {
                return true;
            }
            if (seen.add(key)) {
                children(type).stream().filter(java.util.Objects::nonNull).forEach(pending::push);
            }
        }
        return false;
    }
}
