package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The table itself: every row complete and consistent, and NodeConfig's typed methods bound to the right row. */
@Timeout(10)
class NodeSettingsTest {
    /** The default depends on the machine. */
    private static final int NOT_THE_DEFAULT_WORKERS = Runtime.getRuntime().availableProcessors() == 1 ? 2 : 1;

    /** A valid value other than the default, per row; a new row needs one here. */
    private static final Map<String, Object> SAMPLES = Map.ofEntries(
        Map.entry("workers", NOT_THE_DEFAULT_WORKERS), Map.entry("idleSpinCount", 7), Map.entry("idleYieldCount", 3),
        Map.entry("idleParkMinNs", 2_000L), Map.entry("idleParkMaxNs", 2_000_000L), Map.entry("idleDeepParkNs", 60_000_000L),
        Map.entry("workerStackSizeBytes", 1L << 20), Map.entry("checkCodecs", true), Map.entry("networked", true), Map.entry("bind", "10.0.0.1"),
        Map.entry("port", 40123), Map.entry("join", "10.0.0.5:40123"), Map.entry("site", "B"),
        Map.entry("policy", StealPolicy.RS), Map.entry("aeronDirectory", "/dev/shm/aeron-shared"),
        Map.entry("secretFile", "/etc/divvy/secret"), Map.entry("orphanSaving", false), Map.entry("resultCopyMinMs", 0L),
        Map.entry("termLengthBytes", 128 * 1024), Map.entry("heartbeatIntervalMs", 50L), Map.entry("acceptableHeartbeatPauseMs", 3_000L),
        Map.entry("failurePhiThreshold", 10),
        Map.entry("maxInboundStreams", 16),
        Map.entry("maxMessageBytes", 64 << 20), Map.entry("maxOutboundBytesPerPeer", 2L << 30),
        Map.entry("maxReassemblyBytes", 3L << 30),
        Map.entry("joinTimeoutMs", 5_000L), Map.entry("joinRetryIntervalMs", 100L), Map.entry("deepIdleAfterMs", 500L),
        Map.entry("deepIdleParkMs", 50L), Map.entry("deepIdleRunParkMs", 5L), Map.entry("idlePublicationCloseMs", 2_000L), Map.entry("deepIdleStealBackoffMs", 300L), Map.entry("deepIdleVictimHoldMs", 2_000L),
        Map.entry("peerRoutes", Map.of("127.0.0.1:21001", "127.0.0.1:40000", "127.0.0.1:21002", "127.0.0.1:40001")),
        Map.entry("sharedWriteCombiningMs", 100L), Map.entry("guardWaitMs", 50L), Map.entry("guardFetch", false),
        Map.entry("replicaFetchTimeoutMs", 500L), Map.entry("maxSharedInboxBytes", 1L << 20));

    @Test
    void everyConstantShouldBeARowOfAllInDeclarationOrder() throws IllegalAccessException {
        final List<Setting<?>> declared = new ArrayList<>();
        for (final Field f : NodeSettings.class.getDeclaredFields()) {
            if (f.getType() == Setting.class && Modifier.isStatic(f.getModifiers()) && Modifier.isPublic(f.getModifiers())) {
                declared.add((Setting<?>)f.get(null));
            }
        }
        assertEquals(declared, NodeSettings.ALL);
    }

    @Test
    void everyRowShouldHaveAUniqueCamelCaseNameAndDerivedPropertyAndFlag() {
        final var names = new HashSet<String>();
        for (final Setting<?> s : NodeSettings.ALL) {
            assertTrue(names.add(s.name()), "twice: " + s.name());
            assertTrue(s.name().matches("[a-z][A-Za-z0-9]*"), s.name());
            assertEquals("divvy." + s.name(), s.property());
            assertTrue(s.flag().matches("--[a-z0-9]+(-[a-z0-9]+)*"), s.flag());
            assertEquals(s.name().toLowerCase(), s.flag().substring(2).replace("-", ""));
            assertTrue(!s.description().isBlank() && !s.description().contains("\n"), s.name());
        }
        assertEquals("--acceptable-heartbeat-pause-ms", NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS.flag());
        assertEquals("divvy.acceptableHeartbeatPauseMs", NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS.property());
        assertEquals("MS", NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS.valueLabel());
        assertEquals("BYTES", NodeSettings.TERM_LENGTH_BYTES.valueLabel());
        assertEquals("RS|CRS|LCRS", NodeSettings.POLICY.valueLabel());
    }

    @Test
    void everyConstantsJavadocShouldNameItsPropertyAndFlag() throws java.io.IOException {
        final String source = java.nio.file.Files.readString(java.nio.file.Path.of("src/main/java/org/divvy/NodeSettings.java"));
        for (final Setting<?> s : NodeSettings.ALL) {
            final String declaration = "(\"" + s.name() + "\"";
            final int at = source.indexOf(declaration);
            assertTrue(at > 0, s.name());
            final String javadoc = source.substring(source.lastIndexOf("/**", at), at);
            assertTrue(javadoc.contains("Property {@code " + s.property() + "}, flag {@code " + s.flag() + "}."),
                s.name() + "'s Javadoc should say: Property {@code " + s.property() + "}, flag {@code " + s.flag() + "}.");
        }
    }

    @Test
    void everyDefaultShouldPassItsOwnCheck() {
        for (final Setting<?> s : NodeSettings.ALL) {
            assertNull(violationOfDefault(s), s.name());
        }
    }

    private static <T> String violationOfDefault(final Setting<T> s) {
        return s.violation(s.defaultValue());
    }

    @Test
    void everyRowShouldHaveATypedGetterAndBuilderMethodBoundToIt() throws ReflectiveOperationException {
        assertEquals(SAMPLES.keySet(), new HashSet<>(NodeSettings.ALL.stream().map(Setting::name).toList()));
        for (final Setting<?> s : NodeSettings.ALL) {
            final Object sample = SAMPLES.get(s.name());
            assertNotEquals(s.defaultValue(), sample, s.name());
            final Method getter = NodeConfig.class.getMethod(s.name());
            final Class<?> type = getter.getReturnType();
            final Method setter = NodeConfig.Builder.class.getMethod(s.name(), type);
            final NodeConfig.Builder builder = NodeConfig.builder().networked(true);
            final NodeConfig config = ((NodeConfig.Builder)setter.invoke(builder, sample)).build();
            assertEquals(sample, config.get(s), s.name() + ": the builder method sets its own row");
            assertEquals(sample, getter.invoke(config), s.name() + ": the getter reads its own row");
        }
    }

    @Test
    void everySampleShouldSurviveTheTripThroughItsPropertyText() {
        for (final Setting<?> s : NodeSettings.ALL) {
            final Properties p = new Properties();
            p.setProperty("divvy.networked", "true");
            p.setProperty(s.property(), formatSample(s));
            assertEquals(SAMPLES.get(s.name()), NodeConfig.fromProperties(p).get(s), s.name());
        }
    }

    private static <T> String formatSample(final Setting<T> s) {
        return s.format(s.cast(SAMPLES.get(s.name())));
    }
}
