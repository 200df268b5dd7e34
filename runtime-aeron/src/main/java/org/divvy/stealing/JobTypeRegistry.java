package org.divvy.stealing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import org.divvy.DivvyException;
import org.divvy.codegen.ExceptionType;
import org.divvy.codegen.JobType;
import org.divvy.codegen.JobTypeProvider;

/**
 * The job types a node can decode, by name, and the user exception classes it rebuilds: every
 * {@link JobTypeProvider} on the class path
 * (generated {@code *Jobs} classes, registered in {@code META-INF/services}), loaded once per node.
 * Immutable after construction, so any thread may read it.
 */
public final class JobTypeRegistry {
    private final Map<String, JobType> byName;
    private final Map<String, ExceptionType> exceptionTypes;

    private JobTypeRegistry(final Map<String, JobType> byName, final Map<String, ExceptionType> exceptionTypes) {
        this.byName = byName;
        this.exceptionTypes = Map.copyOf(exceptionTypes);
    }

    /** Every provider visible from {@code loader} (the thread's context loader when null). */
    public static JobTypeRegistry load(final ClassLoader loader) {
        final ClassLoader cl = loader != null ? loader :
            Thread.currentThread().getContextClassLoader() != null ? Thread.currentThread().getContextClassLoader() :
                JobTypeRegistry.class.getClassLoader();
        final Map<String, JobType> map = new HashMap<>();
        final Map<String, ExceptionType> exceptions = new HashMap<>();
        for (final JobTypeProvider provider : ServiceLoader.load(JobTypeProvider.class, cl)) {
            add(map, provider.jobTypes());
            for (final ExceptionType type : provider.exceptionTypes()) {
                exceptions.putIfAbsent(type.className(), type); // a class both declared and @Wire is listed twice
            }
        }
        return new JobTypeRegistry(map, exceptions);
    }

    /** Exactly {@code types}, for tests. */
    public static JobTypeRegistry of(final Collection<JobType> types) {
        final Map<String, JobType> map = new HashMap<>();
        add(map, types);
        return new JobTypeRegistry(map, Map.of());
    }

    private static void add(final Map<String, JobType> map, final Collection<JobType> types) {
        for (final JobType type : types) {
            final JobType known = map.putIfAbsent(type.name(), type);
            if (known != null && known.getClass() != type.getClass()) {
                throw new DivvyException("job type `" + type.name() + "` is provided twice, by " + known.getClass().getName() +
                    " and " + type.getClass().getName() + ": two classes on the class path declare the same spawnable");
            }
        }
    }

    /** The type named {@code name}, or null if this node does not know it. */
    public JobType get(final String name) {
        return byName.get(name);
    }

    /**
     * SHA-256 of every type's {@link JobType#wireSignature()}, in name order, and of the names of the user
     * exception classes it rebuilds: the build digest nodes compare
     * when they join. Empty (no bytes) when there are no types: a member that runs no jobs agrees with any run.
     */
    public byte[] digest() {
        if (byName.isEmpty()) {
            return new byte[0];
        }
        try {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byName.keySet().stream().sorted().forEach(name -> {
                sha.update(byName.get(name).wireSignature().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            });
            // the user exceptions a node rebuilds by class are part of the build too
            exceptionTypes.keySet().stream().sorted().forEach(name -> {
                sha.update(("throws " + name).getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            });
            return sha.digest();
        } catch (final NoSuchAlgorithmException e) {
            throw new DivvyException("this JVM has no SHA-256: " + e);
        }
    }

    /** The user exception classes generated code rebuilds, by binary class name. */
    public Map<String, ExceptionType> exceptionTypes() {
        return exceptionTypes;
    }

    public int size() {
        return byName.size();
    }
}
