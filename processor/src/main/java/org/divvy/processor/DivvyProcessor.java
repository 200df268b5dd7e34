package org.divvy.processor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.FilerException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.TypeSpec;

/**
 * The Divvy annotation processor: validates {@code @Spawnable}, {@code @Guard}, {@code @Wire},
 * {@code @SharedObject} and {@code @Write}, reporting every problem as a javac error on its element,
 * then generates, for each clean class, its spawner interface, its jobs and its codecs, and for each
 * clean shared class its replica subclass.
 *
 * <p>Each class is validated whole before anything is generated for it, and one bad class never stops
 * the others. The spawner a class implements does not exist in the first round; it is recognised by
 * name, so no class is ever deferred.
 *
 * <p>Gradle incremental processing: this processor is <em>aggregating</em> (declared in
 * {@code META-INF/gradle/incremental.annotation.processors}), because the
 * {@code META-INF/services/org.divvy.codegen.JobTypeProvider} file it writes combines the jobs classes of
 * every class in the compilation.
 */
@AutoService(Processor.class)
public final class DivvyProcessor extends AbstractProcessor {
    private static final String GENERATED = "javax.annotation.processing.Generated";
    private static final String SERVICES_FILE = "META-INF/services/org.divvy.codegen.JobTypeProvider";

    private final Set<String> processedTypes = new HashSet<>();
    private final Set<String> generatedCodecs = new HashSet<>();
    private final Set<String> jobsClasses = new TreeSet<>();
    private final List<Element> jobsOrigins = new ArrayList<>();
    private SourceTypes sourceTypes;
    private Reporter reporter;
    private GeneratedNames generatedNames;
    private LocalClassScanner localClasses;
    private Filer filer;

    @Override
    public synchronized void init(final ProcessingEnvironment processingEnv) {
        super.init(processingEnv);
        reporter = new Reporter(processingEnv.getMessager());
        sourceTypes = new SourceTypes(processingEnv.getFiler(), processingEnv.getElementUtils());
        generatedNames = new GeneratedNames(sourceTypes, reporter);
        localClasses = LocalClassScanner.create(processingEnv, reporter);
        filer = processingEnv.getFiler();
    }

    /**
     * Divvy's annotations, and {@code javax.annotation.processing.Generated}, which marks the code Divvy
     * generates: claiming it in later rounds keeps {@code -Xlint:all -Werror} builds free of "No processor
     * claimed any of these annotations".
     */
    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of(Annotations.SPAWNABLE, Annotations.GUARD, Annotations.WRITE, TypeAnalyzer.WIRE, TypeAnalyzer.SHARED_OBJECT,
            GENERATED);
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    /**
     * Returns true: the annotations this processor supports are Divvy's own (and the {@code @Generated} on
     * its output), and it claims them, so {@code -Xlint:all -Werror} does not fail on "No processor claimed
     * any of these annotations".
     */
    @Override
    public boolean process(final Set<? extends TypeElement> annotations, final RoundEnvironment round) {
        if (round.processingOver()) {
            writeServicesFile();
            return true;
        }
        for (final Element root : round.getRootElements()) {
            if (root instanceof TypeElement && !generatedNames.isGenerated(root)) {
                sourceTypes.add((TypeElement)root);
                guarded(root, () -> localClasses.scan((TypeElement)root));
            }
        }
        final Set<TypeElement> spawnableClasses = new LinkedHashSet<>();
        for (final Element method : annotated(round, Annotations.SPAWNABLE)) {
            spawnableClasses.add((TypeElement)method.getEnclosingElement());
        }
        for (final Element method : annotated(round, Annotations.GUARD)) {
            spawnableClasses.add((TypeElement)method.getEnclosingElement());
        }
        final DataValidator data = new DataValidator(processingEnv, sourceTypes, reporter);
        for (final Element method : annotated(round, Annotations.WRITE)) {
            guarded(method, () -> data.write((ExecutableElement)method));
        }
        for (final Element type : annotated(round, TypeAnalyzer.SHARED_OBJECT)) {
            guarded(type, () -> {
                if (processedTypes.add("shared:" + type)) {
                    final Model.SharedClass shared = data.sharedObject((TypeElement)type);
                    if (shared != null && generatedNames.claim((TypeElement)type, "@SharedObject `" + type.getSimpleName() + "`",
                        List.of(shared.replica()))) {
                        write(shared.replica().packageName(), SharedObjectGenerator.generate(shared), type);
                    }
                }
            });
        }
        for (final Element type : annotated(round, TypeAnalyzer.WIRE)) {
            guarded(type, () -> {
                if (processedTypes.add("wire:" + type)) {
                    if (data.isException((TypeElement)type)) {
                        final Model.RemoteException exception = data.wireException((TypeElement)type);
                        if (exception != null && generatedNames.claim((TypeElement)type,
                            "@Wire exception `" + type.getSimpleName() + "`", List.of(Names.codec((TypeElement)type)))) {
                            final TypeSpec codec = ExceptionsGenerator.codec(exception);
                            write(Names.packageName((TypeElement)type), codec, type);
                            jobsClasses.add(Names.codec((TypeElement)type).reflectionName());
                            jobsOrigins.add(type);
                        }
                        return;
                    }
                    final Model.CodecClass codec = data.wire((TypeElement)type);
                    if (codec != null && generatedNames.claim((TypeElement)type, "@Wire `" + type.getSimpleName() + "`",
                        List.of(codec.codec()))) {
                        writeCodec(codec);
                    }
                }
            });
        }
        final SpawnableValidator spawnables = new SpawnableValidator(processingEnv, sourceTypes, reporter);
        for (final TypeElement type : spawnableClasses) {
            guarded(type, () -> {
                if (!processedTypes.add("spawnable:" + type.getQualifiedName())) {
                    return;
                }
                final SpawnableValidator.Validated validated = spawnables.validate(type);
                if (validated == null || !generatedNames.claim(type, "class `" + type.getSimpleName() + "` with @Spawnable methods",
                    List.of(validated.spawnable().spawner(), validated.spawnable().jobs(), validated.receiver().codec()))) {
                    return;
                }
                final Model.SpawnableClass model = validated.spawnable();
                write(model.className().packageName(), SpawnerGenerator.generate(model), type);
                write(model.className().packageName(), JobsGenerator.generate(model, validated.receiver()), type);
                writeCodec(validated.receiver());
                jobsClasses.add(model.jobs().reflectionName());
                jobsOrigins.add(type);
            });
        }
        return true;
    }

