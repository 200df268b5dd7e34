package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.divvy.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job from another node waits in the sharing hook (its replicas, its guard) before it starts; when its owner
 * aborts it meanwhile, the worker cancels it instead of running it.
 */
@Timeout(30)
class CancelledRemoteJobTest {
    @Test
    void shouldCancelARemoteJobItsOwnerAbortedWhileTheSharingHookHeldIt() throws InterruptedException {
        final Scheduler scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "cancelled-remote");
        final AtomicBoolean ran = new AtomicBoolean();
        final CountDownLatch ended = new CountDownLatch(1);
        final TaskJob<String> job = TaskJob.of("remote", () -> {
            ran.set(true);
            return "ran";
        });
        final RemoteLink link = new RemoteLink(job) {
            @Override
            protected void onEnded() {
                ended.countDown();
            }
        };
        scheduler.sharingHook(new SharingHook() {
            @Override
            public void safePoint() {
            }

            @Override
            public void beforeRemoteJob(final Task task) {
                link.requestCancel(); // the owner's abort arrives while the job waits for its shared objects
            }
        });
        scheduler.start();
        try {
            link.adopt(Stamp.ROOT.child(1), false);
            scheduler.submitRemote(job);
            assertTrue(ended.await(20, TimeUnit.SECONDS), "the job ended");
            assertFalse(ran.get(), "a cancelled job does not run");
            assertFalse(link.isDone() || link.isFailed(), "it ended cancelled");
        } finally {
            scheduler.close();
        }
    }
}
