package org.divvy.stealing;

/** What a steal request (or its reply) was, for the policy and the statistics. */
enum RequestKind {
    /** A request to a node of the own site. */
    SITE,
    /** A request to a node of another site. */
    WIDE_AREA,
    /** A reply to no outstanding request: it came after its request timed out or its victim was lost. */
    LATE
}
