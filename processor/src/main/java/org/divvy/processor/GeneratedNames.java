package org.divvy.processor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

import com.palantir.javapoet.ClassName;

/**
 * Which annotated class each generated type belongs to. Before anything is generated for a class, its
 * generated names are claimed: a name held by a class of the user's, or already generated for another
 * class, is an error on the annotated class that says which class to rename, so javac never meets a
 * second file for one type ({@code FilerException}) and two classes never share one codec.
 */
final class GeneratedNames {
    private final Map<String, String> owners = new HashMap<>();
    private final SourceTypes sources;
    private final Reporter reporter;

    GeneratedNames(final SourceTypes sources, final Reporter reporter) {
        this.sources = sources;
        this.reporter = reporter;
    }

    /**
     * Claims {@code names} for {@code type}, described as {@code role} in messages ("@Wire `Calc`");
     * returns whether all of them are free (or already this class's).
     */
    boolean claim(final TypeElement type, final String role, final List<ClassName> names) {
        final String owner = type.getQualifiedName().toString();
        boolean free = true;
        for (final ClassName name : names) {
            final String qualified = name.canonicalName();
            if (sources.contains(qualified)) {
                reporter.error(type, role + " needs a generated class named `" + qualified + "`, but `" + qualified
                    + "` is a class of yours; rename `" + name.simpleName() + "` (Divvy generates "
                    + names.stream().map(n -> "`" + n.simpleName() + "`").collect(Collectors.joining(", "))
                    + " for `" + type.getSimpleName() + "`)");
                free = false;
                continue;
            }
            final String previous = owners.get(qualified);
            if (previous != null && !previous.equals(owner)) {
                reporter.error(type, role + " needs a generated class named `" + qualified + "`, which Divvy also generates for `"
                    + previous + "`; rename one of the two classes (a `_` at the start or end of a name makes nested names meet)");
                free = false;
            }
        }
        if (free) {
            for (final ClassName name : names) {
                owners.put(name.canonicalName(), owner);
            }
        }
        return free;
    }

    /** Whether {@code root} is a type Divvy generated (and so not one of the user's classes). */
    boolean isGenerated(final Element root) {
        return root instanceof TypeElement && owners.containsKey(((TypeElement)root).getQualifiedName().toString());
    }
}
