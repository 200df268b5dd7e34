package org.divvy.processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;

/**
 * Decides whether a type can be sent and builds its {@link WireType}, or lists every part of it that
 * cannot, with the path from the root type to that part ({@code lights[].color}, {@code {key}}).
 *
 * <p>Records and {@code @Wire} classes are followed into their components and fields; a type met again
 * while it is being analysed (a tree node holding a list of nodes) is not followed again, so recursive
 * types are accepted and analysis always ends.
 */
final class TypeAnalyzer {
    /** One part of a type that cannot be sent. {@code path} is empty when it is the root type itself. */
    record Problem(String path, String pathKind, TypeMirror type, String reason) {
    }

    /** The outcome of one analysis: a type when {@code problems} is empty. */
    record Result(WireType type, List<Problem> problems) {
        boolean ok() {
            return problems.isEmpty();
        }
    }

    /** Where a root type is used; shared objects are allowed only as direct parameters of a spawnable. */
    enum Use {
        SPAWNABLE_PARAMETER, FIELD, OTHER
    }

    static final String WIRE = "org.divvy.annotations.Wire";
    static final String SHARED_OBJECT = "org.divvy.annotations.SharedObject";

    private static final Map<String, String> COLLECTIONS = Map.of(
        "java.util.List", "java.util.ArrayList",
        "java.util.ArrayList", "java.util.ArrayList",
        "java.util.LinkedList", "java.util.LinkedList",
        "java.util.Set", "java.util.LinkedHashSet",
        "java.util.HashSet", "java.util.HashSet",
        "java.util.LinkedHashSet", "java.util.LinkedHashSet",
        "java.util.TreeSet", "java.util.TreeSet",
        "java.util.EnumSet", "java.util.EnumSet");

    private static final Map<String, String> MAPS = Map.of(
        "java.util.Map", "java.util.LinkedHashMap",
        "java.util.HashMap", "java.util.HashMap",
        "java.util.LinkedHashMap", "java.util.LinkedHashMap",
        "java.util.TreeMap", "java.util.TreeMap",
        "java.util.EnumMap", "java.util.EnumMap");

    private static final Map<String, String> BOXES = Map.of(
        "java.lang.Boolean", "boolean", "java.lang.Byte", "byte", "java.lang.Short", "short",
        "java.lang.Character", "char", "java.lang.Integer", "int", "java.lang.Long", "long",
        "java.lang.Float", "float", "java.lang.Double", "double");

    private static final Map<String, String> LIST_LIKE = Map.of(
        "java.util.Iterator", "use a List",
        "java.lang.Iterable", "use a List",
        "java.util.Collection", "use a List or a Set",
        "java.util.Queue", "use a List",
        "java.util.Deque", "use a List",
        "java.util.stream.Stream", "use a List");

    private final Elements elements;
    private final Types types;
    private final SourceTypes sources;
    /** The package of the code that will name the types; a @Wire class's fields are named by its own codec. */
    private String fromPackage;
    private final Map<String, WireType> inProgress = new HashMap<>();
    private final List<Problem> problems = new ArrayList<>();
    /** Optionals met, each with the problem to report if it turns out to lie on a cycle (known only at the end). */
    private final List<WireType.OptionalType> optionalTypes = new ArrayList<>();
    private final List<Problem> optionals = new ArrayList<>();

    /** {@code fromPackage}: the package of the generated code that will name these types. */
    private TypeAnalyzer(final ProcessingEnvironment env, final SourceTypes sources, final String fromPackage) {
        this.elements = env.getElementUtils();
        this.types = env.getTypeUtils();
        this.sources = sources;
        this.fromPackage = fromPackage;
    }

    /** {@code sources}: the classes a user can edit; advice never asks to change any other. */
    static Result analyze(
        final ProcessingEnvironment env, final SourceTypes sources, final String fromPackage, final TypeMirror type, final Use use) {
        final TypeAnalyzer analyzer = new TypeAnalyzer(env, sources, fromPackage);
        final WireType wireType = analyzer.visit(type, "", use == Use.FIELD ? "field" : "", use == Use.SPAWNABLE_PARAMETER);
        final TypeGraph graph = new TypeGraph();
        for (int i = 0; i < analyzer.optionalTypes.size(); i++) {
            if (graph.recursive(analyzer.optionalTypes.get(i))) {
                analyzer.problems.add(analyzer.optionals.get(i));
            }
        }
        if (!analyzer.problems.isEmpty()) {
            return new Result(null, List.copyOf(analyzer.problems));
        }
        return new Result(wireType, List.copyOf(analyzer.problems));
    }

