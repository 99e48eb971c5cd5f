package io.sparkdcp.testing;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.keep.LustreLayout;
import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.job.exec.Batching;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;

import java.nio.file.Path;

/** Runs a whole copy or sync job in this JVM, the way the tests need it, with small batches so several tasks run. */
public record LocalCopy(Keep keep, CopyModes modes, Batching batching, ListingOptions listing) {

    /** Every xattr, on the descriptors, with project IDs and flags: what the tests copy. */
    public static final Keep EVERYTHING = CopyRequest.builder().xattrs("all").build().keep();

    public static LocalCopy defaults() {
        return new LocalCopy(EVERYTHING, CopyModes.COPY, new Batching(7, 1L << 30, 256L << 20, 4, 1), ListingOptions.WALK);
    }

    /** Sync mode: existing data kept, metadata fixed. */
    public static LocalCopy syncDefaults() {
        return defaults().withModes(CopyModes.of(CopyModes.Mode.SYNC));
    }

    public LocalCopy withKeep(Keep k) { return new LocalCopy(k, modes, batching, listing); }

    public LocalCopy withAccess(MetadataAccess a) { return withKeep(keeping().xattrAccess(a)); }

    public LocalCopy withXattrs(XattrPolicy p) { return withKeep(keeping().xattrs(p)); }

    public LocalCopy withoutProjectIds() { return withKeep(keeping().projectIds(false)); }

    /** --no-flags. */
    public LocalCopy withoutFlags() { return withKeep(keeping().flags(false)); }

    /** --strict. */
    public LocalCopy strict() { return withKeep(keeping().strict(true)); }

    public LocalCopy withLustreLayout(LustreLayout l) { return withKeep(keeping().lustreLayout(l)); }

    private LocalCopy withKeep(CopyRequest.Builder changed) { return withKeep(changed.build().keep()); }

    /** The API's builder holding what this copy keeps, to change one option as the CLI would. */
    private CopyRequest.Builder keeping() { return CopyRequest.builder().keep(keep); }

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
        return new CopyJob(jobOptions(src, dst), runner, message -> {}).deleting(delete).run();
    }
}
