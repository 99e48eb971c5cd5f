package io.sparkdcp.job;

import java.io.Serializable;

/**
 * How the job gets its listing of the source.
 *
 * @param walk        {@code --walk}: where to walk the source
 * @param listing     {@code --listing}: a listing saved by an earlier run to copy from instead of walking (a Hadoop path); null to walk
 * @param saveListing {@code --save-listing}: where to save the listing for later runs (a Hadoop path); null not to
 */
public record ListingOptions(WalkMode walk, String listing, String saveListing) implements Serializable {
    public static final ListingOptions WALK = new ListingOptions(WalkMode.AUTO, null, null);
}