    static WireType.Primitive primitive(final TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> new WireType.Primitive(TypeName.BOOLEAN, "boolean", 1);
            case BYTE -> new WireType.Primitive(TypeName.BYTE, "byte", 1);
            case SHORT -> new WireType.Primitive(TypeName.SHORT, "short", 2);
            case CHAR -> new WireType.Primitive(TypeName.CHAR, "char", 2);
            case INT -> new WireType.Primitive(TypeName.INT, "int", 4);
            case LONG -> new WireType.Primitive(TypeName.LONG, "long", 8);
            case FLOAT -> new WireType.Primitive(TypeName.FLOAT, "float", 4);
            case DOUBLE -> new WireType.Primitive(TypeName.DOUBLE, "double", 8);
            default -> throw new IllegalArgumentException("not a primitive: " + kind);
        };
    }

    private WireType fail(final String path, final String pathKind, final TypeMirror type, final String reason) {
        problems.add(new Problem(path, pathKind, type, reason));
        return null;
    }

    private WireType visit(final TypeMirror type, final String path, final String pathKind, final boolean sharedAllowed) {
        switch (type.getKind()) {
            case BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE:
                return primitive(type.getKind());
            case ARRAY: {
                final WireType component = visit(((ArrayType)type).getComponentType(), path + "[]", "element", false);
                return component == null ? null : new WireType.Array(TypeName.get(type), component);
            }
            case DECLARED:
                return visitDeclared((DeclaredType)type, path, pathKind, sharedAllowed);
            case TYPEVAR:
                return fail(path, pathKind, type, "which is a type variable and cannot be sent; use a concrete type");
            case WILDCARD:
                return fail(path, pathKind, type, "which is a wildcard and cannot be sent; use an exact type argument without `?`");
            case ERROR:
                return fail(path, pathKind, type, "which does not resolve to a known type and cannot be sent; fix the type");
            default:
                return fail(path, pathKind, type, "which cannot be sent; use a primitive, String, enum, array, record, "
                    + "List, Set, Map or a @Wire class");
        }
    }

    private WireType visitDeclared(final DeclaredType type, final String path, final String pathKind, final boolean sharedAllowed) {
        final TypeElement element = (TypeElement)type.asElement();
        final String name = element.getQualifiedName().toString();
        if (BOXES.containsKey(name)) {
            return new WireType.Boxed(ClassName.get(element), primitive(primitiveKind(BOXES.get(name))));
        }
        if (name.equals("java.lang.String")) {
            return new WireType.Text(ClassName.get(element));
        }
        if (JdkValues.supports(name)) {
            return new WireType.JdkValue(ClassName.get(element));
        }
        if (COLLECTIONS.containsKey(name) || MAPS.containsKey(name)) {
            return visitCollection(type, element, name, path, pathKind);
        }
        if (name.equals("java.util.Optional")) {
            return visitOptional(type, path, pathKind);
        }
        if (LIST_LIKE.containsKey(name)) {
            return fail(path, pathKind, type, "which cannot be sent; " + LIST_LIKE.get(name));
        }
        final boolean shared = Annotations.has(element, SHARED_OBJECT);
        if (shared) {
            if (sharedAllowed) {
                return new WireType.SharedObject(ClassName.get(element));
            }
            return fail(path, pathKind, type, "which is a @SharedObject: shared objects travel only as direct parameters "
                + "of a @Spawnable, never inside a value that is sent; pass it as a parameter of its own");
        }
        if (element.getKind() == ElementKind.ENUM) {
            return accessible(element, type, path, pathKind) ? new WireType.Enumeration(ClassName.get(element),
                element.getEnclosedElements().stream().filter(e -> e.getKind() == ElementKind.ENUM_CONSTANT)
                    .map(e -> e.getSimpleName().toString()).toList()) : null;
        }
        if (element.getKind() == ElementKind.RECORD) {
            return visitRecord(type, element, path, pathKind);
        }
        if (types.isSubtype(type, elements.getTypeElement("java.lang.Throwable").asType())) {
            return fail(path, pathKind, type, "which is an exception and cannot be sent as a value (a child's exception reaches "
                + "sync() by itself); send its message or a record of what it carries");
        }
        if (Annotations.has(element, WIRE) && element.getKind() == ElementKind.CLASS) {
            return visitWireClass(type, element, path, pathKind);
        }
        if (name.equals("java.lang.Object")) {
            return fail(path, pathKind, type, "which cannot be sent; use a concrete supported type");
        }
        if (element.getKind() == ElementKind.INTERFACE || element.getModifiers().contains(Modifier.ABSTRACT)) {
            return fail(path, pathKind, type, "which is " + (element.getKind() == ElementKind.INTERFACE ? "an interface" : "abstract")
                + " and cannot be sent; use a List, Set, Map, a record or a final @Wire class");
        }
        final String orTransient = pathKind.equals("field") ? ", or mark the field transient" : "";
        if (!sources.editable(element)) {
            return fail(path, pathKind, type, "which cannot be sent; " + notEditable(name)
                + "; convert it to a supported type (a number, String, array or record of its parts), or hold it in a record or "
                + "@Wire class of your own" + orTransient);
        }
        final String fix = pathKind.equals("field")
            ? "mark `" + name + "` @Wire, use a record, or mark the field transient"
            : "mark `" + name + "` @Wire or use a record";
        return fail(path, pathKind, type, "which cannot be sent; " + fix);
    }

    /** Why advice cannot say "mark it @Wire": the class comes from the JDK or a jar. */
    private static String notEditable(final String name) {
        return "`" + name + "` is not in this compilation, so it cannot be marked @Wire";
    }

    private WireType visitCollection(
        final DeclaredType type, final TypeElement element, final String name, final String path, final String pathKind) {
        final List<? extends TypeMirror> arguments = type.getTypeArguments();
        final boolean isMap = MAPS.containsKey(name);
        if (arguments.isEmpty()) {
            return fail(path, pathKind, type, "which is a raw collection and cannot be sent; give its type arguments, e.g. `"
                + element.getSimpleName() + (isMap ? "<String, Integer>`" : "<String>`"));
        }
        if (name.startsWith("java.util.Tree") && !comparable(arguments.get(0))) {
            return fail(path, pathKind, type, "whose " + (isMap ? "keys are" : "elements are") + " not Comparable, so it cannot be "
                + "sent: the receiver rebuilds it with natural ordering (a Comparator is not sent); use a " + (isMap ? "Map" : "Set")
                + (editable(arguments.get(0)) ? " or make `" + arguments.get(0) + "` Comparable" : ""));
        }
        if (isMap) {
            final WireType key = visit(arguments.get(0), path + "{key}", "key", false);
            final WireType value = visit(arguments.get(1), path + "{value}", "value", false);
            return key == null || value == null ? null
                : new WireType.MapType(TypeName.get(type), ClassName.bestGuess(MAPS.get(name)), key, value);
        }
        final WireType item = visit(arguments.get(0), path + "[]", "element", false);
        return item == null ? null : new WireType.Collection(TypeName.get(type), ClassName.bestGuess(COLLECTIONS.get(name)), item);
    }

    private WireType visitOptional(final DeclaredType type, final String path, final String pathKind) {
        if (type.getTypeArguments().isEmpty()) {
            return fail(path, pathKind, type, "which is a raw Optional and cannot be sent; give its type argument, e.g. `Optional<String>`");
        }
        final WireType value = visit(type.getTypeArguments().get(0), path + ".get()", "value", false);
        if (value == null) {
            return null;
        }
        final WireType.OptionalType optional = new WireType.OptionalType(TypeName.get(type), value);
        optionals.add(new Problem(path, pathKind, type, "which is an Optional on a cycle of types (a value that can hold itself "
            + "through it) and cannot be sent; use the value itself, which may be null"));
        optionalTypes.add(optional);
        return optional;
    }

    private WireType visitRecord(final DeclaredType type, final TypeElement element, final String path, final String pathKind) {
        if (!plainClass(type, element, path, pathKind)) {
            return null;
        }
        final String key = element.getQualifiedName().toString();
        final WireType seen = inProgress.get(key);
        if (seen != null) {
            return seen;
        }
        final List<WireType.Component> components = new ArrayList<>();
        final WireType.RecordType record = new WireType.RecordType(ClassName.get(element), components);
        inProgress.put(key, record);
        boolean ok = true;
        for (final RecordComponentElement component : element.getRecordComponents()) {
            final String componentName = component.getSimpleName().toString();
            final WireType componentType = visit(component.asType(), path + "." + componentName, "field", false);
            ok &= componentType != null;
            components.add(new WireType.Component(componentName, componentType));
        }
        return ok ? record : null;
    }

    private WireType visitWireClass(final DeclaredType type, final TypeElement element, final String path, final String pathKind) {
        if (!plainClass(type, element, path, pathKind)) {
            return null;
        }
        final String key = element.getQualifiedName().toString();
        final WireType seen = inProgress.get(key);
        if (seen != null) {
            return seen;
        }
        final List<WireType.Component> fields = new ArrayList<>();
        final WireType.WireClass wireClass = new WireType.WireClass(ClassName.get(element), Names.codec(element), fields);
        inProgress.put(key, wireClass);
        boolean ok = true;
        final String outerPackage = fromPackage;
        fromPackage = elements.getPackageOf(element).getQualifiedName().toString();
        for (final VariableElement field : sentFields(element)) {
            final WireType fieldType = visit(field.asType(), path + "." + field.getSimpleName(), "field", false);
            ok &= fieldType != null;
            fields.add(new WireType.Component(field.getSimpleName().toString(), fieldType));
        }
        fromPackage = outerPackage;
        return ok ? wireClass : null;
    }

    private boolean editable(final TypeMirror type) {
        return type.getKind() == TypeKind.DECLARED && sources.editable((TypeElement)((DeclaredType)type).asElement());
    }

    private boolean comparable(final TypeMirror type) {
        final TypeElement comparable = elements.getTypeElement("java.lang.Comparable");
        return types.isAssignable(type, types.erasure(comparable.asType()));
    }

    /** Records and @Wire classes the generated code names: not generic, and reachable from its package. */
    private boolean plainClass(final DeclaredType type, final TypeElement element, final String path, final String pathKind) {
        if (!element.getTypeParameters().isEmpty()) {
            fail(path, pathKind, type, "which is generic and cannot be sent; generic records and @Wire classes are not supported, "
                + "use a concrete type");
            return false;
        }
        return accessible(element, type, path, pathKind);
    }

    private boolean accessible(final TypeElement element, final TypeMirror type, final String path, final String pathKind) {
        for (Element e = element; e instanceof TypeElement; e = e.getEnclosingElement()) {
            final boolean isPrivate = e.getModifiers().contains(Modifier.PRIVATE);
            final boolean isPublic = e.getModifiers().contains(Modifier.PUBLIC);
            final boolean samePackage = elements.getPackageOf(e).getQualifiedName().contentEquals(fromPackage);
            if (isPrivate || (!isPublic && !samePackage)) {
                final String fix = sources.editable((TypeElement)e)
                    ? "make `" + ((TypeElement)e).getQualifiedName() + "` " + (isPrivate ? "package-private or public" : "public")
                    : "`" + ((TypeElement)e).getQualifiedName() + "` is not in this compilation; use a supported type instead";
                fail(path, pathKind, type, "which is not visible to the generated code in package `" + fromPackage + "`; " + fix);
                return false;
            }
        }
        return true;
    }

    /** The fields a codec sends: declared, non-static, non-transient, in declaration order. */
    static List<VariableElement> sentFields(final TypeElement element) {
        final List<VariableElement> fields = new ArrayList<>();
        for (final VariableElement field : ElementFilter.fieldsIn(element.getEnclosedElements())) {
            if (!field.getModifiers().contains(Modifier.STATIC) && !field.getModifiers().contains(Modifier.TRANSIENT)) {
                fields.add(field);
            }
        }
        return fields;
    }

    private static TypeKind primitiveKind(final String keyword) {
        return TypeKind.valueOf(keyword.toUpperCase(java.util.Locale.ROOT));
    }

    static String packageOf(final Elements elements, final TypeElement element) {
        final PackageElement pkg = elements.getPackageOf(element);
        return pkg.getQualifiedName().toString();
    }
}
