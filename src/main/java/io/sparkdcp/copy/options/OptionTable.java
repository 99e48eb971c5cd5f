package io.sparkdcp.copy.options;

import io.sparkdcp.copy.options.CopyModes.Mode;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static io.sparkdcp.copy.options.OptionTable.Command.BENCH;
import static io.sparkdcp.copy.options.OptionTable.Command.COMPARE;
import static io.sparkdcp.copy.options.OptionTable.Command.COPY;
import static io.sparkdcp.copy.options.OptionTable.Command.SYNC;

/**
 * The request's options, each declared once, as DistCp's {@code DistCpOptionSwitch} and rclone's flag
 * table declare theirs: its word ({@code --} and the word on the command line), the commands that take
 * it, its value (the words it takes, when they are few), default, help, its key under the JSON report's
 * {@code settings}, and, for a mode, whether it changes what counts as identical (the state ledger's fingerprint then holds it; what is kept and the filter
 * enter the fingerprint whole). The CLI makes its options
 * from this table, {@code CopyRequest.Builder} sets each by its entry and the report and the ledger
 * read their keys from it; what a mode does is the engine's code that asks {@link CopyModes#has}.
 * Options of one command's running (--master, --report, -q, --progress, --dry-run...), the filter
 * rules, which keep their order, and the item log, whose directory is checked when the run is prepared,
 * stay beside their command.
 */
public enum OptionTable {
    // What is kept of each entry (CopyRequest's keep).
    XATTRS(Value.TEXT, "xattrs", on(COPY, SYNC, COMPARE, BENCH).words("none", "all", "non-lustre", "libattr").byDefault("non-lustre")
            .report("xattrs")
            .help("Extended attributes to copy (ACLs included): non-lustre skips those Lustre manages itself, "
                    + "libattr those /etc/xattr.conf marks skip. Default: ${DEFAULT-VALUE}.")),
    XATTR_ACCESS(Value.TEXT, "xattr-access", on(COPY, SYNC).words("fd").byDefault("fd").report("xattr_access")
            .help("Read and write xattrs and project IDs on the file descriptors the copy holds (fd, the only value; "
                    + "the path way, a second open of each file, is the bench's baseline). Default: ${DEFAULT-VALUE}.")),
    NO_PROJID(Value.FLAG, "no-projid", on(COPY, SYNC, COMPARE).report("project_ids")
            .help("Do not copy project IDs and the PROJINHERIT flag.")
            .compareHelp("Do not compare project IDs and PROJINHERIT.")),
    NO_FLAGS(Value.FLAG, "no-flags", on(COPY, SYNC, COMPARE).report("flags")
            .help("Do not copy inode flags (immutable, append-only, sync, noatime, nodump, nodefrag, dax) and extent-size hints.")
            .compareHelp("Do not compare inode flags (immutable, append-only, nodump...) and extent-size hints.")),
    STRICT(Value.FLAG, "strict", on(COPY, SYNC)
            .help("A flag or Lustre layout the destination cannot hold, or an owner a run that is not root cannot give, fails the entry "
                    + "(default: one notice per kind, and the entry is copied without it).")),
    LUSTRE_LAYOUT(Value.TEXT, "lustre-layout", on(COPY, SYNC).words("inherit", "keep", "exact").byDefault("inherit")
            .help("Layout of new files and directories on Lustre: the destination directory's (inherit), "
                    + "the source's without OST indexes (keep), or as it is (exact). Default: ${DEFAULT-VALUE}.")),

    // How files are written and compared (CopyRequest's modes), in the report's order.
    /** The sync command's mode: no option of its own, the command turns it on. */
    SYNC_MODE(Value.FLAG, "sync", on().mode(Mode.SYNC).report("sync")),
    CONTENTS(Value.FLAG, "contents", on(SYNC, COMPARE).mode(Mode.CONTENTS).report("compare_contents").identity()
            .help("Compare the bytes of files of equal size instead of trusting equal mtimes; files whose bytes are equal "
                    + "only get their metadata.")
            .compareHelp("Also read and compare the bytes of files of equal size.")),
    ATOMIC(Value.FLAG, "atomic", on(COPY, SYNC).mode(Mode.ATOMIC).report("atomic")
            .help("Accepted for scripts; always so: every file gets its name only when its data and metadata are complete "
                    + "(unnamed, or a temporary renamed into place); the next run removes temporaries a killed run left.")),
    VERIFY(Value.FLAG, "verify", on(COPY, SYNC).mode(Mode.VERIFY).report("verify")
            .help("After writing each file, re-read the source and the copy and compare CRC32C checksums; a mismatch fails "
                    + "the file and removes the copy.")),
    FSYNC(Value.FLAG, "fsync", on(COPY, SYNC).mode(Mode.FSYNC).report("fsync")
            .help("Make each file's data durable (fsync) before its times are set.")),
    UPDATE(Value.FLAG, "update", on(COPY, SYNC).mode(Mode.UPDATE).report("update")
            .help("Leave a file as it is when DST has a file there with a newer mtime (counted apart in the report), "
                    + "as rsync --update does.")),
    INPLACE(Value.FLAG, "inplace", on(COPY, SYNC).mode(Mode.INPLACE).report("inplace")
            .help("Create each file under its final name and write it there, as rsync --inplace does: fewer metadata "
                    + "requests per file (no temporary, rename or marker), but a run killed mid-file leaves a partial file "
                    + "at DST until the next run copies it again (its size or mtime differ from SRC's). "
                    + "Not with --update, which would keep such a file as newer.")),

