package io.sparkdcp.api;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.copy.options.OptionTable;
import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.keep.LustreLayout;
import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.throttle.Throttle;
import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.job.exec.Batching;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.SmallFiles;
import io.sparkdcp.walk.Filter;
import io.sparkdcp.walk.RuleText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * How to copy: the CLI's options as a value, built with {@link #builder()}. Each option is declared
 * once, with its default, in {@link OptionTable}; this is where each is checked: every builder setter
 * checks its value at once (the CLI calls them while parsing, through {@link Builder#set}, so a bad
 * value is a usage error before anything runs). The options come in named groups, which travel
 * unchanged to the engine ({@link io.sparkdcp.copy.options.CopyOptions}, {@link JobOptions}) and into the report.
 *
 * @param keep     what is kept of each entry: {@code --xattrs}, {@code --xattr-access}, {@code --no-projid},
 *                 {@code --no-flags}, {@code --strict}, {@code --lustre-layout}
 * @param modes    how files are written and compared: {@code --atomic}, {@code --verify}, {@code --fsync},
 *                 {@code --update}; for a sync also {@code --contents}
 * @param batching {@code --batch-files}, {@code --batch-bytes}, {@code --chunk-size}, {@code --walk-threads},
 *                 {@code --threads-per-task}
 * @param listing  {@code --walk}, {@code --listing}, {@code --save-listing}, the filter ({@code --exclude},
 *                 {@code --include}, {@code --exclude-from}, {@code --files-from}: rules in the order given) and
 *                 {@code --delete-excluded}
 * @param throttle {@code --max-ops} and {@code --bwlimit} (0: no limit)
 * @param log      {@code --log DIR} and {@code --log-skipped}; null for no log
 * @param run      {@code --mkpath}, {@code --progress}, where messages go, {@code compare --time-window}
 */
public record CopyRequest(Keep keep, CopyModes modes, Batching batching, ListingOptions listing, Throttle throttle,
                          ItemLogTarget log, RunOptions run) {

    /** The defaults, as the CLI's words (its help shows them): the option table's. */
    public static final String DEFAULT_XATTRS = OptionTable.XATTRS.defaultWord();
    public static final String DEFAULT_XATTR_ACCESS = OptionTable.XATTR_ACCESS.defaultWord();
    public static final String DEFAULT_BATCH_FILES = OptionTable.BATCH_FILES.defaultWord();
    public static final String DEFAULT_BATCH_BYTES = OptionTable.BATCH_BYTES.defaultWord();
    public static final String DEFAULT_CHUNK_SIZE = OptionTable.CHUNK_SIZE.defaultWord();
    public static final String DEFAULT_THREADS_PER_TASK = OptionTable.THREADS_PER_TASK.defaultWord();
    public static final String DEFAULT_WALK = OptionTable.WALK.defaultWord();
    public static final String DEFAULT_LUSTRE_LAYOUT = OptionTable.LUSTRE_LAYOUT.defaultWord();

    /** Threads are platform threads, each with its own stack: beyond this a typo, not a plan. */
    public static final int MAX_THREADS = OptionTable.MAX_THREADS;
    /** Smaller chunks would only multiply the plan's chunk objects (the copy buffer is 1 MiB). */
    public static final long MIN_CHUNK_SIZE = 1L << 20;
    public static final long MAX_PROGRESS_SECONDS = 86_400;

    public CopyRequest {
        if (keep == null || modes == null || batching == null || listing == null || throttle == null || run == null)
            throw new IllegalArgumentException("keep, modes, batching, listing, throttle and run must be given");
    }

    public static CopyRequest defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The same request keeping what {@code k} says (the builder's checks of other groups stay valid). */
    public CopyRequest withKeep(Keep k) {
        return new CopyRequest(k, modes, batching, listing, throttle, log, run);
    }

    /** The same request run and told as {@code r} says. */
    public CopyRequest withRun(RunOptions r) {
        return new CopyRequest(keep, modes, batching, listing, throttle, log, r);
    }

    /**
     * The default of {@code --walk-threads}: twice the CPUs, from 4 to 32, or as many as the copy
     * keeps calls in flight (CPUs × {@code --threads-per-task}, up to 64): on a file system where
     * each call is a round trip the walk needs the same concurrency as the copy.
     */
    static int defaultWalkThreads(int threadsPerTask) {
        int cpus = Runtime.getRuntime().availableProcessors();
        return Math.max(Math.min(32, Math.max(4, 2 * cpus)), (int) Math.min(64L, (long) cpus * threadsPerTask));
    }

    /**
     * Every setter returns the builder and throws IllegalArgumentException, naming the option, for a
     * value out of bounds; strings take the CLI's words ({@code "non-lustre"}, {@code "1G"}).
     */
    public static final class Builder {
        private XattrPolicy xattrs;
        private MetadataAccess xattrAccess;
        private boolean projectIds = true;
        private boolean flags = true;
        private boolean strict;
        private LustreLayout lustreLayout;
        private CopyModes modes = CopyModes.COPY;
        private int batchFiles;
        private long batchBytes;
        private long chunkSize;
        /** 0 until set: then the default, which depends on threadsPerTask. */
        private int walkThreads;
        private int threadsPerTask;
        private WalkMode walk;
        private String listing;
        private String saveListing;
        private String state;
        private Filter filter = Filter.NONE;
        private boolean deleteExcluded;
        private long maxOps;
        private long bwlimit;
        private String log;
        private boolean logSkipped;
        private boolean mkpath;
        private Duration progressInterval = Duration.ZERO;
        private Consumer<String> messages = line -> System.err.println("spark-dcp: " + line);
        /** null: with the messages. */
        private Consumer<String> progress;
        private Duration timeWindow = Duration.ZERO;

        private Builder() {
            for (OptionTable option : OptionTable.values()) if (option.defaultWord() != null) set(option, option.defaultWord());
        }

        /**
         * Sets the option of {@code option}'s entry from the word given on the command line ({@code "true"} for a
         * flag given; a duration as nanoseconds): the CLI sets every option of the table through here, a flag
         * picocli's {@code true} or {@code false}.
         */
        public Builder set(RequestOption option, String word) { return set(option.entry, word); }

        /** As {@link #set(RequestOption, String)}, by the table's entry. */
        public Builder set(OptionTable option, String word) {
            required(word, option.option());
            if (option.mode() != null) return mode(option.mode(), on(word, option));
            return switch (option) {
                case XATTRS -> xattrs(word);
                case XATTR_ACCESS -> xattrAccess(word);
                case NO_PROJID -> projectIds(!on(word, option));
                case NO_FLAGS -> flags(!on(word, option));
                case STRICT -> strict(on(word, option));
                case LUSTRE_LAYOUT -> lustreLayout(word);
                case BATCH_FILES -> batchFiles(Integer.parseInt(word));
                case BATCH_BYTES -> batchBytes(word);
                case CHUNK_SIZE -> chunkSize(word);
                case WALK_THREADS -> walkThreads(Integer.parseInt(word));
                case THREADS_PER_TASK -> threadsPerTask(Integer.parseInt(word));
                case WALK -> walk(word);
                case SAVE_LISTING -> saveListing(word);
                case STATE -> state(word);
                case LISTING -> listing(word);
                case MAX_OPS -> maxOps(Long.parseLong(word));
                case BWLIMIT -> bwlimit(word);
                case MKPATH -> mkpath(on(word, option));
                case TIME_WINDOW -> timeWindow(Duration.ofNanos(Long.parseLong(word)));
                default -> throw new IllegalStateException(option.option() + " is in the option table but not set by the builder");
            };
        }

        private static boolean on(String word, OptionTable option) {
            if (!word.equals("true") && !word.equals("false"))
                throw new IllegalArgumentException(option.option() + " is on or off (true or false), not '" + word + "'");
            return word.equals("true");
        }

        /** All of {@code keep}'s options at once, for the setters below to change some of them. */
        public Builder keep(Keep keep) {
            required(keep, "keep");
            xattrs = keep.xattrs();
            xattrAccess = keep.xattrAccess();
            projectIds = keep.projectIds();
            flags = keep.flags();
            strict = keep.strict();
            lustreLayout = keep.lustreLayout();
            return this;
        }

        public Builder xattrs(XattrPolicy policy) { this.xattrs = required(policy, OptionTable.XATTRS.option()); return this; }

        /** none, all, non-lustre or libattr. */
        public Builder xattrs(String word) { return xattrs(XattrPolicy.parse(word)); }

        public Builder xattrAccess(MetadataAccess access) { this.xattrAccess = required(access, OptionTable.XATTR_ACCESS.option()); return this; }

        /** fd, the one way a user's copy takes (the bench sets the others by their {@link MetadataAccess}). */
        public Builder xattrAccess(String word) { return xattrAccess(MetadataAccess.parse(word)); }

        public Builder projectIds(boolean copy) { this.projectIds = copy; return this; }

        /** Inode flags and extent-size hints (false: --no-flags). */
        public Builder flags(boolean copy) { this.flags = copy; return this; }

        /** A flag or Lustre layout the destination cannot hold fails the entry (else one notice per kind). */
        public Builder strict(boolean on) { this.strict = on; return this; }

        public Builder lustreLayout(LustreLayout layout) { this.lustreLayout = required(layout, OptionTable.LUSTRE_LAYOUT.option()); return this; }

        /** inherit, keep or exact. */
        public Builder lustreLayout(String word) { return lustreLayout(LustreLayout.parse(word)); }

        public Builder batchFiles(int n) { this.batchFiles = atLeast(n, 1, OptionTable.BATCH_FILES.option()); return this; }

        public Builder batchBytes(long n) { this.batchBytes = atLeast(n, 1, OptionTable.BATCH_BYTES.option()); return this; }

        public Builder batchBytes(String size) { return batchBytes(Sizes.parse(size)); }

        public Builder chunkSize(long n) {
            if (n < MIN_CHUNK_SIZE) throw new IllegalArgumentException(OptionTable.CHUNK_SIZE.option() + " must be at least 1M, not " + n + " bytes");
            this.chunkSize = n;
            return this;
        }

        public Builder chunkSize(String size) { return chunkSize(Sizes.parse(size)); }

        public Builder walkThreads(int n) { this.walkThreads = threads(n, OptionTable.WALK_THREADS.option()); return this; }

        public Builder threadsPerTask(int n) { this.threadsPerTask = threads(n, OptionTable.THREADS_PER_TASK.option()); return this; }

        /** auto, driver or distributed. */
        public Builder walk(String word) { return walk(WalkMode.parse(word)); }

        public Builder walk(WalkMode mode) { this.walk = required(mode, OptionTable.WALK.option()); return this; }

        /** Copy from a listing an earlier run saved (local, or a Hadoop path) instead of walking SRC. */
        public Builder listing(String dir) { this.listing = nonBlank(dir, OptionTable.LISTING.option()); return this; }

        /** Save the listing of SRC (local, or a Hadoop path) for later runs. */
        public Builder saveListing(String dir) { this.saveListing = nonBlank(dir, OptionTable.SAVE_LISTING.option()); return this; }

        /** The state ledger's directory, local or a Hadoop path: entries unchanged on both sides since the last successful run go unopened. */
        public Builder state(String dir) { this.state = nonBlank(dir, OptionTable.STATE.option()); return this; }

        /** Create DST's missing parent directories, as rsync --mkpath does; without it a missing parent is refused. */
        public Builder mkpath(boolean on) { this.mkpath = on; return this; }
        /** Leave out entries matching PATTERN (rsync's meaning; bytes, so any name can be matched). */
        public Builder exclude(String pattern) { return rule(false, PathBytes.of(pattern), "--exclude"); }

        public Builder exclude(byte[] pattern) { return rule(false, pattern, "--exclude"); }

        /** Keep entries matching PATTERN, whatever later rules say: the first rule that matches decides. */
        public Builder include(String pattern) { return rule(true, PathBytes.of(pattern), "--include"); }

        public Builder include(byte[] pattern) { return rule(true, pattern, "--include"); }

        /**
         * Rules read from FILE, one a line (bytes as they are), as rsync's --exclude-from reads them:
         * blank lines and lines starting with {@code #} or {@code ;} are skipped, {@code + } makes a
         * line an include rule and {@code - } an exclude rule, {@code !} clears the rules so far.
         */
        public Builder excludeFrom(String file) { return excludeFrom(bytes(file)); }

        /** The same for a file named by bytes (a name that is not UTF-8). */
        public Builder excludeFrom(byte[] file) { return ruleFile(false, file, "--exclude-from"); }

        /** As {@link #excludeFrom}, a line without a prefix being an include rule (rsync's --include-from). */
        public Builder includeFrom(String file) { return includeFrom(bytes(file)); }

        /** The same for a file named by bytes (a name that is not UTF-8). */
        public Builder includeFrom(byte[] file) { return ruleFile(true, file, "--include-from"); }

        /**
         * Copy only the paths listed in FILE (one a line, relative to SRC; a listed directory with all
         * it holds), and the directories above them, which get their metadata too.
         */
        public Builder filesFrom(String file) { return filesFrom(bytes(file)); }

        /** The same for a file named by bytes (a name that is not UTF-8). */
        public Builder filesFrom(byte[] file) {
            List<byte[]> paths = new ArrayList<>();
            for (byte[] line : lines(file, "--files-from")) {
                if (line.length == 0) continue;
                byte[] path;
                try {
                    path = Filter.listedPath(line);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--files-from " + PathBytes.display(file) + ": " + e.getMessage());
                }
                if (path == null) return this; // SRC itself is listed: everything is
                paths.add(path);
            }
            this.filter = filter.listing(paths);
            return this;
        }

        public Builder deleteExcluded(boolean on) { this.deleteExcluded = on; return this; }

        public Builder modes(CopyModes m) { this.modes = required(m, "modes"); return this; }

        /**
         * Turns the write mode a CLI word names on or off ({@code "verify"} for {@code --verify}, {@code "sync"}
         * for the command): the named setters below are this for each mode.
         */
        public Builder mode(String word, boolean on) { return mode(OptionTable.modeOf(required(word, "mode")), on); }

        private Builder mode(CopyModes.Mode mode, boolean on) { return modes(modes.with(mode, on)); }

        /** Existing entries whose data is right keep it; only differing metadata is fixed. */
        public Builder sync(boolean on) { return mode(CopyModes.Mode.SYNC, on); }

        /** With sync: files of equal size are compared byte by byte, not by mtime; with compare: their bytes are read too. */
        public Builder contents(boolean on) { return mode(CopyModes.Mode.CONTENTS, on); }

        /** Each file under a temporary name, renamed into place when complete. */
        public Builder atomic(boolean on) { return mode(CopyModes.Mode.ATOMIC, on); }

        /** Re-read both sides of each file and compare CRC32C. */
        public Builder verify(boolean on) { return mode(CopyModes.Mode.VERIFY, on); }

        /** Data made durable before times are set. */
        public Builder fsync(boolean on) { return mode(CopyModes.Mode.FSYNC, on); }

        /** A file whose destination is a file with a newer mtime is left as it is, and counted apart. */
        public Builder update(boolean on) { return mode(CopyModes.Mode.UPDATE, on); }

        /** {@code --inplace}: files created and written under their final name. */
        public Builder inPlace(boolean on) { return mode(CopyModes.Mode.INPLACE, on); }

        public Builder progressSeconds(long seconds) {
            if (seconds < 0) throw new IllegalArgumentException("--progress must not be negative");
            if (seconds > MAX_PROGRESS_SECONDS)
                throw new IllegalArgumentException("--progress must be at most " + MAX_PROGRESS_SECONDS + " seconds, not " + seconds);
            return progressInterval(Duration.ofSeconds(seconds));
        }

        public Builder progressInterval(Duration interval) {
            if (required(interval, "--progress").isNegative()) throw new IllegalArgumentException("--progress must not be negative");
            this.progressInterval = interval;
            return this;
        }

        public Builder messages(Consumer<String> sink) { this.messages = required(sink, "messages"); return this; }

        /** Where progress lines go (default: with the messages). */
        public Builder progress(Consumer<String> sink) { this.progress = required(sink, "progress"); return this; }

        public Builder timeWindow(Duration window) {
            if (required(window, OptionTable.TIME_WINDOW.option()).isNegative())
                throw new IllegalArgumentException(OptionTable.TIME_WINDOW.option() + " must not be negative");
            this.timeWindow = window;
            return this;
        }

        /** At most n metadata calls (open, stat, xattr, ioctl, chown...) per second for the whole job; unset: no limit. */
        public Builder maxOps(long n) { this.maxOps = atLeast(n, 1, OptionTable.MAX_OPS.option()); return this; }

        /** At most this many bytes of file data per second for the whole job; unset: no limit. */
        public Builder bwlimit(long bytesPerSecond) { this.bwlimit = atLeast(bytesPerSecond, 1, OptionTable.BWLIMIT.option()); return this; }

        public Builder bwlimit(String size) { return bwlimit(Sizes.parse(size)); }

        /** Log each entry acted on (copied, linked, fixed, deleted, failed...) in DIR, local or a Hadoop path, one part per task. */
        public Builder log(String dir) { this.log = nonBlank(dir, "--log"); return this; }

        /** The log lists the entries left as they were too. */
        public Builder logSkipped(boolean on) { this.logSkipped = on; return this; }

        /** Checks what no single setter can: options that exclude each other. */
        public CopyRequest build() {
            if (listing != null && saveListing != null)
                throw new IllegalArgumentException("--listing and --save-listing exclude each other: the listing is already saved");
            if (listing != null && state != null)
                throw new IllegalArgumentException("--state proves entries unchanged from a fresh walk of SRC; a saved listing's stats "
                        + "may be older than SRC: drop --listing or --state");
            if (listing != null && !filter.none())
                throw new IllegalArgumentException("--listing copies a saved listing as it is: --exclude, --include, "
                        + "--include-from, --exclude-from and --files-from filter a walk of SRC (save the listing with them)");
            if (logSkipped && log == null)
                throw new IllegalArgumentException("--log-skipped adds to the log of --log DIR: give --log too");
            if (modes.inPlace() && modes.update())
                throw new IllegalArgumentException("--inplace and --update exclude each other: a file a killed --inplace run left "
                        + "partial has a newer mtime than SRC's, so --update would keep it as the user's");
            if (deleteExcluded && !modes.sync())
                throw new IllegalArgumentException("--delete-excluded deletes in a sync; a copy deletes nothing");
            return new CopyRequest(new Keep(xattrs, xattrAccess, projectIds, flags, strict, lustreLayout), modes,
                    new Batching(batchFiles, batchBytes, chunkSize, walkThreads > 0 ? walkThreads : defaultWalkThreads(threadsPerTask),
                            threadsPerTask),
                    new ListingOptions(walk, listing, saveListing, filter, deleteExcluded, state), Throttle.of(maxOps, bwlimit),
                    log == null ? null : new ItemLogTarget(log, logSkipped, PathBytes.EMPTY),
                    new RunOptions(mkpath, progressInterval, messages, progress != null ? progress : messages, timeWindow));
        }

        private Builder rule(boolean include, byte[] text, String option) {
            try {
                this.filter = RuleText.apply(filter, include, required(text, option));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + " " + e.getMessage());
            }
            return this;
        }

        private Builder ruleFile(boolean include, byte[] file, String option) {
            for (byte[] line : RuleText.fileLines(read(file, option))) rule(include, line, option + " " + PathBytes.display(file) + ":");
            return this;
        }

        /** The file's lines as bytes (a trailing CR dropped); an unreadable file names itself and the reason. */
        private static List<byte[]> lines(byte[] file, String option) {
            byte[] all = read(file, option);
            List<byte[]> lines = new ArrayList<>();
            int start = 0;
            for (int i = 0; i <= all.length; i++) {
                if (i < all.length && all[i] != '\n') continue;
                int end = i > start && all[i - 1] == '\r' ? i - 1 : i;
                if (i < all.length || end > start) lines.add(Arrays.copyOfRange(all, start, end));
                start = i + 1;
            }
            return lines;
        }

        private static byte[] read(byte[] file, String option) {
            try {
                return SmallFiles.read(required(file, option));
            } catch (PosixException e) {
                throw new IllegalArgumentException(option + " cannot read " + PathBytes.display(file) + ": " + ioReason(e));
            }
        }

        private static String ioReason(PosixException e) {
            if (e.errno() == Errno.ENOENT) return "no such file";
            if (e.errno() == Errno.EACCES) return "permission denied";
            return e.reason();
        }

        /** A name as its UTF-8 bytes; null stays null, for the check to name. */
        private static byte[] bytes(String name) {
            return name == null ? null : PathBytes.of(name);
        }

        private static int threads(int n, String option) {
            if (n < 1 || n > MAX_THREADS)
                throw new IllegalArgumentException(option + " must be from 1 to " + MAX_THREADS + ", not " + n);
            return n;
        }

        private static <N extends Number> N atLeast(N n, long min, String option) {
            if (n.longValue() < min) throw new IllegalArgumentException(option + " must be at least " + min + ", not " + n);
            return n;
        }

        private static <T> T required(T value, String what) {
            if (value == null) throw new IllegalArgumentException(what + " must be given");
            return value;
        }

        private static String nonBlank(String dir, String option) {
            if (dir != null && dir.isBlank()) throw new IllegalArgumentException(option + " needs a directory, not an empty name");
            return dir;
        }
    }
}
