package io.sparkdcp.job.listing;

import io.sparkdcp.walk.Filter;

import java.io.Serializable;

/**
 * How the job gets its listing of the source.
 *
 * @param walk           {@code --walk}: where to walk the source
 * @param listing        {@code --listing}: a listing saved by an earlier run to copy from instead of walking (local, or a Hadoop path); null to walk
 * @param saveListing    {@code --save-listing}: where to save the listing for later runs (local, or a Hadoop path); null not to
 * @param filter         {@code --exclude}, {@code --include}, {@code --exclude-from}, {@code --files-from}: what
 *                       the walk lists; sync --delete walks DST with it too, so what it leaves out is not deleted
 * @param deleteExcluded {@code --delete-excluded}: sync --delete walks DST unfiltered, so what the filter leaves out is deleted
 * @param state          {@code --state}: the state ledger's directory (local, or a Hadoop path), whose records let entries unchanged
 *                       on both sides since the last successful run go unopened; null for none
 */
public record ListingOptions(WalkMode walk, String listing, String saveListing, Filter filter, boolean deleteExcluded, String state)
        implements Serializable {
    public static final ListingOptions WALK = new ListingOptions(WalkMode.AUTO, null, null);

    /** Nothing filtered. */
    public ListingOptions(WalkMode walk, String listing, String saveListing) {
        this(walk, listing, saveListing, Filter.NONE, false);
    }

    /** Without a state ledger. */
    public ListingOptions(WalkMode walk, String listing, String saveListing, Filter filter, boolean deleteExcluded) {
        this(walk, listing, saveListing, filter, deleteExcluded, null);
    }

    public ListingOptions {
        if (filter == null) throw new IllegalArgumentException("filter must be given");
    }

    /**
     * Pair {@code pair}'s listing (and state ledger) among {@code pairs} sources: DIR itself for one source; with several,
     * DIR/source-N (N from 1, in the order given), so that a later run with the same sources in the same
     * order reads each back (another order is refused by each listing's own check of its SRC).
     */
    public ListingOptions forPair(int pair, int pairs) {
        return pairs == 1 ? this : new ListingOptions(walk, inPair(listing, pair), inPair(saveListing, pair), filter, deleteExcluded,
                inPair(state, pair));
    }

    /** The same, with the state ledger in {@code dir}. */
    public ListingOptions withState(String dir) {
        return new ListingOptions(walk, listing, saveListing, filter, deleteExcluded, dir);
    }

    private static String inPair(String dir, int pair) {
        return dir == null ? null : dir.replaceAll("/+$", "") + "/source-" + (pair + 1);
    }

    /** The saved listing the report names: DIR as given, read (--listing) or written (--save-listing); null for none. */
    public String savedDir() {
        return listing != null ? listing : saveListing;
    }

    /** The filter sync --delete walks DST with: what it leaves out of DST stays. */
    public Filter destinationFilter() {
        return deleteExcluded ? Filter.NONE : filter;
    }
}
