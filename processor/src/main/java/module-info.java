/**
 * The Divvy annotation processor. Compilers find it through {@code provides} on the module path and
 * through {@code META-INF/services/javax.annotation.processing.Processor} (written by AutoService) on the
 * class path or processor path.
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
