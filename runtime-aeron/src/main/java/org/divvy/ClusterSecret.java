package org.divvy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;

/**
 * The secret every member of one run shares: frames are authenticated with keys derived from it, so a
 * process without it is not heard (see the README's threat model). Never a command-line argument, which
 * {@code ps} shows to every user: {@code divvy run} {@linkplain #generate() makes one} for the nodes it
 * starts and hands it to its child processes in their environment; a run across machines reads it from a
 * file ({@link NodeSettings#SECRET_FILE}) or from the environment variable {@value #ENVIRONMENT_VARIABLE}.
 *
 * <p>At least {@value #MIN_BYTES} bytes; a file's or variable's text is used as it is (one trailing line
 * break ignored), so {@code head -c 32 /dev/urandom | base64 > secret} makes a good one. Immutable.
 */
public final class ClusterSecret {
    /** The environment variable a node reads its secret from when no file is configured. */
    public static final String ENVIRONMENT_VARIABLE = "DIVVY_SECRET";
    /** The shortest secret accepted: 16 bytes (128 bits when random). */
    public static final int MIN_BYTES = 16;
    private static final int GENERATED_BYTES = 32;
    private static final System.Logger LOG = System.getLogger(ClusterSecret.class.getName());

    private final byte[] bytes;
    private final String origin;

    private ClusterSecret(final byte[] bytes, final String origin) {
        if (bytes.length < MIN_BYTES) {
            throw new DivvyException("the cluster secret " + origin + " has " + bytes.length + " bytes, must have at least " +
                MIN_BYTES + ": make one with `head -c 32 /dev/urandom | base64`");
        }
        this.bytes = bytes.clone();
        this.origin = origin;
    }

    /** A new random secret (32 bytes from {@link SecureRandom}), for the nodes of one run. */
    public static ClusterSecret generate() {
        final byte[] random = new byte[GENERATED_BYTES];
        new SecureRandom().nextBytes(random);
        // as hex text, so that it survives an environment variable unchanged
        return new ClusterSecret(HexFormat.of().formatHex(random).getBytes(StandardCharsets.US_ASCII), "(generated)");
    }

    /** Exactly {@code bytes} (at least {@value #MIN_BYTES}). */
    public static ClusterSecret of(final byte[] bytes) {
        return new ClusterSecret(bytes, "(given)");
    }

    /** The text of {@code text} as UTF-8 (at least {@value #MIN_BYTES} bytes). */
    public static ClusterSecret ofText(final String text) {
        return new ClusterSecret(trimLineBreak(text.getBytes(StandardCharsets.UTF_8)), "(given)");
    }

    /**
     * The content of {@code file}; an error that names the file if it cannot be read or is too short. A file
     * other users may read is used, with a warning that says how to fix it (as ssh warns of a key file).
     */
    public static ClusterSecret fromFile(final Path file) {
        final ClusterSecret secret;
        try {
            secret = new ClusterSecret(trimLineBreak(Files.readAllBytes(file)), "in " + file);
        } catch (final IOException e) {
            throw new DivvyException("cannot read the cluster secret file " + file + ": " + e);
        }
        final String exposure = exposure(file);
        if (exposure != null) {
            LOG.log(System.Logger.Level.WARNING, "the cluster secret file " + file + " " + exposure +
                ": anyone who can read or replace it can join, direct or stop your runs; `chmod 600 " + file + "`");
        }
        return secret;
    }

    /**
     * Who besides its owner may read or replace {@code file} ("is readable by its group", ...), or null: nobody,
     * or unknown.
     */
    static String exposure(final Path file) {
        final Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (final IOException | UnsupportedOperationException e) {
            return null; // not a POSIX file system: its access control is not ours to judge
        }
        final boolean group = permissions.contains(PosixFilePermission.GROUP_READ);
        final boolean others = permissions.contains(PosixFilePermission.OTHERS_READ);
        if (group || others) {
            return group && others ? "is readable by every user" : others ? "is readable by other users"
                : "is readable by its group";
        }
        final boolean writable = permissions.contains(PosixFilePermission.GROUP_WRITE) ||
            permissions.contains(PosixFilePermission.OTHERS_WRITE);
        return writable ? "can be replaced by other users" : null;
    }

    /** The secret in {@value #ENVIRONMENT_VARIABLE}, or null if it is not set. */
    public static ClusterSecret fromEnvironment() {
        final String value = System.getenv(ENVIRONMENT_VARIABLE);
        return value == null || value.isEmpty() ? null
            : new ClusterSecret(trimLineBreak(value.getBytes(StandardCharsets.UTF_8)), "in $" + ENVIRONMENT_VARIABLE);
    }

    private static byte[] trimLineBreak(final byte[] raw) {
        int end = raw.length;
        if (end > 0 && raw[end - 1] == '\n') {
            end--;
        }
        if (end > 0 && raw[end - 1] == '\r') {
            end--;
        }
        return end == raw.length ? raw : Arrays.copyOf(raw, end);
    }

    /** A copy of the secret's bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The secret as text, to hand to a child process in {@value #ENVIRONMENT_VARIABLE}. */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Where it came from ("in /etc/divvy/secret", "in $DIVVY_SECRET", "(generated)"); never the secret. */
    public String origin() {
        return origin;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof ClusterSecret other && java.security.MessageDigest.isEqual(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "ClusterSecret[" + origin + "]";
    }
}
