package org.divvy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.aeron.driver.MediaDriver;

/**
 * A test's networked nodes in one JVM over real UDP on 127.0.0.1, each on a free port: every node a client of the one
 * embedded media driver the whole test JVM shares ({@link TestDriver}: small term buffers), and every node the test
 * started closed after it, the newest first. Registered per test instance:
 *
 * <pre>{@code
 * @RegisterExtension
 * final TestCluster cluster = new TestCluster();
 * ...
 * final List<DivvyNode> three = cluster.startJoined(3, i -> cluster.nodeSettings().acceptableHeartbeatPauseMs(300));
 * }</pre>
 */
public final class TestCluster implements BeforeEachCallback, AfterEachCallback {
    /** The term length of the tests' nodes: small, as many nodes share one driver. */
    public static final int TERM_LENGTH_BYTES = 64 * 1024;
    /** How long {@link #startJoined} waits for each node to see them all. */
    private static final Duration MEMBERS_WITHIN = Duration.ofSeconds(15);

    private final List<AutoCloseable> nodes = new ArrayList<>();
    private MediaDriver driver;

    @Override
    public void beforeEach(final ExtensionContext context) {
        driver = context.getRoot().getStore(ExtensionContext.Namespace.create(TestCluster.class))
            .getOrComputeIfAbsent(SharedDriver.class, key -> new SharedDriver(TestDriver.launch()), SharedDriver.class).driver;
    }

    /** Closes the nodes the test started, the newest first; the first failure is thrown, the others added to it. */
    @Override
    public void afterEach(final ExtensionContext context) throws Exception {
        Throwable failure = null;
        for (int i = nodes.size() - 1; i >= 0; i--) {
            try {
                nodes.get(i).close();
            } catch (final Exception | Error e) { // a stepped node's close fails the test if its agent caught errors
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        nodes.clear();
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure instanceof Exception e) {
            throw e;
        }
    }

    /** Networked on the shared driver with small terms, nothing else: what a transport or a standalone registry needs. */
    public NodeConfig.Builder driverSettings() {
        return NodeConfig.builder().networked(true).aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(TERM_LENGTH_BYTES);
    }

    /**
     * A test node's settings: {@link #driverSettings()}, one worker, random stealing (RS), heartbeats every 100 ms and
     * 10 s to join; a test adds what it is about (the acceptable heartbeat pause, sites, another policy).
     */
    public NodeConfig.Builder nodeSettings() {
        return driverSettings().workers(1).policy(StealPolicy.RS).heartbeatIntervalMs(100).joinTimeoutMs(10_000);
    }

    /** Starts a node, closed after the test. */
    public DivvyNode start(final NodeConfig.Builder settings) {
        return add(DivvyNode.start(settings.build()));
    }

    /**
     * Starts node 0 from {@code settings.apply(0)}, hosting the registry, and nodes 1 to count - 1 from theirs, joining
     * it; returns them once each sees all {@code count} (15 s each).
     */
    public List<DivvyNode> startJoined(final int count, final IntFunction<NodeConfig.Builder> settings) {
        final List<DivvyNode> started = new ArrayList<>();
        started.add(start(settings.apply(0).join(null)));
        for (int i = 1; i < count; i++) {
            started.add(start(settings.apply(i).join(started.get(0).endpoint())));
        }
        for (final DivvyNode node : started) {
            node.awaitMembers(count, MEMBERS_WITHIN);
        }
        return List.copyOf(started);
    }

    /** A node the test built itself (a stepped one, say), closed after the test with the others. */
    public <T extends AutoCloseable> T add(final T node) {
        nodes.add(node);
        return node;
    }

    /** The driver of the test JVM, closed when JUnit closes its root context (after the last test). */
    private record SharedDriver(MediaDriver driver) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            driver.close();
        }
    }
}
