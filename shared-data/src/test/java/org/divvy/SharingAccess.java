package org.divvy;

import org.divvy.sharing.SharedObjectsExtension;

/** Tests: a node's shared-data module (the network half is package-private to the API). */
public final class SharingAccess {
    private SharingAccess() {
    }

    public static SharedObjectsExtension sharing(final DivvyNode node) {
        return node.networkForTest().extension(SharedObjectsExtension.class);
    }
}
