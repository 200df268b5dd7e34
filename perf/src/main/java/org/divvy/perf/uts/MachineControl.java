package org.divvy.perf.uts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.cli.ChildCommand;

/**
 * The machine's own limit for the 2-node row: how much work two independent JVMs do at once against one alone, no
 * Divvy network in either. Per kind of work ({@link KernelLoop}) and round: one copy alone, then two at once, each
 * over the same window after the same warm-up; the ratio is the two copies' summed rate over the lone copy's. If two
 * independent processes get only ~1.8x, a 2-node run cannot get more.
 */
final class MachineControl {
    private static final Pattern RATE = Pattern.compile("^rate ([0-9.]+) units/s");

    /**
     * Medians over the rounds.
     *
     * @param alone    the lone copy's rate, units/s
     * @param together each copy's rate when two run at once (the mean of the two), units/s
     * @param ratios   per round: the two copies' sum over the lone copy's rate
     */
    record Result(String kind, double alone, double together, double ratio, double[] ratios) {
    }

    private MachineControl() {
    }

    static Result measure(final String kind, final int rounds, final double warmupS, final double windowS, final PrintStream log) {
        final double[] alone = new double[rounds];
        final double[] together = new double[rounds];
        final double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            final double[] one = run(kind, 1, warmupS, windowS);
            alone[i] = one[0];
            final double[] both = run(kind, 2, warmupS, windowS);
            together[i] = (both[0] + both[1]) / 2;
            ratios[i] = (both[0] + both[1]) / alone[i];
            log.printf(Locale.ROOT, "control %s round %d: alone %.1f M/s; two at once %.1f + %.1f M/s; ratio %.2f "
                    + "(other processes' CPU meanwhile: %.2f and %.2f cores)%n", kind, i + 1,
                alone[i] / 1e6, both[0] / 1e6, both[1] / 1e6, ratios[i], one[1], both[2]);
        }
        return new Result(kind, KernelRate.median(alone), KernelRate.median(together), KernelRate.median(ratios), ratios);
    }

    /**
     * Runs {@code copies} JVMs of {@link KernelLoop} with a common window; returns each one's rate, then the CPU the
     * rest of the machine used meanwhile, in cores.
     */
    private static double[] run(final String kind, final int copies, final double warmupS, final double windowS) {
        final List<Process> processes = new ArrayList<>();
        try {
            for (int c = 0; c < copies; c++) {
                final List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), ChildCommand.ADD_OPENS,
                    "-XX:+UseSerialGC", "-Xms16m", "-cp", System.getProperty("java.class.path"), KernelLoop.class.getName(),
                    kind, Double.toString(warmupS), Double.toString(windowS)));
                processes.add(new ProcessBuilder(command).redirectErrorStream(true).start());
            }
            final List<BufferedReader> outputs = new ArrayList<>();
            for (final Process p : processes) {
                final BufferedReader output = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                outputs.add(output);
                final String line = output.readLine();
                if (!KernelLoop.READY.equals(line)) {
                    throw new IllegalStateException("control " + kind + ": a copy printed " + line + " instead of " + KernelLoop.READY);
                }
            }
            final OtherCpu window = OtherCpu.start();
            for (final Process p : processes) { // every copy is warm: start all windows together
                p.getOutputStream().write('\n');
                p.getOutputStream().flush();
            }
            final double[] rates = new double[copies + 1];
            for (int c = 0; c < copies; c++) {
                final String line = outputs.get(c).readLine(); // a copy that fails prints why and ends: null after it
                final Matcher m = line == null ? null : RATE.matcher(line);
                if (m == null || !m.find()) {
                    throw new IllegalStateException("control " + kind + ": a copy printed " + line + " instead of its rate");
                }
                rates[c] = Double.parseDouble(m.group(1));
            }
            rates[copies] = OtherCpu.coresSince(window);
            for (final Process p : processes) {
                p.getOutputStream().close();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("control " + kind + ": a copy did not end");
                }
            }
            return rates;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start a control copy", e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }
}
