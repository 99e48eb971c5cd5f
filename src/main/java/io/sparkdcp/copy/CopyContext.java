package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/** What one task's copiers share: the two trees' open directories, the metadata way, buffers, who we are. */
final class CopyContext implements AutoCloseable {
    private static final byte[] DEFAULT_ACL = PathBytes.of("system.posix_acl_default");

    final CopyOptions options;
    final StepRecorder steps;
    final DirectoryCache source;
    final DirectoryCache destination;
    final MetadataIO metadata;
    final MetadataWriter writer;
    final DataCopier data = new DataCopier();
    final int euid = Posix.geteuid();
    final int egid = Posix.getegid();
    private final NativeBuffer probe = new NativeBuffer(4096);
    private final Map<ByteBuffer, ParentState> parentStates = new HashMap<>();

    CopyContext(CopyOptions options, StepRecorder steps) {
        this.options = options;
        this.steps = steps;
        Fd src = Posix.open(options.sourceRoot(), Linux.O_RDONLY | Linux.O_DIRECTORY);
        Fd dst;
        try {
            dst = Posix.open(options.destinationRoot(), Linux.O_RDONLY | Linux.O_DIRECTORY);
        } catch (PosixException e) {
            src.close();
            throw e;
        }
        this.source = new DirectoryCache(src, steps);
        this.destination = new DirectoryCache(dst, steps);
        this.metadata = switch (options.xattrAccess()) {
            case FD -> new FdMetadataIO(options.xattrs(), steps, false);
            case FD_ALWAYS_SET -> new FdMetadataIO(options.xattrs(), steps, true);
            case PATH -> new PathMetadataIO(options, steps);
        };
        this.writer = new MetadataWriter(this);
    }

    boolean privileged() { return euid == 0; }

    /** O_NOATIME needs ownership or CAP_FOWNER: ask for it only where the kernel will grant it. */
    int sourceOpenFlags(Stat s) {
        int flags = Linux.O_RDONLY | Linux.O_NOFOLLOW;
        return privileged() || s.uid() == euid ? flags | Linux.O_NOATIME : flags;
    }

    /** The destination directory's gifts to new entries, read once per directory per task. */
    ParentState parentState(byte[] relPath) {
        ByteBuffer key = ByteBuffer.wrap(relPath);
        ParentState state = parentStates.get(key);
        if (state != null) return state;
        Fd dir = destination.get(relPath);
        long t = System.nanoTime();
        Stat s = Posix.fstat(dir);
        steps.record(Step.STAT_DST, System.nanoTime() - t);
        FsXattr project = options.projectIds() ? FdMetadataIO.projectOrNull(dir, steps) : null;
        boolean defaultAcl = false;
        if (!options.xattrs().copiesNothing()) {
            t = System.nanoTime();
            try {
                defaultAcl = Posix.fgetxattr(dir, DEFAULT_ACL, probe) != null;
            } catch (PosixException e) {
                if (e.errno() != Errno.EOPNOTSUPP) throw e;
            } finally {
                steps.record(Step.XATTR_GET, System.nanoTime() - t);
            }
        }
        state = new ParentState(s.gid(), (s.permissions() & Linux.S_ISGID) != 0, project, defaultAcl);
        if (parentStates.size() > 1024) parentStates.clear();
        parentStates.put(key, state);
        return state;
    }

    /** A directory changed under us (made or given metadata): forget what we knew of it. */
    void forgetParentState(byte[] relPath) {
        parentStates.remove(ByteBuffer.wrap(relPath));
    }

    /** True when dst already holds what a copy of e would give it: same type, size, mtime, mode, owner. */
    boolean unchanged(Entry e, Stat dst) {
        Stat src = e.stat();
        if (src.type() != dst.type() || !src.sameMtime(dst)) return false;
        if (src.type() != FileType.DIRECTORY && src.size() != dst.size()) return false;
        if (src.type() != FileType.SYMLINK && src.permissions() != dst.permissions()) return false;
        if (src.type().isSpecial() && src.rdev() != dst.rdev()) return false;
        return !writer.ownerDiffers(src, dst.uid(), dst.gid());
    }

    /** lstat of name in an open destination directory, or null when nothing has that name (timed as stat_dst). */
    Stat statDestination(Fd dir, byte[] name) {
        long t = System.nanoTime();
        try {
            return Posix.statAtIfExists(dir, name);
        } finally {
            steps.record(Step.STAT_DST, System.nanoTime() - t);
        }
    }

    /** The destination has a different entry of that name: the copy replaces it, unless it is a directory. */
    void removeForReplacement(Entry e, Fd dir, byte[] name, Stat existing) {
        if (existing.type() == FileType.DIRECTORY)
            throw new PosixException("replace", Errno.EISDIR, e.path(),
                    "the destination has a directory where the source has a " + e.type().name().toLowerCase());
        long t = System.nanoTime();
        Posix.unlinkat(dir, name, false);
        steps.record(Step.UNLINK, System.nanoTime() - t);
    }

    /** Opens the source file of e (timed as open_src). */
    Fd openSource(Entry e) {
        long t = System.nanoTime();
        try {
            return Posix.openat(source.get(e.parent()), e.name(), sourceOpenFlags(e.stat()), 0);
        } finally {
            steps.record(Step.OPEN_SRC, System.nanoTime() - t);
        }
    }

    /** Opens e's existing destination file for writing, and reading too when asked (timed as open_dst). */
    Fd openDestination(Entry e, boolean readable) {
        long t = System.nanoTime();
        try {
            return Posix.openat(destination.get(e.parent()), e.name(), (readable ? Linux.O_RDWR : Linux.O_WRONLY) | Linux.O_NOFOLLOW, 0);
        } finally {
            steps.record(Step.OPEN_DST, System.nanoTime() - t);
        }
    }

    /** --fsync: the data durable before the times that mark the file complete (timed as fsync). */
    void fsync(Fd dst) {
        long t = System.nanoTime();
        Posix.fsync(dst);
        steps.record(Step.FSYNC, System.nanoTime() - t);
    }

    void timedClose(Fd fd) {
        if (fd == null) return;
        long t = System.nanoTime();
        fd.close();
        steps.record(Step.CLOSE, System.nanoTime() - t);
    }

    @Override
    public void close() {
        try {
            source.close();
        } finally {
            destination.close();
        }
    }
}
