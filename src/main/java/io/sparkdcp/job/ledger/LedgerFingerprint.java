package io.sparkdcp.job.ledger;

import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.OptionTable;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Filter;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

/**
 * What a ledger's records were proven under, as plain text lines (no Java serialization, no enum ordinals), of
 * which the HEADER keeps the SHA-256.
 *
 * @param identity what decides "identical" and must match for any record to be used: both roots (paths and
 *                 inodes), the kinds kept beyond owner, mode and times (the xattr policy and its skip patterns,
 *                 project IDs, flags), {@code --contents}, and who writes (root and a user see and may fix
 *                 different things). Not the operation: copy, sync and sync --delete record only entries found
 *                 identical on both sides, so they share a ledger.
 * @param scope    the filters: which entries the walk lists. Other filters narrow what is used (an entry the run
 *                 does not list is not proven, its record carried on as it was), they do not void the ledger; but a hard-linked
 *                 file is then proven by no record, since a name of its inode the old filters left out may now be
 *                 listed, and must be linked to it.
 */
public record LedgerFingerprint(String identity, String scope) implements Serializable {
    static final String FORMAT = "spark-dcp-state-" + StateLedger.VERSION;

    /** The fingerprint of a run with these options, its roots looked at now. */
    public static LedgerFingerprint of(CopyOptions copy, ListingOptions listing) {
        StringBuilder s = new StringBuilder(FORMAT).append('\n');
        s.append("source ").append(root(copy.sourceRoot())).append('\n');
        s.append("destination ").append(root(copy.destinationRoot())).append('\n');
        // The modes that change what counts as identical (--contents), by their report keys.
        List<String> modes = new ArrayList<>();
        for (CopyModes.Mode m : OptionTable.identityModes()) modes.add(m.reportKey() + " " + copy.modes().has(m));
        Collections.sort(modes);
        for (String m : modes) s.append(m).append('\n');
        kept(copy.keep(), s);
        s.append("user ").append(Posix.geteuid()).append('\n');
        return new LedgerFingerprint(s.toString(), scope(listing.filter()));
    }

    /** A root by its path and its inode: a DST made again, or moved to another file system, holds none of the records. */
    private static String root(byte[] path) {
        Stat s = Posix.statIfExists(path, false);
        return bytes(path) + (s == null ? " absent" : " " + s.dev() + ":" + s.ino());
    }

    /** The kinds compared and kept beyond the stat: how files are laid out or xattrs read (the bench's ways) is not one. */
    private static void kept(Keep keep, StringBuilder s) {
        s.append("xattrs ").append(keep.xattrs().word());
        for (String pattern : keep.xattrs().skipPatterns()) s.append(' ').append(bytes(pattern.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        s.append('\n');
        s.append("project-ids ").append(keep.projectIds()).append('\n');
        s.append("flags ").append(keep.flags()).append('\n');
    }

    /** The filter's rules in order (each: include or exclude, directories only or not, the pattern), then --files-from's paths. */
    static String scope(Filter filter) {
        StringBuilder s = new StringBuilder(FORMAT).append('\n');
        for (Filter.Rule r : filter.rules())
            s.append(r.include() ? "include " : "exclude ").append(r.directoriesOnly() ? "directories " : "all ").append(bytes(r.pattern())).append('\n');
        if (filter.listed() != null) {
            s.append("files-from ").append(filter.listed().size()).append('\n');
            for (byte[] path : filter.listed()) s.append(bytes(path)).append('\n');
        }
        return s.toString();
    }

    private static String bytes(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }
}
