package org.divvy.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

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
import org.divvy.scheduling.RemoteLink;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Result copies' rules on one node's {@link ResultCopies}, stepped, with frames handed to it: which node keeps a
 * site's copies, which jobs are copied, what a keeper holds (the frontier of its site's finished work), and that a
 * keeper makes the copies of a dead site finished orphans of its own, and nothing else.
 */
class ResultCopiesTest {
    private static final int IN_A = 1;
    /** This node, the lowest of site B, so the keeper of site A (B comes after A). */
    private static final int SELF = 2;
    private static final int ALSO_IN_B = 3;
    /** The lowest node of site C, the site after B: B's keeper. */
    private static final int KEEPER_OF_B = 7;
    private static final int ALSO_IN_C = 8;

    private final Members members = new Members("B");
    private final RecordingFrameSender sender = new RecordingFrameSender();
    /** The dispatcher's counters (frames it refuses) and result copies' own (entries it drops). */
    private final FrameCounters dispatcherCounters = new FrameCounters();
    private final FrameCounters copiesCounters = new FrameCounters();
    private final FrameDispatcher dispatcher = new FrameDispatcher(dispatcherCounters, members, e -> {
        throw new AssertionError("a handler threw", e);
    });
    private final AtomicLong nowNs = new AtomicLong(TimeUnit.SECONDS.toNanos(100));
    private final AtomicBoolean computationOver = new AtomicBoolean();
    /** The run this node works in, as the lifecycle names it. */
    private final AtomicLong runId = new AtomicLong(RUN);
    private static final long RUN = (9L << 32) | 1;
    private Scheduler scheduler;
    private CodecThread codec;
    private Orphans orphans;
    private ResultCopies copies;

