package org.divvy.processor;

import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

/** Inline sources for processor tests: package {@code p}, Divvy annotations and java.util imported. */
final class Sources {
    static final String HEADER = "package p;\n\nimport java.util.*;\nimport org.divvy.*;\nimport org.divvy.annotations.*;\n\n";

    private Sources() {
    }

    static JavaFileObject source(final String simpleName, final String body) {
        return JavaFileObjects.forSourceString("p." + simpleName, HEADER + body);
    }

    static Compilation compile(final JavaFileObject... sources) {
        return javac().withProcessors(new DivvyProcessor()).compile(sources);
    }

    /** Compiles {@code sources}: it fails with {@code message} on the line of {@code source} holding {@code lineMarker}. */
    static void assertError(final JavaFileObject source, final String message, final String lineMarker, final JavaFileObject... others) {
        final JavaFileObject[] all = new JavaFileObject[others.length + 1];
        all[0] = source;
        System.arraycopy(others, 0, all, 1, others.length);
        final Compilation compilation = compile(all);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining(message).inFile(source).onLine(lineOf(source, lineMarker));
    }

    /** The 1-based line of the first occurrence of {@code text} in {@code source}. */
    static int lineOf(final JavaFileObject source, final String text) {
        final String content;
        try {
            content = source.getCharContent(true).toString();
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        final int at = content.indexOf(text);
        if (at < 0) {
            throw new IllegalArgumentException("`" + text + "` is not in " + source.getName());
        }
        return (int)content.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }
}
