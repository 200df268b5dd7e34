package org.divvy.examples.portable;

import java.util.List;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code portable} command: the same program on one node and on N. Children throw a JDK exception,
 * a declared user exception, a {@code @Wire} user exception and an unlisted one, caught by class around
 * {@code sync()}; others take a million-long linked list of records and a ring of {@code @Wire} nodes.
 * PASS when each case reports what it should; an unlisted exception class from another node arrives as a
 * {@code RemoteJobException} naming it (on one node too in checking mode, {@code --check-codecs}).
 */
@Command(name = "portable", mixinStandardHelpOptions = true,
    description = "Exceptions caught by class around sync() and deep or cyclic arguments, from children that "
        + "another worker or node takes; checked case by case.")
public final class PortableApp implements ExampleApp {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--length", paramLabel = "N", description = "cells of the linked list (default: ${DEFAULT-VALUE})")
    int length = 1_000_000;

    @Option(names = "--ring", paramLabel = "N", description = "nodes of the ring (default: ${DEFAULT-VALUE})")
    int ring = 100_000;

    @Option(names = "--hold-ms", paramLabel = "MS",
        description = "how long each case's sibling holds the spawning worker, so its job is taken elsewhere "
            + "(default: ${DEFAULT-VALUE})")
    int holdMs = 500;

    public PortableApp() {
    }

    @Override
    public String name() {
        return "portable";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("--length", length, 1, 10_000_000);
        Options.inRange("--ring", ring, 1, 10_000_000);
        Options.inRange("--hold-ms", holdMs, 0, 60_000);
        if (common.sequential()) {
            throw new IllegalArgumentException("portable has no sequential version: it checks what reaches sync()");
        }
    }

    @Override
    public Problem<String> prepare() {
        validate();
        final int cells = length;
        final int nodes = ring;
        final int hold = holdMs;
        return new Problem<>() {
            @Override
            public Root<String> root() {
                return Root.of(() -> new Portable(hold).spawnRunCases(cells, nodes));
            }

            @Override
            public String solveSequential() {
                throw new UnsupportedOperationException("portable has no sequential version");
            }

            @Override
            public Check check(final String answer) {
                final List<String> expected = expected(cells, nodes);
                final String[] cases = answer.split("; ");
                for (int i = 0; i < expected.size(); i++) {
                    final String got = i < cases.length ? cases[i] : "(missing)";
                    if (!got.equals(expected.get(i)) && !(i == Portable.FAILURES.indexOf("unlisted") && got.equals(UNLISTED_REMOTE))) {
                        return Check.fail("case " + (i + 1) + " reported `" + got + "`, expected `" + expected.get(i) + "`");
                    }
                }
                return Check.pass(expected.size() + " cases as expected");
            }

            @Override
            public String describe(final String answer) {
                return answer;
            }
        };
    }

    /** What the unlisted case reports when its child ran on another node (or in checking mode). */
    static final String UNLISTED_REMOTE = "unlisted: caught RemoteJobException naming Unlisted \"item 7 is not listed\" thrown in failWith";

    /** What each case reports; the unlisted one when its child ran on the same node without checking mode. */
    static List<String> expected(final int cells, final int nodes) {
        return List.of(
            "jdk: caught IllegalStateException \"no value for item 7\" thrown in failWith",
            "declared: caught ItemMissing \"item 7 is missing\" thrown in failWith",
            "wire: caught QuotaExceeded \"quota of 7 exceeded\" thrown in failWith",
            "unlisted: caught Unlisted \"item 7 is not listed\" thrown in failWith",
            "list of " + cells + " cells sums to " + (long)cells * (cells + 1) / 2,
            "ring of " + nodes + " nodes has length " + nodes);
    }
}