    // How the work is cut into tasks (CopyRequest's batching).
    BATCH_FILES(Value.INT, "batch-files", on(COPY, SYNC, COMPARE, BENCH).label("N").byDefault("2000")
            .help("Entries per task at most. Default: ${DEFAULT-VALUE}.")),
    BATCH_BYTES(Value.TEXT, "batch-bytes", on(COPY, SYNC, COMPARE, BENCH).label("SIZE").byDefault("1G")
            .help("File bytes per task at most (K, M, G, T: binary units). Default: ${DEFAULT-VALUE}.")),
    CHUNK_SIZE(Value.TEXT, "chunk-size", on(COPY, SYNC, COMPARE, BENCH).label("SIZE").byDefault("256M")
            .help("Files larger than this are copied in chunks of this size (at least 1M) by several tasks. "
                    + "Default: ${DEFAULT-VALUE}.")),
    WALK_THREADS(Value.INT, "walk-threads", on(COPY, SYNC, COMPARE, BENCH).label("N")
            .help("Threads listing the source, on the driver or in each walk task, 1 to " + OptionTable.MAX_THREADS
                    + " (default: twice the CPUs, from 4 to 32, or the CPUs times --threads-per-task, up to 64, when that is more).")),
    THREADS_PER_TASK(Value.INT, "threads-per-task", on(COPY, SYNC, COMPARE, BENCH).label("N").byDefault("1")
            .help("Files each task copies at once, each by its own thread, 1 to " + OptionTable.MAX_THREADS
                    + ": hides per-call latency on file systems such as Lustre. Default: ${DEFAULT-VALUE}.")),

    // Where the listing comes from (CopyRequest's listing).
    WALK(Value.TEXT, "walk", on(COPY, SYNC, COMPARE).words("auto", "driver", "distributed").byDefault("auto").report("listed_by")
            .help("Where SRC is listed: by the driver's threads, or by the executors in rounds of subtrees "
                    + "(for huge trees); auto: on the executors when the master is a cluster. Default: ${DEFAULT-VALUE}.")
            .compareHelp("Where the trees are listed: by the driver's threads, or by the executors in rounds of subtrees; "
                    + "auto: on the executors when the master is a cluster. Default: ${DEFAULT-VALUE}.")),
    SAVE_LISTING(Value.HADOOP_PATH, "save-listing", on(COPY, SYNC).label("DIR")
            .help("Save the listing of SRC in DIR (a Hadoop SequenceFile; a local directory, or a Hadoop path such as "
                    + "hdfs://HOST/DIR) for later runs' --listing.")),
    STATE(Value.HADOOP_PATH, "state", on(COPY, SYNC).label("DIR")
            .help("Keep a state ledger in DIR (a local directory, or a Hadoop path such as hdfs://HOST/DIR; one run at a time): an entry whose SRC and DST are both "
                    + "as the last successful run found them identical (inode, size, mtime, ctime) is not opened; the rest is "
                    + "compared in full. A damaged ledger is ignored with a notice and rebuilt.")),
    LISTING(Value.HADOOP_PATH, "listing", on(COPY, SYNC).label("DIR").report("listing_dir")
            .help("Copy from the listing an earlier run saved in DIR instead of walking SRC: "
                    + "entries SRC gained since are not copied.")),

    // The job's rate limits (CopyRequest's throttle).
    MAX_OPS(Value.LONG, "max-ops", on(COPY, SYNC, BENCH).label("N").report("max_ops_per_second")
            .help("At most N metadata calls (open, stat, xattr, ioctl, chown, chmod, utimens, mkdir, unlink...) "
                    + "per second for the whole job, shared by its running tasks. Default: no limit.")),
    BWLIMIT(Value.TEXT, "bwlimit", on(COPY, SYNC, BENCH).label("SIZE").report("bwlimit_bytes_per_second")
            .help("At most SIZE bytes of file data per second for the whole job (K, M, G, T: binary units, "
                    + "so 200M is 200.0 MiB/s), shared by its running tasks. Default: no limit.")),

