package org.divvy;

import org.divvy.sharing.SharedObjectsExtension;

/**
 * perf: a node's shared-data module, which the public API does not expose (the network half is package-private to
 * it); perf is class path only, so this class shares the API's package as the shared-data tests' accessor does.
 */
public final class PerfSharingAccess {
    private PerfSharingAccess() {
    }

    public static SharedObjectsExtension sharing(final DivvyNode node) {
        return node.networkForTest().extension(SharedObjectsExtension.class);
    }
}
