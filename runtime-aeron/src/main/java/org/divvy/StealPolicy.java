package org.divvy;

/**
 * How an idle node chooses the peers it asks for work (thesis §2.3). Stealing inside the node always
 * comes first; a policy only acts when every worker of the node is out of work.
 */
public enum StealPolicy {
    /**
     * Random stealing: the victim is uniform over every other alive member, and at most one request
     * is outstanding (the node waits for its reply). Optimal on one homogeneous cluster.
     */
    RS,

    /**
     * Cluster-aware random stealing: one asynchronous wide-area request to a uniform node of another
     * site at a time (its job is queued whenever it arrives), and meanwhile synchronous requests
     * inside the own site. With one site it is {@link #RS}.
     */
    CRS,

    /**
     * Load-aware CRS: {@link #CRS}, but the wide-area victim is chosen by the replies seen so far: the remote
     * node whose last reply carried a job is asked again first; otherwise uniform over the remote nodes not
     * known to be empty (a "none" counts for two of that node's round trips). With nothing known it is CRS.
     * As a victim, a node gives a job to a wide-area request only while it has at least two queued: its
     * last one stays in its site (near the end of a run, a small job that crosses the wide area costs a
     * round trip out and a result back).
     */
    LCRS
}