    // How the driver runs (CopyRequest's run).
    MKPATH(Value.FLAG, "mkpath", on(COPY, SYNC)
            .help("Create DST's missing parent directories (without it, a missing parent is refused with exit 2 and "
                    + "nothing is created, so a typo in DST cannot make a new tree).")),
    TIME_WINDOW(Value.DURATION, "time-window", on(COMPARE).label("DURATION").report("time_window_nanos")
            .help("Mtimes less than this apart count as equal (like rsync's --modify-window), for a DST on a file "
                    + "system that keeps coarser times: 1s, 2s (FAT), 1us. Default: 0, to the nanosecond."));

    /** Threads are platform threads, each with its own stack: beyond this a typo, not a plan. */
    public static final int MAX_THREADS = 1024;

    /** The commands that take options from this table; the bench takes the engine's and the limits. */
    public enum Command { COPY, SYNC, COMPARE, BENCH }

    /** What follows the option: nothing (a flag), a word, a number, a Hadoop path, a duration (1s, 2ms). */
    public enum Value { FLAG, TEXT, INT, LONG, HADOOP_PATH, DURATION }

    private final Value value;
    private final String word;
    private final Declaration d;

    OptionTable(Value value, String word, Declaration declaration) {
        this.value = value;
        this.word = word;
        this.d = declaration;
    }

    /** The option as typed: {@code --verify}. */
    public String option() { return "--" + word; }

    /** The word without its dashes, as {@code CopyRequest.Builder.mode} takes a mode's: {@code verify}. */
    public String word() { return word; }

    public Value value() { return value; }

    public boolean takes(Command command) { return d.commands.contains(command); }

    /** What help shows after the option (N, SIZE, DIR, the words taken); null for a flag. */
    public String label() { return d.label; }

    /** The words the option takes when they are few (help shows them as its label, completion offers them); else empty. */
    public List<String> words() { return d.words; }

    /** The default as a word the option takes; null: none (or, for a number, one the builder works out). */
    public String defaultWord() { return d.defaultWord; }

    /** The help of {@code command}'s option (picocli's variables, ${DEFAULT-VALUE}, in it). */
    public String help(Command command) { return command == COMPARE && d.compareHelp != null ? d.compareHelp : d.help; }

    /** The write mode this option turns on; null when it is not a mode. */
    public Mode mode() { return d.mode; }

    /** Its key under the JSON report's {@code settings}; null when the report does not show it. */
    public String reportKey() { return d.reportKey; }

    /** Whether it changes what counts as identical: a ledger recorded without it proves nothing for a run with it. */
    public boolean identity() { return d.identity; }

    /** The entry of a mode. */
    public static OptionTable of(Mode mode) {
        for (OptionTable o : values()) if (o.mode() == mode) return o;
        throw new IllegalStateException(mode + " has no entry in the option table");
    }

    /** The mode a CLI word names: the command {@code sync}, or a mode option's word ({@code verify}). */
    public static Mode modeOf(String word) {
        for (OptionTable o : values()) if (o.mode() != null && o.word.equals(word)) return o.mode();
        throw new IllegalArgumentException("unknown write mode '" + word + "'");
    }

    /** The modes that change what counts as identical, in the table's order. */
    public static Set<Mode> identityModes() {
        Set<Mode> modes = EnumSet.noneOf(Mode.class);
        for (OptionTable o : values()) if (o.mode() != null && o.identity()) modes.add(o.mode());
        return modes;
    }

    private static Declaration on(Command... commands) {
        return new Declaration(commands.length == 0 ? EnumSet.noneOf(Command.class) : EnumSet.copyOf(Arrays.asList(commands)));
    }

    /** An entry's declaration, written as a chain of what differs from nothing. */
    private static final class Declaration {
        private final Set<Command> commands;
        private String label;
        private List<String> words = List.of();
        private String defaultWord;
        private String help;
        private String compareHelp;
        private Mode mode;
        private String reportKey;
        private boolean identity;

        private Declaration(Set<Command> commands) { this.commands = commands; }

        Declaration label(String l) { label = l; return this; }

        Declaration words(String... taken) { words = List.of(taken); return label(String.join("|", taken)); }

        Declaration byDefault(String word) { defaultWord = word; return this; }

        Declaration help(String text) { help = text; return this; }

        Declaration compareHelp(String text) { compareHelp = text; return this; }

        Declaration mode(Mode m) { mode = m; return this; }

        Declaration report(String key) { reportKey = key; return this; }

        Declaration identity() { identity = true; return this; }
    }
}
