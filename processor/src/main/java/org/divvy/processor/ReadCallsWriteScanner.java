package org.divvy.processor;

import java.util.Set;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ExecutableElement;

import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;

/**
 * Finds a method of a @SharedObject class that is not @Write but calls one of its @Write methods on its own
 * object ({@code offer(v)} or {@code this.offer(v)}): the replica subclass runs it under the replica's read
 * lock, and a read cannot become a write (it would wait for itself). Reported on the call. Needs javac's tree
 * API; elsewhere it finds nothing.
 */
final class ReadCallsWriteScanner {
    private final Trees trees;
    private final Reporter reporter;

    private ReadCallsWriteScanner(final Trees trees, final Reporter reporter) {
        this.trees = trees;
        this.reporter = reporter;
    }

    static ReadCallsWriteScanner create(final ProcessingEnvironment env, final Reporter reporter) {
        try {
            return new ReadCallsWriteScanner(Trees.instance(env), reporter);
        } catch (final IllegalArgumentException | LinkageError e) {
            return new ReadCallsWriteScanner(null, reporter);
        }
    }

    /** Reports each call of a method named in {@code writes} inside {@code read}; returns whether it found one. */
    boolean check(final String sharedClass, final ExecutableElement read, final Set<String> writes) {
        if (trees == null) {
            return false;
        }
        final TreePath path = trees.getPath(read);
        if (path == null) {
            return false;
        }
        final boolean[] found = new boolean[1];
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitMethodInvocation(final MethodInvocationTree call, final Void unused) {
                final Tree select = call.getMethodSelect();
                String name = null;
                if (select instanceof IdentifierTree id) {
                    name = id.getName().toString();
                } else if (select instanceof MemberSelectTree member && member.getExpression() instanceof IdentifierTree target
                    && target.getName().contentEquals("this")) {
                    name = member.getIdentifier().toString();
                }
                if (name != null && writes.contains(name)) {
                    found[0] = true;
                    reporter.error(trees, call, path.getCompilationUnit(), "method `" + read.getSimpleName() + "` of @SharedObject `"
                        + sharedClass + "` calls @Write `" + name + "`, but it is not @Write itself: it runs under the replica's read "
                        + "lock, and a read cannot become a write; mark `" + read.getSimpleName() + "` @Write (the write it calls is "
                        + "then applied with it, not shipped again) or call `" + name + "` from outside the shared object");
                }
                return super.visitMethodInvocation(call, unused);
            }
        }.scan(path, null);
        return found[0];
    }
}
