package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the README's configuration table true: every option the node prints in
 * {@link NodeConfig#describe()} has a row with the same property name and default.
 */
@Timeout(30)
class ReadmeConfigurationTableTest {
    private static final Pattern DESCRIBED = Pattern.compile("^\\s+(divvy\\.\\S+)\\s+(.+?)\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\| `(divvy\\.[^`]+)` \\| [^|]+ \\| ([^|]+) \\|");

    @Test
    void shouldListEveryOptionWithItsDefault() throws IOException {
        final Map<String, String> readme = readmeRows();
        final String described = NodeConfig.builder().network(NetworkConfig.builder().build()).build().describe();
        int options = 0;
        for (final String line : described.split("\n")) {
            final Matcher m = DESCRIBED.matcher(line);
            if (!m.matches()) {
                continue;
            }
            options++;
            final String property = m.group(1);
            final String readmeDefault = readme.get(property);
            assertNotNull(readmeDefault, "README.md's configuration table has no row for " + property);
            if (property.equals(NodeConfig.WORKERS_PROPERTY)) {
                assertEquals("available processors", readmeDefault, property);
            } else {
                assertEquals("`" + m.group(2) + "`", readmeDefault, "README.md default of " + property);
            }
        }
        assertTrue(options >= 10, "describe() printed " + options + " options");
        assertEquals(options, readme.size(), "README.md rows " + readme.keySet() + " vs described options");
    }

    private static Map<String, String> readmeRows() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.isDirectory(dir.resolve(".ci")))) {
            dir = dir.getParent();
        }
        assertNotNull(dir, "repository root (with README.md and .ci/) not found above the module");
        final Map<String, String> rows = new LinkedHashMap<>();
        for (final String line : Files.readAllLines(dir.resolve("README.md"))) {
            final Matcher m = ROW.matcher(line);
            if (m.find()) {
                rows.put(m.group(1), m.group(2).trim());
            }
        }
        return rows;
    }
}
