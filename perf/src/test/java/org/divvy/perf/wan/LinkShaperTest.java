package org.divvy.perf.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class LinkShaperTest {
    private static final long MS = 1_000_000;

    @Test
    void shouldReleaseWithinDelayPlusMinusJitterAndNeverReorder() {
        final LinkShaper shaper = new LinkShaper(WanLinkConfig.builder()
            .oneWayDelay(50, TimeUnit.MILLISECONDS).jitter(20, TimeUnit.MILLISECONDS).seed(7).build());
        long previousReleaseNs = Long.MIN_VALUE;
        for (int i = 0; i < 10_000; i++) {
            final long arrivalNs = 1_000 * MS + i * 100_000L;
            assertEquals(LinkShaper.ADMITTED, shaper.admit(arrivalNs, 100));
            final long releaseNs = shaper.lastReleaseNs();
            assertTrue(releaseNs - arrivalNs >= 30 * MS, "released before delay - jitter: " + (releaseNs - arrivalNs));
            assertTrue(releaseNs >= previousReleaseNs, "reordered at datagram " + i);
            previousReleaseNs = releaseNs;
        }
    }

    @Test
    void shouldReleaseExactlyAfterDelayWithoutJitterOrCap() {
        final LinkShaper shaper = new LinkShaper(WanLinkConfig.builder().oneWayDelayNs(5 * MS).build());
        assertEquals(LinkShaper.ADMITTED, shaper.admit(123 * MS, 1_000));
        assertEquals(128 * MS, shaper.lastReleaseNs());
    }

    @Test
    void shouldLoseAboutTheConfiguredFractionReproduciblyForASeed() {
        final WanLinkConfig config = WanLinkConfig.builder().lossRate(0.1).seed(12345).build();
        final List<Integer> lostFirst = lostIndices(new LinkShaper(config), 100_000);
        final List<Integer> lostSecond = lostIndices(new LinkShaper(config), 100_000);
        assertEquals(lostFirst, lostSecond, "same seed must lose the same datagrams");
        final double rate = lostFirst.size() / 100_000.0;
        assertTrue(rate > 0.09 && rate < 0.11, "loss rate " + rate + ", configured 0.1");
    }

    @Test
    void shouldSpaceDatagramsByTheBandwidthCapOnceTheBurstIsUsed() {
        final LinkShaper shaper = new LinkShaper(
            WanLinkConfig.builder().bandwidthBytesPerSecond(10_000).burstBytes(1_000).build());
        final long startNs = 10_000 * MS;
        for (int i = 0; i < 10; i++) {
            assertEquals(LinkShaper.ADMITTED, shaper.admit(startNs, 1_000));
            // 1000 bytes at 10 000 B/s = 100 ms each; the first goes on the full bucket.
            final long expectedNs = startNs + i * 100 * MS;
            assertTrue(Math.abs(shaper.lastReleaseNs() - expectedNs) <= 1,
                "datagram " + i + " released at +" + (shaper.lastReleaseNs() - startNs) + " ns, expected +" + (i * 100 * MS));
        }
    }

    @Test
    void shouldRefillTheBucketWhileIdle() {
        final LinkShaper shaper = new LinkShaper(
            WanLinkConfig.builder().bandwidthBytesPerSecond(10_000).burstBytes(2_000).build());
        shaper.admit(0, 2_000);
        assertEquals(0, shaper.lastReleaseNs());
        shaper.admit(1_000 * MS, 2_000);
        assertEquals(1_000 * MS, shaper.lastReleaseNs(), "one idle second refills the 2000-byte bucket");
    }

    @Test
    void shouldTailDropWhenTheShaperQueueIsFull() {
        final LinkShaper shaper = new LinkShaper(WanLinkConfig.builder()
            .bandwidthBytesPerSecond(1_000).burstBytes(1_000).queueLimitBytes(5_000).build());
        int admitted = 0;
        int dropped = 0;
        for (int i = 0; i < 20; i++) {
            final int verdict = shaper.admit(0, 1_000);
            if (verdict == LinkShaper.ADMITTED) {
                admitted++;
            } else {
                assertEquals(LinkShaper.QUEUE_FULL, verdict);
                dropped++;
            }
        }
        assertEquals(6, admitted, "the burst plus 5000 queued bytes");
        assertEquals(14, dropped);
    }

    private static List<Integer> lostIndices(final LinkShaper shaper, final int count) {
        final List<Integer> lost = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (shaper.admit(i * 1_000L, 64) == LinkShaper.LOST) {
                lost.add(i);
            }
        }
        return lost;
    }
}
