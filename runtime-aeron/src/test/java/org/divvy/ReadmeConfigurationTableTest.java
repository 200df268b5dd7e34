package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the README's configuration table true: it must be exactly the table {@link NodeSettings}
 * gives, one row per setting with its name, property, flag, type, default and description. On a
 * mismatch the failure prints the whole table to paste into README.md.
 */
@Timeout(30)
class ReadmeConfigurationTableTest {
    static final String HEADER = "| setting | property (`-D`) | flag | type | default | meaning |";

    /** The README rows the table gives. */
    static List<String> expectedRows() {
        final List<String> rows = new ArrayList<>();
        for (final Setting<?> s : NodeSettings.ALL) {
            assertFalse(s.description().contains("|"), s.name() + "'s description would split its README row");
            rows.add("| `" + s.name() + "` | `" + s.property() + "` | `" + s.flag() + "` | " + s.typeName() + " | " +
                readmeDefault(s) + " | " + s.description() + " |");
        }
        return rows;
    }

    /** A value in code style; words (a default that depends on the machine) as plain text. */
    private static <T> String readmeDefault(final Setting<T> s) {
        final String text = s.defaultText();
        return text.equals(s.format(s.defaultValue())) ? "`" + text + "`" : text;
    }

    @Test
    void shouldBeExactlyTheTableOfNodeSettings() throws IOException {
        final List<String> readme = readmeRows();
        final List<String> expected = expectedRows();
        assertEquals(String.join("\n", expected), String.join("\n", readme),
            "README.md's configuration table differs from NodeSettings; the table should read:\n\n" + HEADER +
                "\n|---|---|---|---|---|---|\n" + String.join("\n", expected) + "\n");
    }

    private static List<String> readmeRows() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.isDirectory(dir.resolve(".ci")))) {
            dir = dir.getParent();
        }
        assertNotNull(dir, "repository root (with README.md and .ci/) not found above the module");
        final List<String> lines = Files.readAllLines(dir.resolve("README.md"));
        final int header = lines.indexOf(HEADER);
        final List<String> rows = new ArrayList<>();
        for (int i = header + 2; header >= 0 && i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(lines.get(i));
        }
        return rows;
    }
}