    @BeforeEach
    void start() {
        scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "result-copies");
        codec = new CodecThread("result-copies-codec", Throwable::printStackTrace);
        members.selfId(SELF);
        member(IN_A, "A", MemberState.ALIVE);
        member(ALSO_IN_B, "B", MemberState.ALIVE);
        member(SELF, "B", MemberState.ALIVE);
        member(KEEPER_OF_B, "C", MemberState.ALIVE);
        member(ALSO_IN_C, "C", MemberState.ALIVE);
        final GivenJobs given = new GivenJobs(scheduler, members, sender, codec, new RemoteExceptions(Map.of()), 0);
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, 0, 0);
        orphans = new Orphans(scheduler, members, sender, given, foreign, true, computationOver::get);
        orphans.onJoined(SELF);
        copies = new ResultCopies(scheduler, members, sender, orphans, name -> CopiedJob.TYPE.name().equals(name) ? CopiedJob.TYPE : null,
            copiesCounters, nowNs::get, 100, true, computationOver::get, runId::get, id -> id == runId.get());
        copies.onJoined(SELF);
        copies.register(dispatcher);
    }

    @AfterEach
    void stop() {
        codec.close();
        scheduler.close();
    }

    @Test
    void shouldSendTheCopiesOfASiteToTheLowestNodeOfTheNextSite() {
        assertEquals(KEEPER_OF_B, copies.keeperId());
        dies(KEEPER_OF_B);
        assertEquals(ALSO_IN_C, copies.keeperId(), "the next lowest of site C");
        dies(ALSO_IN_C);
        assertEquals(IN_A, copies.keeperId(), "no site after B: the first site, cyclically");
        dies(IN_A);
        assertEquals(-1, copies.keeperId(), "no other site: no keeper, nothing copied");
    }

    @Test
    void shouldCopyOnlyJobsThatRanLongEnoughAndCombineThemIntoOneMessage() {
        final long startedMs = copies.nowMs();
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(99));
        copies.onFinished(job(stamp(0, 1), 10), startedMs); // ran 99 ms: not copied
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        copies.onFinished(job(stamp(0, 2), 20), startedMs);
        copies.onFinished(job(stamp(0, 3), 30), startedMs);
        copies.doWork(nowNs.get());
        assertEquals(0, sender.sent.size(), "combined: not sent at once");
        copies.doWork(nowNs.get() + ResultCopies.COMBINE_NS);
        assertEquals(List.of(KEEPER_OF_B), sender.sentTo);
        assertEquals(List.of(stamp(0, 2), stamp(0, 3)), stampsIn(sender.sent.get(0), RUN));
        assertEquals(2, copies.copiesSent());
    }

    /** A parent may change its child's result after the child ended: the copy is what the child returned. */
    @Test
    void shouldCopyTheResultTheJobEndedWithNotWhatItBecameAfter() {
        final long startedMs = copies.nowMs();
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(500));
        final CopiedJob job = job(stamp(4), 4);
        copies.onFinished(job, startedMs);
        setResult(job, -1); // the parent's code reuses the value it read
        copies.doWork(nowNs.get());
        copies.doWork(nowNs.get() + ResultCopies.COMBINE_NS);
        final UnsafeBuffer frame = new UnsafeBuffer(sender.sent.get(0));
        final ResultCopiesFlyweight f = new ResultCopiesFlyweight();
        f.wrap(frame, 0, frame.capacity());
        final int resultAt = f.fieldAt(ResultCopiesFlyweight.COPIES_OFFSET, 3);
        assertEquals(4_000L, new WireReader().wrap(frame, f.dataOffset(resultAt), f.dataLength(resultAt)).readLong());
    }

    /** Copies of two runs never share a message, and a job that ends before any run is known is not copied. */
    @Test
    void shouldSendEachRunsCopiesInMessagesOfTheirOwn() {
        final long startedMs = copies.nowMs();
        nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(500));
        copies.onFinished(job(stamp(1), 1), startedMs);
        runId.set(RUN + 1);
        copies.onFinished(job(stamp(2), 2), startedMs);
        runId.set(0);
        copies.onFinished(job(stamp(3), 3), startedMs);
        copies.doWork(nowNs.get());
        copies.doWork(nowNs.get() + ResultCopies.COMBINE_NS);
        assertEquals(2, sender.sent.size());
        assertEquals(List.of(stamp(1)), stampsIn(sender.sent.get(0), RUN));
        assertEquals(List.of(stamp(2)), stampsIn(sender.sent.get(1), RUN + 1));
    }

    @Test
    void shouldKeepOnlyTheFrontierOfTheFinishedWork() {
        receive(IN_A, stamp(0, 1, 0), stamp(0, 1, 1), stamp(0, 2, 0));
        assertEquals(List.of(stamp(0, 1, 0), stamp(0, 1, 1), stamp(0, 2, 0)), copies.keptStamps());
        receive(IN_A, stamp(0, 1));
        assertEquals(List.of(stamp(0, 1), stamp(0, 2, 0)), copies.keptStamps(), "0.1 finished: its children's copies go");
        receive(IN_A, stamp(0, 1, 2, 5));
        assertEquals(List.of(stamp(0, 1), stamp(0, 2, 0)), copies.keptStamps(), "a descendant of 0.1 is not kept");
        receive(IN_A, stamp(0, 10));
        assertEquals(List.of(stamp(0, 1), stamp(0, 2, 0), stamp(0, 10)), copies.keptStamps(), "0.10 is no child of 0.1");
    }

    /** Child indices of several bytes (200, 70,000): the same rules. */
    @Test
    void shouldKeepTheFrontierWithWideChildIndices() {
        receive(IN_A, stamp(200, 70_000, 1), stamp(200, 70_000, 300), stamp(200, 70_001), stamp(201));
        receive(IN_A, stamp(200, 70_000));
        assertEquals(List.of(stamp(200, 70_000), stamp(200, 70_001), stamp(201)), copies.keptStamps());
        receive(IN_A, stamp(200, 70_000, 128));
        assertEquals(List.of(stamp(200, 70_000), stamp(200, 70_001), stamp(201)), copies.keptStamps());
        receive(IN_A, stamp(200));
        assertEquals(List.of(stamp(200), stamp(201)), copies.keptStamps());
    }

    /** A copy of the last run arriving after this run started (or before this run's RUN_STARTED came) is not kept. */
    @Test
    void shouldKeepOnlyCopiesOfTheCurrentRun() {
        receive(IN_A, RUN - 1, stamp(0, 1));
        receive(IN_A, 0, stamp(0, 2));
        assertEquals(List.of(), copies.keptStamps());
        receive(IN_A, RUN, stamp(0, 3));
        assertEquals(List.of(stamp(0, 3)), copies.keptStamps());
    }

    @Test
    void shouldMakeTheCopiesOfADeadSiteFinishedOrphansHeldHere() throws Throwable {
        receive(IN_A, stamp(0, 1), stamp(0, 2));
        receive(ALSO_IN_C, stamp(1, 1)); // from a site that lives on
        dies(IN_A);
        assertEquals(2, copies.copiesAdopted());
        assertEquals(List.of(stamp(1, 1)), copies.keptStamps(), "the copy from site C is still only a copy");
        final CopiedJob restarted = job(stamp(0, 2), 2);
        assertTrue(orphans.copyHeldResult(restarted), "a restarted job with that stamp reuses the copy's result");
        assertEquals(2 * 1_000L, restarted.boxedResult());
        orphans.doWork(nowNs.get());
        assertEquals(1, sender.broadcasts.size(), "announced to all in one message");
    }

    /**
     * A member's garbage: a count beyond the frame, a stamp that ends inside a child index, arguments over the 64 KiB a
     * sender copies at most. Each is counted and dropped, nothing throws, and the well-formed entry beside them is kept.
     */
    @Test
    void shouldCountAndDropMalformedCopiesAndKeepTheRest() {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[200_000]);
        final ResultCopiesFlyweight f = new ResultCopiesFlyweight();
        f.wrap(frame, 0, frame.capacity());
        f.headerDefaults(ResultCopies.TYPE).senderId(IN_A);
        f.runId(RUN).count(1_000); // more entries than the frame holds
        f.frameLength(ResultCopiesFlyweight.COPIES_OFFSET);
        dispatcher.onFrame(ResultCopies.TYPE, frame, 0, ResultCopiesFlyweight.COPIES_OFFSET);
        assertEquals(1, dispatcherCounters.truncated.get() + dispatcherCounters.malformed.get(), "refused whole");

        final WireWriter value = new WireWriter(16);
        value.writeLong(7);
        final byte[] brokenStamp = {(byte)0x85}; // a child index whose last byte is missing
        final byte[] good = stamp(0, 7).toByteArray();
        final byte[] deep = stamp(0, 8).toByteArray();
        final byte[] huge = new byte[ResultCopies.MAX_ENCODED_BYTES + 1];
        f.count(3);
        int at = ResultCopiesFlyweight.COPIES_OFFSET;
        at = f.putEntry(at, new UnsafeBuffer(brokenStamp), 1, CopiedJob.TYPE.name(), value.buffer(), value.length(),
            value.buffer(), value.length());
        at = f.putEntry(at, new UnsafeBuffer(deep), deep.length, CopiedJob.TYPE.name(), new UnsafeBuffer(huge), huge.length,
            value.buffer(), value.length());
        at = f.putEntry(at, new UnsafeBuffer(good), good.length, CopiedJob.TYPE.name(), value.buffer(), value.length(),
            value.buffer(), value.length());
        f.frameLength(at);
        dispatcher.onFrame(ResultCopies.TYPE, frame, 0, at);
        assertEquals(2, copiesCounters.malformed.get(), "the broken stamp and the oversized arguments");
        assertEquals(List.of(stamp(0, 7)), copies.keptStamps());
    }

    @Test
    void shouldNeitherKeepNorAdoptOnceTheComputationIsOver() {
        receive(IN_A, stamp(0, 1));
        computationOver.set(true);
        receive(IN_A, stamp(0, 2));
        assertEquals(List.of(stamp(0, 1)), copies.keptStamps());
        dies(IN_A);
        assertEquals(0, copies.copiesAdopted(), "members leave at the end of a computation: nothing is an orphan");
    }

    /**
     * The run's last copies (its largest jobs, sent up to 50 ms after they finished) reach the keeper after its master's
     * RUN_ENDED: no run is current then, so they are not kept, and a death between runs adopts nothing.
     */
    @Test
    void shouldForgetTheCopiesWhenTheRunEndsAndKeepNoneOfItAfter() {
        receive(IN_A, stamp(0, 1));
        runId.set(0); // the lifecycle forgets the ended run's ids, then tells result copies
        copies.onRunEnded();
        assertEquals(List.of(), copies.keptStamps());
        receive(IN_A, RUN, stamp(0, 2));
        assertEquals(List.of(), copies.keptStamps(), "a late copy of the ended run");
        dies(IN_A);
        assertEquals(0, copies.copiesAdopted(), "nothing of a finished run is adopted");
    }

    @Test
    void shouldForgetTheLastRunsCopiesWhenANewOneStarts() {
        receive(IN_A, stamp(0, 1));
        copies.onRunStarted();
        assertEquals(List.of(), copies.keptStamps());
    }

    private void member(final int id, final String site, final MemberState state) {
        final Member m = new Member(id, site, "127.0.0.1:" + (40_000 + id), state);
        members.update(m);
        if (copies != null) {
            orphans.onMemberChanged(m);
            copies.onMemberChanged(m);
        }
    }

    private void dies(final int id) {
        member(id, members.member(id).site(), MemberState.DEAD);
    }

    private static Stamp stamp(final int... indices) {
        Stamp s = Stamp.ROOT;
        for (final int i : indices) {
            s = s.child(i);
        }
        return s;
    }

    /** A finished job of argument {@code n} (result {@code n * 1000}) that came to this node with {@code stamp}. */
    private static CopiedJob job(final Stamp stamp, final long n) {
        final CopiedJob job = new CopiedJob(n);
        new RemoteLink(job) {
        }.adopt(stamp, false);
        setResult(job, n * 1_000);
        return job;
    }

    private static void setResult(final CopiedJob job, final long value) {
        final WireWriter result = new WireWriter(16);
        result.writeLong(value);
        job.readResult(new WireReader().wrap(result.buffer(), 0, result.length()));
    }

    /** RESULT_COPIES of the current run from {@code from} with a job for each stamp, its argument the stamp's last index. */
    private void receive(final int from, final Stamp... stamps) {
        receive(from, RUN, stamps);
    }

    /** As above, of run {@code run}. */
    private void receive(final int from, final long run, final Stamp... stamps) {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[4096]);
        final ResultCopiesFlyweight f = new ResultCopiesFlyweight();
        f.wrap(frame, 0, frame.capacity());
        f.headerDefaults(ResultCopies.TYPE).senderId(from);
        f.runId(run).count(stamps.length);
        int at = ResultCopiesFlyweight.COPIES_OFFSET;
        for (final Stamp s : stamps) {
            final int[] indices = s.indices();
            final WireWriter args = new WireWriter(16);
            args.writeLong(indices[indices.length - 1]);
            final WireWriter result = new WireWriter(16);
            result.writeLong(indices[indices.length - 1] * 1_000L);
            final byte[] bytes = s.toByteArray();
            at = f.putEntry(at, new UnsafeBuffer(bytes), bytes.length, CopiedJob.TYPE.name(), args.buffer(), args.length(),
                result.buffer(), result.length());
        }
        f.frameLength(at);
        dispatcher.onFrame(ResultCopies.TYPE, frame, 0, at);
    }

    /** The stamps a RESULT_COPIES holds; checks its run. */
    private static List<Stamp> stampsIn(final byte[] message, final long run) {
        final UnsafeBuffer frame = new UnsafeBuffer(message);
        final ResultCopiesFlyweight f = new ResultCopiesFlyweight();
        f.wrap(frame, 0, frame.capacity());
        assertEquals(ResultCopies.TYPE, f.type());
        assertEquals(run, f.runId());
        final List<Stamp> stamps = new ArrayList<>();
        int at = ResultCopiesFlyweight.COPIES_OFFSET;
        for (int i = 0; i < f.count(); i++, at = f.nextEntry(at)) {
            final int stampAt = f.fieldAt(at, 0);
            stamps.add(Orphans.readStamp(frame, f.dataOffset(stampAt), f.dataLength(stampAt)));
        }
        return stamps;
    }

    /** {@code long copied(long n)}, returning {@code n * 1000}; its type decodes it. */
    static final class CopiedJob extends LongJob {
        static final JobType TYPE = new JobType() {
            @Override
            public String name() {
                return "test.Copies#copied";
            }

            @Override
            public Job decode(final WireReader reader) {
                return new CopiedJob(reader.readLong());
            }
        };

        private final long n;

        CopiedJob(final long n) {
            this.n = n;
        }

        @Override
        protected long call() {
            return n * 1_000;
        }

        @Override
        public JobType type() {
            return TYPE;
        }

        @Override
        public void encodeArguments(final WireWriter writer) {
            writer.writeLong(n);
        }
    }
}
