package io.sparkdcp.copy;

import java.io.Serializable;

/**
 * Everything the engine needs to know about a copy, validated once on the driver and shipped to
 * executors as is.
 *
 * @param sourceRoot      absolute path of the source tree (bytes)
 * @param destinationRoot absolute path of the destination tree (bytes); it exists when the engine runs
 * @param projectIds      carry project IDs and PROJINHERIT
 * @param xattrAccess     {@code --xattr-access}: on the descriptors, or by path
 * @param chunkSize       files larger than this are copied in chunks of this size by several tasks
 * @param modes           sync, contents comparison, atomic writes, verification, fsync
 */
public record CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs,
                          MetadataAccess xattrAccess, boolean projectIds, long chunkSize, CopyModes modes)
        implements Serializable {

    /** A plain copy. */
    public CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs, MetadataAccess xattrAccess,
                       boolean projectIds, long chunkSize) {
        this(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, CopyModes.COPY);
    }

    public CopyOptions {
        if (sourceRoot.length == 0 || sourceRoot[0] != '/') throw new IllegalArgumentException("source root must be absolute");
        if (destinationRoot.length == 0 || destinationRoot[0] != '/') throw new IllegalArgumentException("destination root must be absolute");
        if (modes == null) throw new IllegalArgumentException("modes must be given");
    }

    public CopyOptions withModes(CopyModes m) {
        return new CopyOptions(sourceRoot, destinationRoot, xattrs, xattrAccess, projectIds, chunkSize, m);
    }
}
