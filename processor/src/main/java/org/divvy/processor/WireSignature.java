package org.divvy.processor;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The text two builds must agree on to exchange a spawnable's jobs: the method, and the wire shape of its
 * receiver's fields, parameters and result, recursively (a type already described is named only, so
 * recursive types stay finite). Generated into {@code JobType.wireSignature()}; nodes compare a digest of
 * all of them when they join, so a node from another build is refused instead of decoding garbage.
 */
final class WireSignature {
    private final StringBuilder text = new StringBuilder();
    private final Set<String> described = new HashSet<>();

    private WireSignature() {
    }

    static String of(final Model.SpawnableClass model, final Model.SpawnableMethod method,
        final List<WireType.Component> receiverFields) {
        final WireSignature signature = new WireSignature();
        final StringBuilder text = signature.text;
        text.append(model.binaryName()).append('#').append(method.name()).append(" receiver{");
        signature.components(receiverFields);
        text.append("}(");
        for (int i = 0; i < method.parameters().size(); i++) {
            text.append(i == 0 ? "" : ", ");
            signature.type(method.parameters().get(i).type());
        }
        text.append(") -> ");
        if (method.result() == null) {
            text.append("void");
        } else {
            signature.type(method.result());
        }
        return text.toString();
    }

    private void components(final List<WireType.Component> components) {
        for (int i = 0; i < components.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(components.get(i).name()).append(": ");
            type(components.get(i).type());
        }
    }

    private void type(final WireType type) {
        if (type instanceof WireType.Primitive p) {
            text.append(p.kind());
        } else if (type instanceof WireType.Boxed b) {
            text.append("boxed ").append(b.primitive().kind());
        } else if (type instanceof WireType.Text) {
            text.append("String");
        } else if (type instanceof WireType.Enumeration e) {
            text.append("enum ").append(e.typeName().reflectionName()).append(e.constants()); // ordinals travel
        } else if (type instanceof WireType.Array a) {
            type(a.component());
            text.append("[]");
        } else if (type instanceof WireType.RecordType r) {
            text.append("record ").append(r.typeName().reflectionName());
            if (described.add(r.typeName().reflectionName())) {
                text.append('(');
                components(r.components());
                text.append(')');
            }
        } else if (type instanceof WireType.WireClass w) {
            text.append("wire ").append(w.typeName().reflectionName());
            if (described.add(w.typeName().reflectionName())) {
                text.append('{');
                components(w.fields());
                text.append('}');
            }
        } else if (type instanceof WireType.Collection c) {
            text.append(c.decodedAs().reflectionName()).append('<');
            type(c.element());
            text.append('>');
        } else if (type instanceof WireType.MapType m) {
            text.append(m.decodedAs().reflectionName()).append('<');
            type(m.key());
            text.append(", ");
            type(m.value());
            text.append('>');
        } else if (type instanceof WireType.OptionalType o) {
            text.append("Optional<");
            type(o.value());
            text.append('>');
        } else if (type instanceof WireType.JdkValue v) {
            text.append("jdk ").append(JdkValues.signature(v.typeName()));
        } else if (type instanceof WireType.SharedObject s) {
            text.append("shared ").append(s.typeName().reflectionName());
        } else {
            text.append(type);
        }
    }
}
