package org.divvy.examples.portable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.LongSpawn;
import org.divvy.RemoteJobException;
import org.divvy.SpawnFailedException;
import org.divvy.annotations.Spawnable;

/**
 * The portable program: {@link #runCases} runs each case in turn, the whole as one spawnable, so it is a run's
 * root that another node can run again. Each case spawns its job first and then a sibling that holds the spawning worker for {@code holdMs}, so
 * the job, the oldest, is taken by an idle worker or, on several nodes, stolen by another node; then it
 * syncs and reports what arrived, in words that do not depend on where the job ran.
 */
public class Portable implements PortableSpawner {
    /** The failure cases, in the order they run. */
    static final List<String> FAILURES = List.of("jdk", "declared", "wire", "unlisted");

    int holdMs;

    public Portable() {
    }

    public Portable(final int holdMs) {
        this.holdMs = holdMs;
    }

    /**
     * Every case, in order: the failure cases, a list of {@code cells} cells, a ring of {@code ringNodes} nodes;
     * their reports joined by {@code "; "}.
     */
    @Spawnable
    public String runCases(final int cells, final int ringNodes) {
        final List<String> cases = new ArrayList<>();
        for (final String kind : FAILURES) {
            cases.add(failureCase(kind));
        }
        cases.add(deepListCase(cells));
        cases.add(ringCase(ringNodes));
        return String.join("; ", cases);
    }

    @Spawnable
    public long failWith(final String kind, final int item) throws ItemMissing {
        switch (kind) {
            case "jdk" -> throw new IllegalStateException("no value for item " + item);
            case "declared" -> throw new ItemMissing("item " + item + " is missing");
            case "wire" -> throw new QuotaExceeded("quota of " + item + " exceeded", null);
            case "unlisted" -> throw new Unlisted("item " + item + " is not listed");
            default -> throw new IllegalArgumentException("no case " + kind);
        }
    }

    @Spawnable
    public long hold(final int ms) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
        return 0;
    }

    @Spawnable
    public long sum(final Cell head) {
        long sum = 0;
        for (Cell c = head; c != null; c = c.next()) {
            sum += c.value();
        }
        return sum;
    }

    /** The nodes of a ring, or -1 if following {@code next} does not come back to {@code start} within {@code limit}. */
    @Spawnable
    public long ringLength(final Ring start, final int limit) {
        long length = 1;
        for (Ring r = start.next; r != start; r = r.next) {
            if (r == null || ++length > limit) {
                return -1;
            }
        }
        return length;
    }

    /** A child throws the exception of {@code kind}; the parent catches it by class around sync(). */
    String failureCase(final String kind) {
        spawnFailWith(kind, 7);
        spawnHold(holdMs);
        try {
            sync();
            return kind + ": no exception";
        } catch (final IllegalStateException e) {
            return kind + ": caught IllegalStateException " + describe(e);
        } catch (final QuotaExceeded e) {
            return kind + ": caught QuotaExceeded " + describe(e);
        } catch (final Unlisted e) {
            return kind + ": caught Unlisted " + describe(e);
        } catch (final RemoteJobException e) {
            final String simpleName = e.remoteClassName().substring(e.remoteClassName().lastIndexOf('.') + 1);
            return kind + ": caught RemoteJobException naming " + simpleName + " \"" + e.remoteMessage() + "\""
                + (e.remoteStackTrace().contains(".failWith(") ? " thrown in failWith" : " thrown elsewhere");
        } catch (final SpawnFailedException e) { // carries a checked exception, which sync() cannot declare
            if (e.getCause() instanceof ItemMissing missing) {
                return kind + ": caught ItemMissing " + describe(missing);
            }
            return kind + ": caught " + e;
        }
    }

    private static String describe(final Throwable e) {
        final StackTraceElement[] frames = e.getStackTrace();
        return "\"" + e.getMessage() + "\"" + (frames.length > 0 && frames[0].getMethodName().equals("failWith")
            ? " thrown in failWith" : " thrown elsewhere");
    }

    /** A child sums a linked list of {@code length} records. */
    String deepListCase(final int length) {
        Cell head = null;
        for (int i = 1; i <= length; i++) {
            head = new Cell(i, head);
        }
        final LongSpawn sum = spawnSum(head);
        spawnHold(holdMs);
        sync();
        return "list of " + length + " cells sums to " + sum.get();
    }

    /** A child walks a ring of {@code size} @Wire nodes back to its start. */
    String ringCase(final int size) {
        final LongSpawn length = spawnRingLength(Ring.of(size), size);
        spawnHold(holdMs);
        sync();
        return "ring of " + size + " nodes has length " + length.get();
    }
}
