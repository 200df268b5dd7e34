package org.divvy.perf.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The faults section's {@code --app}: another simulated tree in every scenario's command, never real work. */
class FaultsSettingsTest {

    @Test
    void shouldRunTheGivenAppInsteadOfFib() {
        final FaultsMain.Settings s = FaultsMain.parse(new String[] {"--app",
            "uts --tree T1 --spawn-depth 6 --simulate-leaf-us 28000 --progress-seconds 0"});
        final List<String> args = s.divvyArgs(Scenario.named("3sites"), 100, Double.NaN);
        assertEquals(List.of("uts", "--tree", "T1", "--spawn-depth", "6", "--simulate-leaf-us", "28000",
            "--progress-seconds", "0"), args.subList(args.size() - 9, args.size()), String.join(" ", args));
        assertTrue(args.containsAll(List.of("--nodes", "7", "--timeout-seconds", "100")), String.join(" ", args));
    }

    @Test
    void shouldRunFibWithoutApp() {
        final List<String> args = FaultsMain.parse(new String[0]).divvyArgs(Scenario.named("4sites"), 100, Double.NaN);
        assertEquals(List.of("fib", "-n", "35", "--threshold", "16", "--simulate-leaf-us", "20000", "--progress-seconds", "0"),
            args.subList(args.size() - 9, args.size()));
    }

    @Test
    void shouldPutEachSiteInOneProcessWhenAsked() {
        final FaultsMain.Settings s = FaultsMain.parse(new String[] {"--nodes-per-site", "8", "--site-per-process"});
        final List<String> args = s.divvyArgs(Scenario.named("kill-site"), 100, 20);
        final int at = args.indexOf("--nodes-per-process");
        assertTrue(at > 0 && args.get(at + 1).equals("8"), String.join(" ", args));
        assertTrue(args.containsAll(List.of("--nodes", "33", "--sites", "R:1,A:8,B:8,C:8,D:8")), String.join(" ", args));
        assertEquals(1, s.processesPerSite(), "the harness kills one process per site");
        final FaultsMain.Settings apart = FaultsMain.parse(new String[] {"--nodes-per-site", "8"});
        assertFalse(apart.divvyArgs(Scenario.named("kill-site"), 100, 20).contains("--nodes-per-process"));
        assertEquals(8, apart.processesPerSite());
    }

    @Test
    void shouldRefuseAnAppThatDoesNotSimulateItsLeaves() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> FaultsMain.parse(new String[] {"--app", "uts --tree T1"}));
        assertEquals("--app 'uts --tree T1' must simulate its leaves (--simulate-leaf-us US)", e.getMessage());
    }
}
