package io.sparkdcp.bench;

/**
 * The shape of a generated source tree: many small files in many directories, a few large ones.
 * Every directory has PROJINHERIT; one directory in {@code differingDirEvery} and one file in
 * {@code differingFileEvery} carry a project other than the one they would inherit, so the copy
 * must set it; one file in {@code xattrEvery} has a user xattr.
 */
public record Workload(int dirs, int filesPerDir, int smallFileBytes, int largeFiles, long largeFileBytes,
                       int differingDirEvery, int differingFileEvery, int xattrEvery) {
    public static final int ROOT_PROJECT = 4242;

    public Workload {
        if (dirs < 1 || filesPerDir < 0 || smallFileBytes < 0 || largeFiles < 0 || largeFileBytes < 0)
            throw new IllegalArgumentException("workload sizes must not be negative, and there is at least one directory");
        if (differingDirEvery < 1 || differingFileEvery < 1 || xattrEvery < 1)
            throw new IllegalArgumentException("'every' intervals must be at least 1");
    }

    /** About 2,000 files in 100 directories, as in the reference tree. */
    public static Workload standard() {
        return new Workload(100, 20, 4096, 3, 32L << 20, 10, 20, 10);
    }

    public Workload withSize(int newDirs, int newFilesPerDir) {
        return new Workload(newDirs, newFilesPerDir, smallFileBytes, largeFiles, largeFileBytes, differingDirEvery,
                differingFileEvery, xattrEvery);
    }

    public Workload withLargeFiles(int count, long bytes) {
        return new Workload(dirs, filesPerDir, smallFileBytes, count, bytes, differingDirEvery, differingFileEvery, xattrEvery);
    }
}
