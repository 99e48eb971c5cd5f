package io.sparkdcp.copy.keep;

import java.io.Serializable;

/**
 * What of each entry the copy keeps beyond its data, owner, mode and times: one of the request's
 * option groups, travelling unchanged from the CLI to the engine and into the report.
 *
 * @param xattrs       {@code --xattrs}: which extended attributes travel (ACLs included)
 * @param xattrAccess  {@code --xattr-access}: xattrs and project IDs on the copy's descriptors, or (the bench's) by path
 * @param projectIds   not {@code --no-projid}: project IDs and PROJINHERIT
 * @param flags        not {@code --no-flags}: the fsx_xflags a user sets (immutable, append-only, sync, noatime,
 *                     nodump, nodefrag, dax) and the extent-size hints
 * @param strict       {@code --strict}: a flag or layout the destination cannot hold fails the entry, not one notice per kind
 * @param lustreLayout {@code --lustre-layout}: what Lustre layout new files and directories get
 */
public record Keep(XattrPolicy xattrs, MetadataAccess xattrAccess, boolean projectIds, boolean flags, boolean strict,
                   LustreLayout lustreLayout) implements Serializable {
    public Keep {
        if (xattrs == null || xattrAccess == null || lustreLayout == null)
            throw new IllegalArgumentException("--xattrs, --xattr-access and --lustre-layout must be given");
    }

    /** Whether the struct fsxattr of sources is read: for project IDs or for flags. */
    public boolean readsFsXattr() {
        return projectIds || flags;
    }
}
