package io.sparkdcp.job;

import java.io.Serializable;

/**
 * How the job gets its listing of the source.
 *
 * @param walk  where to walk the source
 * @param reuse a listing saved by an earlier run to copy from instead of walking (a Hadoop path); null to walk
 * @param save  where to save the listing for later runs (a Hadoop path); null not to
 */
public record ListingOptions(WalkMode walk, String reuse, String save) implements Serializable {
    public static final ListingOptions WALK = new ListingOptions(WalkMode.AUTO, null, null);

    public ListingOptions {
        if (walk == null) throw new IllegalArgumentException("a walk mode is needed");
        if (reuse != null && save != null) throw new IllegalArgumentException("--listing and --save-listing exclude each other: the listing is already saved");
    }
}
