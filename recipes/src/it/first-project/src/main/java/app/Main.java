package app;

import java.time.Duration;

import org.divvy.ClusterSecret;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;

/** Runs Fib on one node, then on two networked nodes in this JVM, and checks each answer. */
public final class Main {
    private static final int N = 22;
    private static final long EXPECTED = 17711;

    public static void main(String[] args) {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(2).build())) {
            check("1 node", node.run(() -> new Fib().fib(N)).value());
        }
        ClusterSecret secret = ClusterSecret.generate();
        try (DivvyNode first = DivvyNode.start(NodeConfig.builder().workers(1).networked(true).secret(secret).build());
             DivvyNode second = DivvyNode.start(NodeConfig.builder().workers(1).networked(true).secret(secret)
                 .join(first.endpoint()).build())) {
            first.awaitMembers(2, Duration.ofSeconds(15));
            second.awaitMembers(2, Duration.ofSeconds(15));
            check("2 nodes", first.run(() -> new Fib().fib(N)).value());
        }
    }

    private static void check(String where, long value) {
        System.out.println("fib(" + N + ") on " + where + ": " + value + (value == EXPECTED ? " PASS" : " FAIL"));
        if (value != EXPECTED) {
            throw new AssertionError("fib(" + N + ") on " + where + " = " + value + ", expected " + EXPECTED);
        }
    }
}
