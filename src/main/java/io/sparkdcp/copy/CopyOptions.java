package io.sparkdcp.copy;

import java.io.Serializable;

/**
 * Everything the engine needs to know about a copy, validated once on the driver and shipped to
 * executors as is.
 *
 * @param sourceRoot      absolute path of the source tree (bytes)
 * @param destinationRoot absolute path of the destination tree (bytes); it exists when the engine runs
 * @param projectIds      carry project IDs and PROJINHERIT
 * @param chunkSize       files larger than this are copied in chunks of this size by several tasks
 */
public record CopyOptions(byte[] sourceRoot, byte[] destinationRoot, XattrPolicy xattrs,
                          MetadataAccess access, boolean projectIds, long chunkSize) implements Serializable {

    public CopyOptions {
        if (sourceRoot.length == 0 || sourceRoot[0] != '/') throw new IllegalArgumentException("source root must be absolute");
        if (destinationRoot.length == 0 || destinationRoot[0] != '/') throw new IllegalArgumentException("destination root must be absolute");
        if (chunkSize <= 0) throw new IllegalArgumentException("chunk size must be positive");
    }
}
