package org.divvy.security;

import org.divvy.ClusterSecret;
import org.divvy.membership.MembershipMessages;

/** Authenticators for tests that build transports themselves. */
public final class TestAuthenticators {
    /** The secret the build gives every test node ({@code DIVVY_SECRET} in Surefire's configuration). */
    public static final ClusterSecret SECRET = ClusterSecret.ofText("divvy-test-cluster-secret-not-for-production");
    /** A secret nobody in the tests' runs has. */
    public static final ClusterSecret OTHER_SECRET = ClusterSecret.ofText("an-attacker-guessed-this-secret");

    private TestAuthenticators() {
    }

    /** With the tests' secret; it learns the run key from the join, as a node's does. */
    public static FrameAuthenticator member() {
        return new FrameAuthenticator(SECRET, MembershipMessages::isHandshakeType, new AuthenticationCounters());
    }

    /** With the tests' secret and run key {@code runKeyId} already in use: for transports that never join. */
    public static FrameAuthenticator inRun(final int runKeyId) {
        final FrameAuthenticator authenticator = member();
        authenticator.useRunKey(runKeyId);
        return authenticator;
    }

    /** With {@code secret} (say, {@link #OTHER_SECRET}: a process that is no member). */
    public static FrameAuthenticator with(final ClusterSecret secret) {
        return new FrameAuthenticator(secret, MembershipMessages::isHandshakeType, new AuthenticationCounters());
    }
}
