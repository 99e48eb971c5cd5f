package io.sparkdcp.api;

import io.sparkdcp.store.Store;

/** Where a run keeps its files of its own (--state, --log, --listing, --save-listing): the rule the launcher follows too. */
public final class Places {
    private Places() {}

    /** A plain path or a {@code file:} URI: read and written without Hadoop; any other scheme goes through Hadoop's FileSystem. */
    public static boolean onThisMachine(String place) {
        return Store.isLocal(place);
    }
}
