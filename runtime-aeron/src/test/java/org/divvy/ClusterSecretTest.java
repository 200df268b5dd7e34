package org.divvy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Where a cluster secret comes from, what is refused, and who else may read its file. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ClusterSecretTest {
    private static final String TEXT = "0123456789abcdef0123";

    @Test
    void shouldReadAFileIgnoringOneTrailingLineBreak(@TempDir final Path dir) throws Exception {
        final Path unix = Files.writeString(dir.resolve("unix"), TEXT + "\n");
        final Path windows = Files.writeString(dir.resolve("windows"), TEXT + "\r\n");
        assertArrayEquals(TEXT.getBytes(StandardCharsets.UTF_8), ClusterSecret.fromFile(unix).bytes());
        assertEquals(ClusterSecret.fromFile(unix), ClusterSecret.fromFile(windows));
        assertEquals(ClusterSecret.ofText(TEXT), ClusterSecret.fromFile(unix), "the same secret from a file and as text");
    }

    @Test
    void shouldRefuseAShortSecretOrAMissingFileNamingTheFile(@TempDir final Path dir) throws Exception {
        final Path shortFile = Files.writeString(dir.resolve("short"), "too short");
        final DivvyException tooShort = assertThrows(DivvyException.class, () -> ClusterSecret.fromFile(shortFile));
        assertTrue(tooShort.getMessage().contains(shortFile.toString()) && tooShort.getMessage().contains("at least 16"),
            tooShort.getMessage());
        final DivvyException missing = assertThrows(DivvyException.class,
            () -> ClusterSecret.fromFile(dir.resolve("missing")));
        assertTrue(missing.getMessage().contains("missing"), missing.getMessage());
    }

    @Test
    void shouldTellWhoElseMayReadTheSecretFile(@TempDir final Path dir) throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        final Path file = Files.writeString(dir.resolve("secret"), TEXT);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertNull(ClusterSecret.exposure(file), "only its owner");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertEquals("is readable by its group", ClusterSecret.exposure(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw----r--"));
        assertEquals("is readable by other users", ClusterSecret.exposure(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals("is readable by every user", ClusterSecret.exposure(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw--w----"));
        assertEquals("can be replaced by other users", ClusterSecret.exposure(file));
        assertEquals(ClusterSecret.ofText(TEXT), ClusterSecret.fromFile(file), "still used, with a warning");
    }

    @Test
    void shouldNeverShowTheSecret() {
        final ClusterSecret generated = ClusterSecret.generate();
        assertFalse(generated.toString().contains(generated.text()));
        assertTrue(generated.bytes().length >= ClusterSecret.MIN_BYTES);
        assertFalse(generated.equals(ClusterSecret.generate()));
    }
}
