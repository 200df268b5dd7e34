package org.divvy.processor;

import java.util.List;

import javax.lang.model.element.TypeElement;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;

/** The plain records validation produces and generators consume; generators make no decisions. */
final class Model {
    private Model() {
    }

    /** A class with @Spawnable methods, clean, ready to generate. */
    record SpawnableClass(
        TypeElement element,
        ClassName className,
        String binaryName,
        boolean isPublic,
        ClassName spawner,
        ClassName jobs,
        List<SpawnableMethod> methods,
        List<RemoteException> exceptions) {
    }

    /**
     * A user exception class generated code rebuilds when a child on another node threw it: through its
     * {@code (String, Throwable)} constructor when {@code withCause}, else its {@code (String)} one.
     */
    record RemoteException(TypeElement element, ClassName className, String binaryName, boolean withCause) {
    }

    /**
     * One spawnable method. {@code result} is null for {@code void}; {@code guard} is the name of its
     * guard method or null.
     */
    record SpawnableMethod(
        String name, List<Parameter> parameters, boolean isVarArgs, TypeName returnType, WireType result, String guard) {
        String stubName() {
            return Names.stub(name);
        }

        String jobClassName() {
            return Names.jobClass(name);
        }
    }

    /**
     * A parameter: the user's name, the name of the job field holding it (renamed when it would clash
     * with {@code receiver} or a codec argument) and its type.
     */
    record Parameter(String name, String fieldName, TypeName typeName, WireType type) {
    }

    /** A class sent field by field by a generated codec: a @Wire class, or the receiver of spawnables. */
    record CodecClass(TypeElement element, ClassName className, ClassName codec, List<WireType.Component> fields) {
    }

    /**
     * A clean @SharedObject class: its replica subclass mirrors {@code constructors}, ships {@code writes}
     * (method id = index), wraps {@code reads} in the read lock, and sends {@code fields} as the state.
     */
    record SharedClass(
        TypeElement element,
        ClassName className,
        ClassName replica,
        String binaryName,
        List<javax.lang.model.element.ExecutableElement> constructors,
        List<WriteMethod> writes,
        List<javax.lang.model.element.ExecutableElement> reads,
        List<WireType.Component> fields) {
    }

    /** One @Write method: the element it overrides and the wire types of its parameters, in order. */
    record WriteMethod(javax.lang.model.element.ExecutableElement element, List<WireType> parameterTypes) {
    }
}
