package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

import org.divvy.codegen.Job;
import org.divvy.codegen.JobTypeProvider;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;

/**
 * Test helper: sends a job the way a steal does (encode its receiver and arguments, decode them into
 * a new job) and checks the copy encodes to the same bytes.
 */
public final class WireCopies {
    private WireCopies() {
    }

    /** A decoded copy of {@code job}, checked byte for byte against the original's encoding. */
    @SuppressWarnings("unchecked")
    public static <J extends Job> J copy(final J job) {
        final byte[] bytes = encode(job);
        final WireReader reader = new WireReader(bytes);
        final Job copy = job.type().decode(reader);
        reader.expectEnd();
        assertEquals(job.getClass(), copy.getClass());
        assertArrayEquals(bytes, encode(copy), "the copy encodes to the same bytes");
        return (J)copy;
    }

    private static byte[] encode(final Job job) {
        final WireWriter writer = new WireWriter();
        job.encodeArguments(writer);
        return writer.toByteArray();
    }

    /** The names of every job type found on the class path, as a node finds them. */
    public static Set<String> jobTypeNames() {
        return ServiceLoader.load(JobTypeProvider.class).stream()
            .flatMap(provider -> provider.get().jobTypes().stream())
            .map(type -> type.name())
            .collect(Collectors.toSet());
    }
}