    private Set<? extends Element> annotated(final RoundEnvironment round, final String annotation) {
        final TypeElement type = processingEnv.getElementUtils().getTypeElement(annotation);
        return type == null ? Set.of() : round.getElementsAnnotatedWith(type);
    }

    private void writeCodec(final Model.CodecClass codec) {
        if (generatedCodecs.add(codec.codec().reflectionName())) {
            write(codec.codec().packageName(), CodecGenerator.generate(codec), codec.element());
        }
    }

    /**
     * Writes one generated type. Names are claimed before generation, so a {@code FilerException} means a
     * type of that name came from somewhere Divvy cannot see (another processor, a stale output); it is
     * still an error on the class, saying what to rename, and never a crash.
     */
    private void write(final String packageName, final TypeSpec type, final Element origin) {
        try {
            JavaFile.builder(packageName, type).skipJavaLangImports(true).indent("    ").build().writeTo(filer);
        } catch (final FilerException e) {
            reporter.error(origin, "Divvy could not generate `" + packageName + "." + type.name() + "` for `" + origin.getSimpleName()
                + "`: another file already defines that type (" + e.getMessage() + "); rename the class that does");
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Javac must never crash on user code: a bug here becomes an error on the class being processed. */
    private void guarded(final Element element, final Runnable work) {
        try {
            work.run();
        } catch (final RuntimeException | StackOverflowError e) {
            reporter.error(element, "Divvy processor failed on `" + element.getSimpleName() + "`: " + e + ", please report");
        }
    }

    /**
     * Writes the service registration once, after the last round. Entries already in the output (an
     * incremental build that recompiles only some classes) are kept.
     */
    private void writeServicesFile() {
        if (jobsClasses.isEmpty()) {
            return;
        }
        final Set<String> entries = new TreeSet<>(jobsClasses);
        try {
            final FileObject existing = filer.getResource(StandardLocation.CLASS_OUTPUT, "", SERVICES_FILE);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(existing.openInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.isBlank() && !line.startsWith("#")) {
                        entries.add(line.trim());
                    }
                }
            }
        } catch (final IOException | RuntimeException e) {
            // No earlier file: the usual case for a full build.
        }
        try {
            final FileObject file = filer.createResource(
                StandardLocation.CLASS_OUTPUT, "", SERVICES_FILE, jobsOrigins.toArray(new Element[0]));
            try (Writer out = file.openWriter()) {
                for (final String entry : entries) {
                    out.write(entry);
                    out.write('\n');
                }
            }
        } catch (final IOException | RuntimeException e) {
            reporter.error(jobsOrigins.get(0), "Divvy processor could not write " + SERVICES_FILE + ": " + e);
        }
    }
}
