package io.sparkdcp.testing;

import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.InodeOptions;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.copy.XattrPolicy;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.ListingOptions;
import io.sparkdcp.job.LocalPhaseRunner;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;

import java.nio.file.Path;

/** Runs a whole copy or sync job in this JVM, the way the tests need it, with small batches so several tasks run. */
public record LocalCopy(XattrPolicy xattrs, MetadataAccess access, boolean projectIds, long chunkSize, int batchFiles,
                        CopyModes modes, ListingOptions listing, InodeOptions inode) {

    public LocalCopy(XattrPolicy xattrs, MetadataAccess access, boolean projectIds, long chunkSize, int batchFiles,
                     CopyModes modes, ListingOptions listing) {
        this(xattrs, access, projectIds, chunkSize, batchFiles, modes, listing, InodeOptions.DEFAULT);
    }

    public static LocalCopy defaults() {
        return new LocalCopy(XattrPolicy.all(), MetadataAccess.FD, true, 256L << 20, 7, CopyModes.COPY, ListingOptions.WALK);
    }

    public LocalCopy withInode(InodeOptions i) { return new LocalCopy(xattrs, access, projectIds, chunkSize, batchFiles, modes, listing, i); }

    /** Sync mode: existing data kept, metadata fixed. */
    public static LocalCopy syncDefaults() {
        return defaults().withModes(new CopyModes(true, false, false, false, false));
    }

    public LocalCopy withAccess(MetadataAccess a) { return new LocalCopy(xattrs, a, projectIds, chunkSize, batchFiles, modes, listing, inode); }

    public LocalCopy withChunkSize(long c) { return new LocalCopy(xattrs, access, projectIds, c, batchFiles, modes, listing, inode); }

    public LocalCopy withoutProjectIds() { return new LocalCopy(xattrs, access, false, chunkSize, batchFiles, modes, listing, inode); }

    public LocalCopy withXattrs(XattrPolicy p) { return new LocalCopy(p, access, projectIds, chunkSize, batchFiles, modes, listing, inode); }

    public LocalCopy withModes(CopyModes m) { return new LocalCopy(xattrs, access, projectIds, chunkSize, batchFiles, m, listing, inode); }

    public LocalCopy withBatchFiles(int n) { return new LocalCopy(xattrs, access, projectIds, chunkSize, n, modes, listing, inode); }

    public LocalCopy withListing(ListingOptions l) { return new LocalCopy(xattrs, access, projectIds, chunkSize, batchFiles, modes, l, inode); }

    public JobOptions jobOptions(Path src, Path dst) {
        CopyOptions copy = new CopyOptions(PathBytes.of(src.toString()), PathBytes.of(dst.toString()), xattrs, access,
                projectIds, chunkSize, modes).withInode(inode);
        return new JobOptions(copy, batchFiles, 1L << 30, 4, 1, listing);
    }

    public CopyReport run(Path src, Path dst) {
        return run(src, dst, new LocalPhaseRunner(3));
    }

    public CopyReport run(Path src, Path dst, PhaseRunner runner) {
        return new CopyJob(jobOptions(src, dst), runner, message -> {}).run();
    }

    /** A sync job (the modes must have sync on), deleting what SRC lacks when asked. */
    public CopyReport sync(Path src, Path dst, boolean delete) {
        return sync(src, dst, delete, new LocalPhaseRunner(3));
    }

    public CopyReport sync(Path src, Path dst, boolean delete, PhaseRunner runner) {
        return new CopyJob(jobOptions(src, dst), runner, message -> {}).deleting(delete).run();
    }
}
