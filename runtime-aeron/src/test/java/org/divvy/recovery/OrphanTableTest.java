package org.divvy.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.agent.FrameDispatcher;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.LongJob;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.Members;
import org.divvy.protocol.FrameCounters;
import org.divvy.results.ForeignJobs;
import org.divvy.results.GivenJobs;
import org.divvy.results.RemoteExceptions;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.testing.NumberJob;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The orphan table's rules, on one node's {@link Orphans} with frames handed to it: which holder a stamp is looked
 * up at when two announce it, what a node that leaves announces, and that a stamp is reused only for the job it was
 * kept for (its fingerprint). Found by perf's faults section: a leaving
 * node's own announcement of what it then handed over reached the others first, and was dropped with it when it
 * left, so the results the taker held were recomputed (36% of the kept orphans reused in a migration).
 */
class OrphanTableTest {
    private static final int SELF = 5;
    private static final int LEAVER = 3;
    private static final int TAKER = 1;

    private final Members members = new Members("A");
    private final RecordingFrameSender sender = new RecordingFrameSender();
    private final FrameDispatcher dispatcher = new FrameDispatcher(new FrameCounters(), members, e -> {
        throw new AssertionError("a handler threw", e);
    });
    private final OrphanTuplesFlyweight tuples = new OrphanTuplesFlyweight();
    private Scheduler scheduler;
    private CodecThread codec;
    private Orphans orphans;

