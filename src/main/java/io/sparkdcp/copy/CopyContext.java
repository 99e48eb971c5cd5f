package io.sparkdcp.copy;

import io.sparkdcp.copy.decision.Decision;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.util.Arrays;
import java.util.List;


/**
 * What one engine's copiers share: the task's trees ({@link TaskTrees}), this engine's open
 * directories beneath them, the metadata way, buffers, who we are. One thread's.
 */
final class CopyContext implements AutoCloseable {
    private static final byte[] DEFAULT_ACL = PathBytes.of("system.posix_acl_default");

    final CopyOptions options;
    final StepRecorder steps;
    final DirectoryCache source;
    final DirectoryCache destination;
    final MetadataIO metadata;
    final MetadataWriter writer;
    final DataCopier data;
    final FlagRefusals refusals;
    final LayoutCopier layouts;
    final OwnersNotKept owners;
    /** Clears DST entries' immutable and append-only flags where the source carries them, refuses the rest. */
    final Unlocker unlocker;
    final int euid;
    final int egid;
    private final TaskTrees trees;
    private final NativeBuffer probe = new NativeBuffer(4096);
    private long timeWindowNanos = -1;

    CopyContext(TaskTrees trees, StepRecorder recorder) {
        this(trees, recorder, ProgressRecorder.NONE);
    }

    /** @param progress told the data bytes as they are written */
    CopyContext(TaskTrees trees, StepRecorder recorder, ProgressRecorder progress) {
        this.trees = trees;
        this.options = trees.options;
        this.steps = trees.limits.throttled(recorder);
        this.data = new DataCopier(trees.limits.bytes(), progress);
        this.euid = trees.euid;
        this.egid = trees.egid;
        this.source = new DirectoryCache(trees.sourceRoot, steps);
        this.destination = new DirectoryCache(trees.destinationRoot, steps);
        this.unlocker = new Unlocker(options, steps, source, destination, this::parentState);
        this.refusals = new FlagRefusals(options.keep().strict());
        this.layouts = new LayoutCopier(options.keep());
        this.owners = new OwnersNotKept(euid, options.keep().strict());
        this.metadata = switch (options.xattrAccess()) {
            case FD -> new FdMetadataIO(options.xattrs(), steps, false, refusals);
            case FD_ALWAYS_SET -> new FdMetadataIO(options.xattrs(), steps, true, refusals);
            case PATH -> OtherWays.open(options.xattrAccess(), options, steps, source, destination, refusals);
        };
        this.writer = new MetadataWriter(this);
    }

    boolean privileged() { return euid == 0; }

    /** O_NOATIME needs ownership or CAP_FOWNER: ask for it only where the kernel will grant it. */
    int sourceOpenFlags(Stat s) {
        int flags = Linux.O_RDONLY | Linux.O_NOFOLLOW;
        return privileged() || s.uid() == euid ? flags | Linux.O_NOATIME : flags;
    }

    /** The destination directory's gifts to new entries, read once per directory per task (shared by its engines). */
    ParentState parentState(byte[] relPath) {
        ParentState state = trees.parentState(relPath);
        if (state != null) return state;
        Fd dir = destination.get(relPath);
        Stat s = steps.time(Step.STAT_DST, () -> Posix.fstat(dir));
        FsXattr project = options.readsFsXattr() ? FdMetadataIO.projectOrNull(dir, steps) : null;
        boolean defaultAcl = !options.xattrs().copiesNothing() && steps.time(Step.XATTR_LIST, () -> hasDefaultAcl(dir));
        state = new ParentState(s.gid(), (s.permissions() & Linux.S_ISGID) != 0, project, defaultAcl,
                s.locks() == 0 ? 0 : unlocker.protectedDirectoryLocks(relPath, s.locks()));
        trees.keepParentState(relPath, state);
        return state;
    }

    /** Listed rather than got: a get fails (ENODATA) on nearly every directory, a list does not. */
    private boolean hasDefaultAcl(Fd dir) {
        try {
            return Posix.flistxattr(dir, probe).stream().anyMatch(n -> Arrays.equals(n, DEFAULT_ACL));
        } catch (PosixException e) {
            if (e.errno() != Errno.EOPNOTSUPP) throw e;
            return false;
        }
    }

    /** A directory changed under us (made or given metadata): forget what we knew of it. */
    void forgetParentState(byte[] relPath) {
        trees.forgetParentState(relPath);
    }

    /** What the copy does with e, given what the destination has at its path (null: nothing). */
    Decision decide(Entry e, Stat existing) {
        Decision d = Decision.of(e.stat(), existing, options.modes(), euid, timeWindowNanos(), options.flags());
        // An entry kept as it is keeps the owner DST gave it; one made or fixed is checked as its owner is set.
        if (existing != null && d.reason() == null && (d.kind() == Decision.Kind.SKIP || d.kind() == Decision.Kind.FIX_METADATA))
            owners.check(e.path(), e.stat(), existing.uid());
        return d;
    }

