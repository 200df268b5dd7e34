/**
 * The Divvy annotation processor. This descriptor makes javac check the module's dependencies when it compiles; the
 * jar that ships (JavaPoet shaded into it, see the pom) leaves it out and is the automatic module of the same name,
 * since the relocated JavaPoet is inside it. Compilers find the processor through
 * {@code META-INF/services/javax.annotation.processing.Processor} (written by AutoService), on the processor path and
 * on the processor module path alike.
 */
@SuppressWarnings("requires-automatic")
module org.divvy.processor {
    requires java.compiler;
    requires jdk.compiler;
    requires org.divvy.annotations;
    requires com.palantir.javapoet;
    requires static com.google.auto.service;

    provides javax.annotation.processing.Processor with org.divvy.processor.DivvyProcessor;
}