    @BeforeEach
    void start() {
        scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "orphan-table");
        codec = new CodecThread("orphan-table-codec", Throwable::printStackTrace);
        members.selfId(SELF);
        for (final int id : new int[] {TAKER, LEAVER, SELF}) {
            members.update(new Member(id, "A", "127.0.0.1:" + (40_000 + id), MemberState.ALIVE));
        }
        final GivenJobs given = new GivenJobs(scheduler, members, sender, codec, new RemoteExceptions(Map.of()), 0);
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, 0, 0);
        orphans = new Orphans(scheduler, members, sender, given, foreign, true, () -> false);
        orphans.onJoined(SELF);
        orphans.register(dispatcher);
    }

    @AfterEach
    void stop() {
        codec.close();
        scheduler.close();
    }

    @Test
    void shouldLookAStampUpAtTheTakerWhenTheLeaverAnnouncedItFirstAndThenLeft() {
        final Stamp stamp = Stamp.fromByteArray(new byte[] {1, 0, 0, 0, 1});
        announce(LEAVER, stamp); // the leaver kept it while unwinding, and its broadcast arrives first
        announce(TAKER, stamp); // the taker announces what it was handed over
        leave(LEAVER);
        assertEquals(Map.of(stamp, TAKER), table(), "the stamp is still held, by the taker");
    }

    @Test
    void shouldForgetAStampWhoseOnlyHolderLeft() {
        final Stamp stamp = Stamp.fromByteArray(new byte[] {2, 1});
        announce(LEAVER, stamp);
        leave(LEAVER);
        assertEquals(Map.of(), table(), "nobody holds it: a restarted job with this stamp is computed");
    }

    /**
     * A stamp names a place in the spawn tree; a parent whose split depends on shared state or randomness spawns
     * another job at the same place when it reruns (SAT share's branching variable). Its result must not be reused.
     */
    @Test
    void shouldAskTheHolderOnlyForARestartedJobWithTheKeptJobsFingerprint() {
        final Stamp stamp = Stamp.ROOT; // a job without parent or remote stamp has the root's stamp
        announce(TAKER, stamp, fingerprint(new NumberJob(NumberJob.TYPE, 7)));
        assertFalse(orphans.fetchFromHolder(new NumberJob(NumberJob.TYPE, 8)), "same stamp, other arguments: computed here");
        assertFalse(orphans.fetchFromHolder(new NumberJob(OTHER_TYPE, 7)), "same stamp and arguments, other job type: computed here");
        assertEquals(2, orphans.fingerprintMismatches());
        assertTrue(orphans.fetchFromHolder(new NumberJob(NumberJob.TYPE, 7)), "same stamp, same job: its result is asked for");
        assertEquals(2, orphans.fingerprintMismatches());
    }

    @Test
    void shouldCopyAResultHeldHereOnlyIntoARestartedJobWithTheKeptJobsFingerprint() throws Throwable {
        final Stamp stamp = Stamp.ROOT;
        final NumberJob kept = new NumberJob(NumberJob.TYPE, 7);
        kept.readResult(new WireReader().wrap(new UnsafeBuffer(new byte[] {49, 0, 0, 0, 0, 0, 0, 0}), 0, 8));
        orphans.keepHandedOver(stamp, kept);
        final NumberJob other = new NumberJob(NumberJob.TYPE, 8);
        assertFalse(orphans.fetchFromHolder(other), "held here: not asked for");
        assertFalse(orphans.copyHeldResult(other), "same stamp, other arguments: computed here");
        assertEquals(1, orphans.fingerprintMismatches());
        final NumberJob same = new NumberJob(NumberJob.TYPE, 7);
        assertTrue(orphans.copyHeldResult(same), "same stamp, same job: the result held here is copied");
        assertEquals(kept.boxedResult(), same.boxedResult());
        assertEquals(1, orphans.copiedHere());
        assertEquals(1, orphans.fingerprintMismatches());
    }

    @Test
    void shouldAnnounceAndSendTheFingerprintOfWhatItKeeps() {
        final Stamp stamp = Stamp.fromByteArray(new byte[] {4, 2});
        final NumberJob kept = new NumberJob(NumberJob.TYPE, 7);
        orphans.keepHandedOver(stamp, kept);
        orphans.doWork(System.nanoTime());
        assertEquals(1, sender.broadcasts.size());
        final UnsafeBuffer frame = new UnsafeBuffer(sender.broadcasts.get(sender.broadcasts.size() - 1));
        tuples.wrap(frame, 0, frame.capacity());
        assertEquals(fingerprint(kept), tuples.fingerprintAt(OrphanTuplesFlyweight.PAIRS_OFFSET), "announced");
        assertEquals(Map.of(stamp, fingerprint(kept)), fingerprints(), "sent to a joiner");
    }

    @Test
    void shouldAnnounceNothingItselfOnceItLeaves() {
        final Stamp stamp = Stamp.fromByteArray(new byte[] {3});
        orphans.onDeparting();
        orphans.keepHandedOver(stamp, new FinishedJob());
        orphans.doWork(System.nanoTime());
        orphans.doWork(System.nanoTime() + Orphans.COMBINE_MAX_NS + 1);
        assertEquals(0, sender.broadcasts.size(), "the taker announces what a leaving node keeps, not the leaving node");
        assertEquals(1, orphans.heldJobs().size(), "it still holds it, for the hand-over");
    }

    /** ORPHAN_TUPLES from {@code holder}, naming itself as the holder of {@code stamp}. */
    private void announce(final int holder, final Stamp stamp) {
        announce(holder, stamp, 1);
    }

    /** As above, for a job with that fingerprint. */
    private void announce(final int holder, final Stamp stamp, final long fingerprint) {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[256]);
        tuples.wrap(frame, 0, frame.capacity());
        tuples.headerDefaults(OrphanTuplesFlyweight.TYPE).senderId(holder);
        tuples.start(false, 1);
        final byte[] bytes = stamp.toByteArray();
        tuples.frameLength(tuples.putPair(OrphanTuplesFlyweight.PAIRS_OFFSET, holder, fingerprint, new UnsafeBuffer(bytes), 0,
            bytes.length));
        dispatcher.onFrame(OrphanTuplesFlyweight.TYPE, frame, 0, tuples.frameLength());
    }

    private void leave(final int id) {
        final Member left = new Member(id, "A", "127.0.0.1:" + (40_000 + id), MemberState.LEFT);
        members.update(left);
        orphans.onMemberChanged(left);
    }

    private static long fingerprint(final Job job) {
        return JobFingerprint.of(job, new WireWriter(64));
    }

    /** The table's fingerprints as this node would send them to a joiner. */
    private Map<Stamp, Long> fingerprints() {
        sender.sent.clear();
        orphans.sendTableTo(TAKER);
        final UnsafeBuffer frame = new UnsafeBuffer(sender.sent.get(0));
        tuples.wrap(frame, 0, frame.capacity());
        final Map<Stamp, Long> table = new LinkedHashMap<>();
        int at = OrphanTuplesFlyweight.PAIRS_OFFSET;
        for (int i = 0; i < tuples.count(); i++, at = tuples.nextPair(at)) {
            table.put(Orphans.readStamp(frame, tuples.stampOffsetAt(at), tuples.stampLengthAt(at)), tuples.fingerprintAt(at));
        }
        return table;
    }

    /** The table as this node would send it to a joiner. */
    private Map<Stamp, Integer> table() {
        sender.sent.clear();
        orphans.sendTableTo(TAKER);
        assertEquals(1, sender.sent.size());
        final UnsafeBuffer frame = new UnsafeBuffer(sender.sent.get(0));
        tuples.wrap(frame, 0, frame.capacity());
        assertTrue(tuples.isTable());
        final Map<Stamp, Integer> table = new LinkedHashMap<>();
        int at = OrphanTuplesFlyweight.PAIRS_OFFSET;
        for (int i = 0; i < tuples.count(); i++, at = tuples.nextPair(at)) {
            table.put(Orphans.readStamp(frame, tuples.stampOffsetAt(at), tuples.stampLengthAt(at)), tuples.holderAt(at));
        }
        return table;
    }

    /** A finished job as a hand-over delivers it; nothing here runs or encodes it. */
    private static final class FinishedJob extends LongJob {
        @Override
        protected long call() {
            return 42;
        }

        @Override
        public JobType type() {
            return null;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
        }
    }

    private static final JobType OTHER_TYPE = new NumberJob.NamedType("test.Other#number");
}
