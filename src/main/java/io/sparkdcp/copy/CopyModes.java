package io.sparkdcp.copy;

import java.io.Serializable;

/**
 * How the engine treats what it finds at the destination and how carefully it writes.
 *
 * @param sync            an existing entry with the same data keeps it: only metadata that differs
 *                        (owner, mode, times, xattrs, project ID) is fixed, instead of replacing the entry
 * @param compareContents data counts as the same only when the bytes are equal (not size and mtime alone)
 * @param atomic          {@code --atomic} was given: recorded in the report only, since every file is written where
 *                        it has no final name until complete ({@link Temporaries})
 * @param verify          after each file, re-read both sides and compare CRC32C
 * @param fsync           data is made durable before the times are set
 * @param update          {@code --update}: a file whose destination is a file with a newer mtime is left as it is
 */
public record CopyModes(boolean sync, boolean compareContents, boolean atomic, boolean verify, boolean fsync, boolean update)
        implements Serializable {
    public static final CopyModes COPY = new CopyModes(false, false, false, false, false);

    /** Without --update. */
    public CopyModes(boolean sync, boolean compareContents, boolean atomic, boolean verify, boolean fsync) {
        this(sync, compareContents, atomic, verify, fsync, false);
    }

    public CopyModes withUpdate(boolean on) {
        return new CopyModes(sync, compareContents, atomic, verify, fsync, on);
    }
}
