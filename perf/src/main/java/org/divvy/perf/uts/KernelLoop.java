package org.divvy.perf.uts;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.examples.uts.Counts;
import org.divvy.examples.uts.Uts;
import org.divvy.examples.uts.UtsSequential;
import org.divvy.examples.uts.UtsTree;

/**
 * One copy of a CPU-bound loop in its own JVM, for the machine's control of the 2-node row ({@link MachineControl}):
 * {@code KernelLoop KIND WARMUP_S WINDOW_S}. It repeats one chunk of work (KIND: {@code sequential}, the
 * UTS kernel on the {@code -d 11} T1 tree; {@code divvy}, the same tree on a single node with one Divvy worker, no
 * network; {@code sha1}, 2^20 JDK SHA-1 digests of 24 bytes; {@code int}, 2^24 steps of integer arithmetic) for
 * WARMUP_S seconds untimed, prints {@value #READY} and waits for a line on its standard input (the parent sends it
 * once every copy is ready, so copies in separate JVMs compute at the same time), then counts the
 * chunks that end inside the window and prints {@code rate R units/s chunks C} (a unit is a tree node, a digest or an
 * arithmetic step), then waits for its standard input to close. A chunk takes 0.1-0.4 s, so the window's edges cost little.
 */
public final class KernelLoop {
    /** A chunk's tree: T1 ({@code -t 1 -a 3 -b 4 -r 19}) at depth 11, 16.5 M nodes. */
    static final int CHUNK_DEPTH = 11;
    /** Printed once warm; the window starts at the next line on the standard input. */
    static final String READY = "ready";

    private KernelLoop() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: KernelLoop sequential|divvy|sha1|int WARMUP_S WINDOW_S");
            System.exit(2);
        }
        final String kind = args[0];
        final double warmupS = Double.parseDouble(args[1]);
        final double windowS = Double.parseDouble(args[2]);
        final UtsTree tree = UtsMain.geometric(CHUNK_DEPTH);
        try (DivvyNode node = "divvy".equals(kind) ? DivvyNode.start(NodeConfig.builder().workers(1).build()) : null) {
            final Chunk chunk = chunk(kind, tree, node);
            final long warmupEndNs = System.nanoTime() + (long)(warmupS * 1e9);
            while (System.nanoTime() - warmupEndNs < 0) {
                chunk.run();
            }
            System.out.println(READY);
            System.out.flush();
            if (System.in.read() < 0) {
                return; // the parent went away
            }
            final long startNs = System.nanoTime();
            final long endNs = startNs + (long)(windowS * 1e9);
            long units = 0;
            int chunks = 0;
            long lastNs = startNs;
            while (true) {
                final long u = chunk.run();
                final long nowNs = System.nanoTime();
                if (nowNs - endNs > 0) {
                    break;
                }
                units += u;
                chunks++;
                lastNs = nowNs;
            }
            if (chunks == 0) {
                System.out.println("no chunk ended inside the " + windowS + " s window");
                System.exit(1);
            }
            System.out.printf(Locale.ROOT, "rate %.1f units/s chunks %d%n", units / ((lastNs - startNs) / 1e9), chunks);
            System.out.flush();
            System.in.read(); // alive until the parent has read every copy's CPU time
        }
    }

    /** One chunk of work; returns its units. */
    interface Chunk {
        long run();
    }

    private static Chunk chunk(final String kind, final UtsTree tree, final DivvyNode node) throws NoSuchAlgorithmException {
        switch (kind) {
            case "sequential": {
                final Counts expected = UtsSequential.search(tree);
                return () -> check(UtsSequential.search(tree), expected);
            }
            case "divvy": {
                final Counts expected = UtsSequential.search(tree);
                return () -> check(node.run(new Uts(tree, 6).searchTree()).value(), expected);
            }
            case "sha1": {
                final MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
                final byte[] message = new byte[24];
                final byte[] digest = new byte[20];
                return () -> {
                    for (int i = 0; i < (1 << 20); i++) {
                        sha1.update(message, 0, 24);
                        try {
                            sha1.digest(digest, 0, 20);
                        } catch (final java.security.DigestException e) {
                            throw new IllegalStateException(e);
                        }
                        message[i & 15] ^= digest[0]; // each digest depends on the last: nothing to hoist
                    }
                    return 1 << 20;
                };
            }
            case "int": {
                final long[] state = {0x9E3779B97F4A7C15L};
                return () -> {
                    long x = state[0];
                    for (int i = 0; i < (1 << 24); i++) {
                        x = x * 0x5851F42D4C957F2DL + i; // a multiply chain: each step needs the last
                        x ^= x >>> 33;
                    }
                    state[0] = x; // kept, so the loop is not dead code
                    return 1 << 24;
                };
            }
            default:
                throw new IllegalArgumentException("kind=" + kind + ", must be sequential, divvy, sha1 or int");
        }
    }

    private static long check(final Counts answer, final Counts expected) {
        if (!answer.equals(expected)) {
            throw new IllegalStateException("counted " + answer + ", expected " + expected);
        }
        return answer.nodes();
    }
}
