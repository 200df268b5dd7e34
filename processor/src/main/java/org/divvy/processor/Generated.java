package org.divvy.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;

/** What every generated type carries. */
final class Generated {
    static final AnnotationSpec ANNOTATION = AnnotationSpec.builder(ClassName.get("javax.annotation.processing", "Generated"))
        .addMember("value", "$S", DivvyProcessor.class.getName())
        .build();

    static final ClassName SPAWNER = ClassName.get("org.divvy", "Spawner");
    static final ClassName SPAWNS = ClassName.get("org.divvy.scheduling", "Spawns");
    static final ClassName JOB = ClassName.get("org.divvy.scheduling", "Job");
    static final ClassName JOB_TYPE = ClassName.get("org.divvy.wire", "JobType");
    static final ClassName JOB_TYPE_PROVIDER = ClassName.get("org.divvy.wire", "JobTypeProvider");
    static final ClassName DIVVY_EXCEPTION = ClassName.get("org.divvy", "DivvyException");

    private Generated() {
    }
}
