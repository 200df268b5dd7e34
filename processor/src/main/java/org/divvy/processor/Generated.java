package org.divvy.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;

/** What every generated type carries. */
final class Generated {
    static final AnnotationSpec ANNOTATION = AnnotationSpec.builder(ClassName.get("javax.annotation.processing", "Generated"))
        .addMember("value", "$S", DivvyProcessor.class.getName())
        .build();

    static final ClassName SPAWNER = ClassName.get("org.divvy", "Spawner");
    static final ClassName SPAWNS = ClassName.get("org.divvy.codegen", "Spawns");
    static final ClassName JOB = ClassName.get("org.divvy.codegen", "Job");
    static final ClassName JOB_TYPE = ClassName.get("org.divvy.codegen", "JobType");
    static final ClassName JOB_TYPE_PROVIDER = ClassName.get("org.divvy.codegen", "JobTypeProvider");
    static final ClassName DIVVY_EXCEPTION = ClassName.get("org.divvy", "DivvyException");

    private Generated() {
    }
}
