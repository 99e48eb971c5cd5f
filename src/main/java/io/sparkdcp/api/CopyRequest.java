package io.sparkdcp.api;

import io.sparkdcp.copy.CopyModes;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.copy.XattrPolicy;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.ListingOptions;
import io.sparkdcp.job.WalkMode;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * How to copy: the CLI's options as a value, built with {@link #builder()}. Defaults are the CLI's.
 *
 * @param walkThreads      threads listing the source; 0 for the default (twice the CPUs, 4 to 32, or CPUs × threadsPerTask up to 64 if more)
 * @param threadsPerTask   files each task copies at once, each by its own thread (hides per-call latency)
 * @param listing          where the source is walked, and whether its listing is saved or a saved one reused
 * @param modes            how carefully files are written (atomic, verify, fsync) and, for a sync, how data is compared
 * @param progressInterval how often a progress line goes to {@code messages}; zero for none
 * @param messages         where the copy's one-line messages go (listing summary, progress);
 *                         by default stderr, prefixed {@code spark-dcp: }
 * @param timeWindow       compare: mtimes less than this apart count as equal (zero: to the nanosecond), for a
 *                         tree on a file system that keeps coarser times; the copy finds its window by itself
 */
public record CopyRequest(XattrPolicy xattrs, MetadataAccess access, boolean projectIds, int batchFiles,
                          long batchBytes, long chunkSize, int walkThreads, int threadsPerTask, ListingOptions listing,
                          CopyModes modes, Duration progressInterval, Consumer<String> messages, Duration timeWindow) {

    public CopyRequest {
        if (xattrs == null || access == null || listing == null || modes == null || progressInterval == null || messages == null)
            throw new IllegalArgumentException("xattrs, access, listing, modes, progressInterval and messages must be given");
        if (progressInterval.isNegative()) throw new IllegalArgumentException("--progress must not be negative");
        if (timeWindow == null || timeWindow.isNegative()) throw new IllegalArgumentException("--time-window must not be negative");
        if (walkThreads < 0) throw new IllegalArgumentException("walk threads must not be negative");
        if (threadsPerTask < 1) throw new IllegalArgumentException("--threads-per-task must be at least 1");
    }

    public static CopyRequest defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    int walkThreadsOrDefault() {
        return walkThreads > 0 ? walkThreads
                : JobOptions.defaultWalkThreads(Runtime.getRuntime().availableProcessors() * threadsPerTask);
    }

    /** Every setter returns the builder; strings take the CLI's words ({@code "non-lustre"}, {@code "1G"}). */
    public static final class Builder {
        private XattrPolicy xattrs = XattrPolicy.nonLustre();
        private MetadataAccess access = MetadataAccess.FD;
        private boolean projectIds = true;
        private int batchFiles = JobOptions.DEFAULT_BATCH_FILES;
        private long batchBytes = JobOptions.DEFAULT_BATCH_BYTES;
        private long chunkSize = JobOptions.DEFAULT_CHUNK_SIZE;
        private int walkThreads;
        private int threadsPerTask = 1;
        private WalkMode walk = WalkMode.AUTO;
        private String reuseListing;
        private String saveListing;
        private CopyModes modes = CopyModes.COPY;
        private Duration progressInterval = Duration.ZERO;
        private Consumer<String> messages = line -> System.err.println("spark-dcp: " + line);
        private Duration timeWindow = Duration.ZERO;

        private Builder() {}

        public Builder xattrs(XattrPolicy policy) { this.xattrs = policy; return this; }

        /** none, all, non-lustre or libattr. */
        public Builder xattrs(String word) { return xattrs(XattrPolicy.parse(word)); }

        public Builder access(MetadataAccess access) { this.access = access; return this; }

        /** fd or path. */
        public Builder access(String word) { return access(MetadataAccess.parse(word)); }

        public Builder projectIds(boolean copy) { this.projectIds = copy; return this; }

        public Builder batchFiles(int n) { this.batchFiles = n; return this; }

        public Builder batchBytes(long n) { this.batchBytes = n; return this; }

        public Builder batchBytes(String size) { return batchBytes(Sizes.parse(size)); }

        public Builder chunkSize(long n) { this.chunkSize = n; return this; }

        public Builder chunkSize(String size) { return chunkSize(Sizes.parse(size)); }

        public Builder walkThreads(int n) {
            if (n < 1) throw new IllegalArgumentException("--walk-threads must be at least 1");
            this.walkThreads = n;
            return this;
        }

        public Builder threadsPerTask(int n) { this.threadsPerTask = n; return this; }

        /** auto, driver or distributed. */
        public Builder walk(String word) { return walk(WalkMode.parse(word)); }

        public Builder walk(WalkMode mode) { this.walk = mode; return this; }

        /** Copy from a listing an earlier run saved (a Hadoop path) instead of walking SRC. */
        public Builder listing(String dir) { this.reuseListing = dir; return this; }

        /** Save the listing of SRC (a Hadoop path) for later runs. */
        public Builder saveListing(String dir) { this.saveListing = dir; return this; }

        public Builder modes(CopyModes m) { this.modes = m; return this; }

        /** Each file under a temporary name, renamed into place when complete. */
        public Builder atomic(boolean on) { return modes(new CopyModes(modes.sync(), modes.compareContents(), on, modes.verify(), modes.fsync())); }

        /** Re-read both sides of each file and compare CRC32C. */
        public Builder verify(boolean on) { return modes(new CopyModes(modes.sync(), modes.compareContents(), modes.atomic(), on, modes.fsync())); }

        /** Data made durable before times are set. */
        public Builder fsync(boolean on) { return modes(new CopyModes(modes.sync(), modes.compareContents(), modes.atomic(), modes.verify(), on)); }

        /** Sync and compare: judge files of equal size by their bytes (sync: instead of their mtimes). */
        public Builder contents(boolean on) { return modes(new CopyModes(modes.sync(), on, modes.atomic(), modes.verify(), modes.fsync())); }

        /** Compare: mtimes less than this apart count as equal. */
        public Builder timeWindow(Duration window) { this.timeWindow = window; return this; }

        public Builder progressSeconds(long seconds) { return progressInterval(Duration.ofSeconds(seconds)); }

        public Builder progressInterval(Duration interval) { this.progressInterval = interval; return this; }

        public Builder messages(Consumer<String> sink) { this.messages = sink; return this; }

        public CopyRequest build() {
            return new CopyRequest(xattrs, access, projectIds, batchFiles, batchBytes, chunkSize, walkThreads,
                    threadsPerTask, new ListingOptions(walk, reuseListing, saveListing), modes, progressInterval, messages, timeWindow);
        }
    }
}
