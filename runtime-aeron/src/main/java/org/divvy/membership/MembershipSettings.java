package org.divvy.membership;

import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;
import org.divvy.NetworkConfig;

/**
 * Immutable membership settings; {@link Builder#build()} validates every value.
 *
 * @param site                 this node's site (cluster) label.
 * @param joinEndpoint         {@code host:port} of the registry to join; null means this node hosts the
 *                             registry and joins itself.
 * @param joinTimeoutNs        how long a node keeps retrying JOIN before it gives up with an error
 *                             naming the address (default 10 s).
 * @param joinRetryIntervalNs  the interval between JOIN retries (default 200 ms).
 * @param heartbeatIntervalNs  the interval of heartbeats between nodes and the registry (default 100 ms).
 * @param heartbeatTimeoutNs   silence after which the registry declares a node dead, and a node reports
 *                             the registry lost (default 2 s; must exceed two intervals).
 */
public record MembershipSettings(
    String site,
    String joinEndpoint,
    long joinTimeoutNs,
    long joinRetryIntervalNs,
    long heartbeatIntervalNs,
    long heartbeatTimeoutNs) {

    public static final String DEFAULT_SITE = "default";
    public static final long DEFAULT_JOIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);
    public static final long DEFAULT_JOIN_RETRY_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(200);
    public static final long DEFAULT_HEARTBEAT_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(2);

    /** The membership settings a node's network options give. */
    public static MembershipSettings from(final NetworkConfig config) {
        final long joinTimeoutNs = TimeUnit.MILLISECONDS.toNanos(config.joinTimeoutMs());
        return builder().site(config.site()).joinEndpoint(config.join())
            .joinTimeoutNs(joinTimeoutNs)
            .joinRetryIntervalNs(Math.min(DEFAULT_JOIN_RETRY_INTERVAL_NS, joinTimeoutNs))
            .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(config.heartbeatIntervalMs()))
            .heartbeatTimeoutNs(TimeUnit.MILLISECONDS.toNanos(config.heartbeatTimeoutMs())).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects settings; {@link #build()} validates them. */
    public static final class Builder {
        private String site = DEFAULT_SITE;
        private String joinEndpoint;
        private long joinTimeoutNs = DEFAULT_JOIN_TIMEOUT_NS;
        private long joinRetryIntervalNs = DEFAULT_JOIN_RETRY_INTERVAL_NS;
        private long heartbeatIntervalNs = DEFAULT_HEARTBEAT_INTERVAL_NS;
        private long heartbeatTimeoutNs = DEFAULT_HEARTBEAT_TIMEOUT_NS;

        public Builder site(final String site) {
            this.site = site;
            return this;
        }

        public Builder joinEndpoint(final String joinEndpoint) {
            this.joinEndpoint = joinEndpoint;
            return this;
        }

        public Builder joinTimeoutNs(final long joinTimeoutNs) {
            this.joinTimeoutNs = joinTimeoutNs;
            return this;
        }

        public Builder joinRetryIntervalNs(final long joinRetryIntervalNs) {
            this.joinRetryIntervalNs = joinRetryIntervalNs;
            return this;
        }

        public Builder heartbeatIntervalNs(final long heartbeatIntervalNs) {
            this.heartbeatIntervalNs = heartbeatIntervalNs;
            return this;
        }

        public Builder heartbeatTimeoutNs(final long heartbeatTimeoutNs) {
            this.heartbeatTimeoutNs = heartbeatTimeoutNs;
            return this;
        }

        public MembershipSettings build() {
            if (site == null || site.isEmpty()) {
                throw new DivvyException("site=" + site + ", must be a non-empty label");
            }
            if (joinEndpoint != null && joinEndpoint.lastIndexOf(':') <= 0) {
                throw new DivvyException("joinEndpoint=" + joinEndpoint + ", must be host:port of the first node");
            }
            if (joinTimeoutNs <= 0) {
                throw new DivvyException("joinTimeoutNs=" + joinTimeoutNs + ", must be > 0");
            }
            if (joinRetryIntervalNs <= 0 || joinRetryIntervalNs > joinTimeoutNs) {
                throw new DivvyException("joinRetryIntervalNs=" + joinRetryIntervalNs + ", must be in (0, joinTimeoutNs=" +
                    joinTimeoutNs + "]");
            }
            if (heartbeatIntervalNs <= 0) {
                throw new DivvyException("heartbeatIntervalNs=" + heartbeatIntervalNs + ", must be > 0");
            }
            if (heartbeatTimeoutNs <= 2 * heartbeatIntervalNs) {
                throw new DivvyException("heartbeatTimeoutNs=" + heartbeatTimeoutNs + ", must be > 2 * heartbeatIntervalNs=" +
                    2 * heartbeatIntervalNs + " or one lost heartbeat kills a node");
            }
            return new MembershipSettings(site, joinEndpoint, joinTimeoutNs, joinRetryIntervalNs, heartbeatIntervalNs,
                heartbeatTimeoutNs);
        }
    }
}
