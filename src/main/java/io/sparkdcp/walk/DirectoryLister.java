package io.sparkdcp.walk;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.util.ArrayList;
import java.util.List;

/**
 * Lists one directory, the unit of every walk: open it beneath the root (never through a symlink),
 * read its project ID while it is open, read it with getdents64 and statx each entry once relative
 * to it. An entry that vanishes meanwhile is left out; any other error is kept.
 */
public final class DirectoryLister {
    private static final int DIR_BUFFER = 64 * 1024;
    private static final int DIRECTORY_FLAGS = Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW;

    private final boolean projectIds;
    private final Filter filter;
    private final NativeBuffer buffer = new NativeBuffer(DIR_BUFFER);

    /** One lister per thread: it owns a getdents buffer. */
    public DirectoryLister(boolean projectIds, Filter filter) {
        this.projectIds = projectIds;
        this.filter = filter;
    }

    /**
     * @param block          the directory in packed form; null when it vanished before it could be opened
     * @param subdirectories its subdirectories, to be listed next
     */
    public record Listed(DirectoryBlock block, List<Subdirectory> subdirectories, List<Failure> errors) {}

    /** Lists {@code dir}, given the open root of the tree it lies in. */
    public Listed list(Fd root, Subdirectory dir) {
        List<DirectoryBlock.Child> files = new ArrayList<>();
        List<Subdirectory> subdirectories = new ArrayList<>();
        List<Failure> errors = new ArrayList<>();
        FsXattr project = null;
        byte[] path = dir.path();
        try (Fd opened = path.length == 0 ? null : openNoAtime(root, path)) {
            Fd open = opened == null ? root : opened;
            project = readProject(open);
            for (Posix.DirEntry d : Posix.readDirectory(open, buffer)) {
                try {
                    io.sparkdcp.posix.Stat s = Posix.statAt(open, d.name());
                    boolean directory = s.type() == FileType.DIRECTORY;
                    // Left out by a filter: not listed, and a directory not walked.
                    if (!filter.none() && !filter.lists(PathBytes.join(path, d.name()), directory)) continue;
                    if (directory) subdirectories.add(new Subdirectory(PathBytes.join(path, d.name()), s));
                    else files.add(new DirectoryBlock.Child(d.name(), s, null));
                } catch (PosixException e) {
                    if (e.errno() != Errno.ENOENT) errors.add(Failure.of(PathBytes.join(path, d.name()), e));
                }
            }
        } catch (PosixException e) {
            if (e.errno() == Errno.ENOENT) return new Listed(null, List.of(), List.of());
            errors.add(Failure.of(path, e));
        }
        // An unreadable directory is still created (and reported): its metadata is known.
        DirectoryBlock block = DirectoryBlock.ofChildren(path, new Entry(path, dir.stat(), project), files);
        return new Listed(block, subdirectories, errors);
    }

    /**
     * Reading a directory moves its atime unless it is opened with O_NOATIME, which needs ownership
     * or CAP_FOWNER: a walk leaves the atimes of the trees it lists as they were wherever it may.
     */
    static Fd openNoAtime(Fd root, byte[] path) {
        try {
            return Posix.openBeneath(root, path, DIRECTORY_FLAGS | Linux.O_NOATIME);
        } catch (PosixException e) {
            if (e.errno() != Errno.EPERM) throw e;
            return Posix.openBeneath(root, path, DIRECTORY_FLAGS);
        }
    }

    private FsXattr readProject(Fd dir) {
        if (!projectIds) return null;
        try {
            return Posix.getFsXattr(dir);
        } catch (PosixException e) {
            if (e.errno() == Errno.ENOTTY || e.errno() == Errno.EOPNOTSUPP || e.errno() == Errno.EINVAL) return null;
            throw e;
        }
    }
}