    /** What of e's source struct (read as source) its copy must hold; null when nothing. */
    WantedFsXattr wanted(FsXattr source) {
        return WantedFsXattr.of(refusals.holdable(source), options);
    }

    /** The source's struct of an open source entry, when project IDs or flags are carried (else null, no call). */
    FsXattr readFsXattr(Fd src, byte[] relPath) {
        return options.readsFsXattr() ? metadata.readFsXattr(src, relPath) : null;
    }

    /**
     * Whether an unnamed file's create or link in dir that failed with ENOSPC runs once more, the file
     * system written back first. XFS holds space for data not yet written back (delayed allocations
     * with their speculative preallocation) and answers ENOSPC while those reservations fill it; for a
     * named create it writes them back and tries once more itself, for an unnamed file (O_TMPFILE) it
     * does not, so cp -a copies where an unnamed file is refused. An ENOSPC after this is real.
     */
    boolean roomMadeAfter(PosixException ex, Fd dir) {
        if (ex.errno() != Errno.ENOSPC) return false;
        try {
            steps.time(Step.FSYNC, () -> Posix.syncfs(dir));
        } catch (PosixException e) {
            return false; // the ENOSPC is the failure to report
        }
        return true;
    }

    /** The xattrs but lustre.lov when the layout is copied on its own, before the data (--xattrs all would set it again after). */
    List<Xattr> xattrsBesidesLayout(List<Xattr> xattrs) {
        if (!layouts.active()) return xattrs;
        return xattrs.stream().filter(x -> !Arrays.equals(x.name(), LayoutCopier.LUSTRE_LOV)).toList();
    }

    /** Flag notices of this engine not yet in the counts. */
    void drainNotices(CopyCounts counts) {
        refusals.drainInto(counts);
        layouts.drainInto(counts);
        owners.drainInto(counts);
    }

    /** The destination's time granularity, probed once per task (see Decision.sameTimes). */
    long timeWindowNanos() {
        if (timeWindowNanos < 0) timeWindowNanos = TimeGranularity.windowNanos(options.destinationId(), destination.root());
        return timeWindowNanos;
    }

    /**
     * Whether a name at DST is looked at before it is created: yes unless this run made DST's root, where
     * every name is free. Either way the other call follows when the guess was wrong; what is saved is
     * the call that fails: an EEXIST per entry on a re-run, an ENOENT per entry on a first copy.
     */
    boolean looksFirst() {
        return !options.destinationNew();
    }

    /** lstat of name in an open destination directory, or null when nothing has that name (timed as stat_dst). */
    Stat statDestination(Fd dir, byte[] name) {
        long t = steps.start(Step.STAT_DST);
        try {
            return Posix.statAtIfExists(dir, name);
        } finally {
            steps.stop(Step.STAT_DST, t);
        }
    }

    /** e's name in its source directory: its own, but for a source file that DST renames ({@link RootFile}). */
    byte[] sourceName(Entry e) {
        return PathBytes.name(options.sourcePath(e.path()));
    }

    /**
     * Opens the source file of e (timed as open_src) with O_NONBLOCK, so a FIFO or device put where
     * the walk saw a file cannot hang the open. The flag stays: local file systems ignore it for a
     * file's data, and where one honours it (Lustre takes its locks without waiting on a non-blocking
     * descriptor and fails the read instead) the read clears it on its first EAGAIN (Posix's data
     * calls). What was opened is checked after the data ({@link #requireUnchanged}); a FIFO fails its
     * first read at once (no pread on a pipe).
     */
    Fd openSource(Entry e) {
        int flags = sourceOpenFlags(e.stat());
        Fd dir = source.get(e.parent());
        byte[] name = sourceName(e);
        long t = steps.start(Step.OPEN_SRC);
        try {
            return Posix.openat(dir, name, flags | Linux.O_NONBLOCK, 0);
        } finally {
            steps.stop(Step.OPEN_SRC, t);
        }
    }

    /**
     * After the data: the open source must still be the file the walk saw, with its size, mtime and
     * ctime; otherwise what was copied may be a mix of old and new and must not pass for a copy.
     */
    void requireUnchanged(Entry e, Fd src) {
        long t = steps.start(Step.STAT_SRC);
        Stat now = Posix.fstat(src);
        steps.stop(Step.STAT_SRC, t);
        String change = SourceChange.describe(e.stat(), now);
        if (change != null) throw SourceChange.failure(e.path(), change);
    }

    /** --fsync: the data durable before the times that mark the file complete (timed as fsync). */
    void fsync(Fd dst) {
        steps.time(Step.FSYNC, () -> Posix.fsync(dst));
    }

    void timedClose(Fd fd) {
        if (fd == null) return;
        long t = steps.start(Step.CLOSE);
        try {
            fd.close();
        } finally {
            steps.stop(Step.CLOSE, t);
        }
    }

    @Override
    public void close() {
        try (source; destination) { // closes both, even when one of them throws
        }
    }
}
