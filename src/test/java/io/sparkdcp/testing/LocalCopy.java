package io.sparkdcp.testing;

import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.Keep;
import io.sparkdcp.copy.LustreLayout;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.copy.XattrPolicy;
import io.sparkdcp.job.Batching;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.ListingOptions;
import io.sparkdcp.job.LocalPhaseRunner;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.job.SyncJob;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;

import java.nio.file.Path;

/** Runs a whole copy or sync job in this JVM, the way the tests need it, with small batches so several tasks run. */
public record LocalCopy(Keep keep, CopyModes modes, Batching batching, ListingOptions listing) {

    public static LocalCopy defaults() {
        return new LocalCopy(Keep.EVERYTHING, CopyModes.COPY, new Batching(7, 1L << 30, 256L << 20, 4, 1), ListingOptions.WALK);
    }

    /** Sync mode: existing data kept, metadata fixed. */
    public static LocalCopy syncDefaults() {
        return defaults().withModes(CopyModes.of(CopyModes.Mode.SYNC));
    }

    public LocalCopy withKeep(Keep k) { return new LocalCopy(k, modes, batching, listing); }

    public LocalCopy withAccess(MetadataAccess a) {
        return withKeep(new Keep(keep.xattrs(), a, keep.projectIds(), keep.flags(), keep.strict(), keep.lustreLayout()));
    }

    public LocalCopy withXattrs(XattrPolicy p) {
        return withKeep(new Keep(p, keep.xattrAccess(), keep.projectIds(), keep.flags(), keep.strict(), keep.lustreLayout()));
    }

    public LocalCopy withoutProjectIds() {
        return withKeep(new Keep(keep.xattrs(), keep.xattrAccess(), false, keep.flags(), keep.strict(), keep.lustreLayout()));
    }

    /** --no-flags. */
    public LocalCopy withoutFlags() {
        return withKeep(new Keep(keep.xattrs(), keep.xattrAccess(), keep.projectIds(), false, keep.strict(), keep.lustreLayout()));
    }

    /** --strict. */
    public LocalCopy strict() {
        return withKeep(new Keep(keep.xattrs(), keep.xattrAccess(), keep.projectIds(), keep.flags(), true, keep.lustreLayout()));
    }

    public LocalCopy withLustreLayout(LustreLayout l) {
        return withKeep(new Keep(keep.xattrs(), keep.xattrAccess(), keep.projectIds(), keep.flags(), keep.strict(), l));
    }

    public LocalCopy withChunkSize(long c) {
        Batching b = batching;
        return new LocalCopy(keep, modes, new Batching(b.batchFiles(), b.batchBytes(), c, b.walkThreads(), b.threadsPerTask()), listing);
    }

    public LocalCopy withBatchFiles(int n) {
        Batching b = batching;
        return new LocalCopy(keep, modes, new Batching(n, b.batchBytes(), b.chunkSize(), b.walkThreads(), b.threadsPerTask()), listing);
    }

    public LocalCopy withThreadsPerTask(int n) {
        Batching b = batching;
        return new LocalCopy(keep, modes, new Batching(b.batchFiles(), b.batchBytes(), b.chunkSize(), b.walkThreads(), n), listing);
    }

    public LocalCopy withModes(CopyModes m) { return new LocalCopy(keep, m, batching, listing); }

    public LocalCopy withListing(ListingOptions l) { return new LocalCopy(keep, modes, batching, l); }

    public JobOptions jobOptions(Path src, Path dst) {
        CopyOptions copy = CopyOptions.between(PathBytes.of(src.toString()), PathBytes.of(dst.toString()), keep, modes,
                batching.chunkSize());
        return new JobOptions(copy, batching, listing);
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
        return new SyncJob(jobOptions(src, dst), delete, runner, message -> {}).run();
    }
}
