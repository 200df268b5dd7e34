package org.divvy.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.MemberDirectory;
import org.divvy.codegen.Job;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireWriter;
import org.divvy.membership.Members;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.recovery.Departure;
import org.divvy.recovery.OrphanResultsFlyweight;
import org.divvy.recovery.Orphans;
import org.divvy.scheduling.Stamp;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A graceful leaver hands its kept results to a staying node (ORPHAN_RESULTS); a job among them that takes a shared
 * object must be decoded with the node's shared-object table (its object resolved to this node's replica), not
 * counted malformed and recomputed (its writes would run again).
 */
@Timeout(30)
class HandedOverSharedObjectsTest {
    private final MemberDirectory everyone = new MemberDirectory() {
        @Override
        public int selfId() {
            return 0;
        }

        @Override
        public int epoch() {
            return 1;
        }

        @Override
        public String aliveEndpoint(final int nodeId) {
            return "127.0.0.1:" + (40000 + nodeId);
        }

        @Override
        public int[] aliveOthers() {
            return new int[] {1};
        }

        @Override
        public int senderStatus(final int senderId) {
            return MEMBER;
        }
    };
    private final RecordingFrameSender sender = new RecordingFrameSender().withMaxFrameBytes(1 << 30);

    @Test
    void shouldResolveTheSharedObjectsOfHandedOverJobsToThisNodesReplicas() {
        final GridShared grid = new GridShared(8);
        final List<Long> resolved = new ArrayList<>();
        final SharedObjectContext table = new SharedObjectContext() {
            @Override
            public void attach(final org.divvy.codegen.ReplicaCore core) {
            }

            @Override
            public Object resolve(final long id, final org.divvy.codegen.SharedObjectType<?> type, final int sourceNodeId) {
                resolved.add(id);
                assertEquals(1, sourceNodeId, "the leaver is the source");
                return grid;
            }
        };
        final FrameCounters counters = new FrameCounters();
        final Members members = new Members("A");
        final Orphans orphans = new Orphans(null, members, sender, null, null);
        final Job handedOver = new SharingJobsJobs.SumAtJob(new SharingJobs(), 1, 0, 8, grid);
        final Departure departure = new Departure(members, sender, null, orphans, name -> handedOver.type(), counters);
        departure.sharedObjects(table);
        final FrameDispatcher dispatcher = new FrameDispatcher(counters, everyone, e -> { throw new AssertionError(e); });
        departure.register(dispatcher);

        final WireWriter arguments = new WireWriter();
        handedOver.encodeArguments(arguments);
        final WireWriter result = new WireWriter();
        result.writeLong(36); // a long result, as SumAtJob's
        final byte[] stamp = Stamp.ROOT.child(3).toByteArray();
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        final OrphanResultsFlyweight results = new OrphanResultsFlyweight();
        results.wrap(buffer, 0, buffer.capacity());
        results.headerDefaults(OrphanResultsFlyweight.TYPE);
        results.count(1);
        final int length = results.putEntry(OrphanResultsFlyweight.ENTRIES_OFFSET, new UnsafeBuffer(stamp), stamp.length,
            handedOver.type().name(), new UnsafeBuffer(arguments.toByteArray()), arguments.length(),
            new UnsafeBuffer(result.toByteArray()), result.length());
        buffer.putInt(HeaderFlyweight.SENDER_ID_OFFSET, 1, HeaderFlyweight.BYTE_ORDER);
        buffer.putInt(HeaderFlyweight.EPOCH_OFFSET, 1, HeaderFlyweight.BYTE_ORDER);
        results.frameLength(length);
        dispatcher.onFrame(OrphanResultsFlyweight.TYPE, buffer, 0, length);

        assertEquals(0, counters.malformed.get(), "the job with a shared object was decoded");
        assertEquals(1, departure.resultsTakenOver(), "and kept, so it is not recomputed");
        assertEquals(List.of(grid.divvyReplica().id()), resolved);
        assertEquals(List.of(1), sender.offeredTo, "acknowledged");
    }
}
