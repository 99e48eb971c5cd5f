package io.sparkdcp.report;

/**
 * What a copy listed of its source, and how.
 *
 * @param entries  entries the walk found, the root included
 * @param bytes    bytes of regular files the walk found
 * @param complete false when part of the source could not be listed (those errors are failures)
 * @param by       who listed the source: "driver", "executors", or "saved" (a listing read back)
 * @param savedDir the saved listing read or written, or null
 * @param ledgerUnchanged entries the state ledger ({@code --state}) proved unchanged on both sides: not opened
 */
public record ListedSource(long entries, long bytes, boolean complete, String by, String savedDir, long ledgerUnchanged) {
    public ListedSource(long entries, long bytes, boolean complete, String by, String savedDir) {
        this(entries, bytes, complete, by, savedDir, 0);
    }
}
