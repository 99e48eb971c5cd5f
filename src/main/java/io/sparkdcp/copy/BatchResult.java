package io.sparkdcp.copy;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.plan.LargeFile;

import java.io.Serializable;
import java.util.List;

/**
 * What one task did: per-entry counts and failures; for the prepare step of large files, the paths
 * that still need their chunks; for a chunk, its failure (counted per file by the driver, once); for
 * the make step of directories, those it created (sync counts them as copied, the others as fixed).
 */
public record BatchResult(CopyCounts counts, List<LargeFile> needChunks, List<Failure> chunkFailures,
                          List<byte[]> directoriesCreated) implements Serializable {

    public BatchResult(CopyCounts counts, List<LargeFile> needChunks, List<Failure> chunkFailures) {
        this(counts, needChunks, chunkFailures, List.of());
    }

    public static BatchResult of(CopyCounts counts) { return new BatchResult(counts, List.of(), List.of()); }
}
