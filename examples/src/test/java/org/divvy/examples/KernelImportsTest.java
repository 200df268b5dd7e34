package org.divvy.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A kernel (every class of an app's package but its {@code *App} launcher class) imports only the JDK,
 * the runtime API ({@code org.divvy.X}, {@code org.divvy.annotations}), the shared simulated work
 * ({@code org.divvy.examples.simulated}) and its own package: it is what a
 * user would write, and it runs on whichever node steals it, so it must not lean on the launcher's CLI.
 */
@Timeout(30)
class KernelImportsTest {
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** The JDK, the runtime API, and the simulated work fib, uts and knapsack share (it runs with their leaves). */
    private static final Pattern ALLOWED = Pattern.compile(
        "java\\..*|org\\.divvy\\.[A-Z]\\w*(\\.\\w+)?|org\\.divvy\\.annotations\\..*|org\\.divvy\\.examples\\.simulated\\..*");

    @Test
    void kernelsShouldImportOnlyTheJdkTheRuntimeApiAndTheirOwnPackage() throws IOException {
        final Path examples = Path.of("src/main/java/org/divvy/examples");
        assertTrue(Files.isDirectory(examples), "run from the examples module: " + examples.toAbsolutePath());
        final List<String> violations = new ArrayList<>();
        int kernels = 0;
        try (Stream<Path> apps = Files.list(examples)) {
            for (final Path app : (Iterable<Path>)apps.filter(Files::isDirectory).filter(p -> !p.endsWith("cli"))::iterator) {
                final String ownPackage = "org.divvy.examples." + app.getFileName();
                try (Stream<Path> files = Files.list(app)) {
                    for (final Path file : (Iterable<Path>)files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                        final String name = file.getFileName().toString();
                        if (name.endsWith("App.java") || name.equals("package-info.java")) {
                            continue;
                        }
                        kernels++;
                        final Matcher m = IMPORT.matcher(Files.readString(file));
                        while (m.find()) {
                            final String imported = m.group(1);
                            if (!ALLOWED.matcher(imported).matches() && !imported.startsWith(ownPackage + ".")) {
                                violations.add(app.getFileName() + "/" + name + " imports " + imported);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(kernels >= 6, "found " + kernels + " kernel classes under " + examples.toAbsolutePath());
        assertEquals(List.of(), violations);
    }
}
