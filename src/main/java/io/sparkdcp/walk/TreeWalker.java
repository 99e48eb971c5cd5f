package io.sparkdcp.walk;

import io.sparkdcp.copy.Failure;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * Lists a source tree with several threads: each directory is opened beneath the root (never
 * through a symlink), read with getdents64, and each entry is stat'ed once relative to it.
 * Directories also give their project ID while they are open. An entry that vanishes mid-walk is
 * left out; any other error is kept and makes the listing incomplete.
 */
public final class TreeWalker {
    private static final int DIR_BUFFER = 64 * 1024;
    private static final int DIRECTORY_FLAGS = Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW;

    private final int threads;
    private final boolean projectIds;

    public TreeWalker(int threads, boolean projectIds) {
        if (threads < 1) throw new IllegalArgumentException("walk threads must be at least 1");
        this.threads = threads;
        this.projectIds = projectIds;
    }

    public Listing walk(byte[] sourceRoot) {
        ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Failure> errors = new ConcurrentLinkedQueue<>();
        // The root is named by the user: a symlink to a directory is followed, as cp -a SRC/. does.
        try (Fd root = Posix.open(sourceRoot, Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            Stat rootStat = Posix.fstat(root);
            ForkJoinPool pool = new ForkJoinPool(threads);
            try {
                pool.invoke(new DirectoryTask(root, PathBytes.EMPTY, rootStat, entries, errors));
            } finally {
                pool.shutdown();
            }
        }
        List<Entry> list = new ArrayList<>(entries);
        list.sort((a, b) -> PathBytes.compare(a.path(), b.path()));
        return new Listing(list, List.copyOf(errors));
    }

    private final class DirectoryTask extends RecursiveAction {
        private final Fd root;
        private final byte[] path;
        private final Stat stat;
        private final ConcurrentLinkedQueue<Entry> entries;
        private final ConcurrentLinkedQueue<Failure> errors;

        DirectoryTask(Fd root, byte[] path, Stat stat, ConcurrentLinkedQueue<Entry> entries,
                      ConcurrentLinkedQueue<Failure> errors) {
            this.root = root;
            this.path = path;
            this.stat = stat;
            this.entries = entries;
            this.errors = errors;
        }

        @Override
        protected void compute() {
            List<DirectoryTask> children = new ArrayList<>();
            FsXattr project = null;
            boolean vanished = false;
            try (Fd dir = path.length == 0 ? null : Posix.openBeneath(root, path, DIRECTORY_FLAGS)) {
                Fd open = dir == null ? root : dir;
                project = readProject(open);
                for (Posix.DirEntry d : Posix.readDirectory(open, BUFFERS.get())) {
                    byte[] childPath = PathBytes.join(path, d.name());
                    Stat s;
                    try {
                        s = Posix.statAt(open, d.name());
                    } catch (PosixException e) {
                        if (e.errno() != Errno.ENOENT) errors.add(Failure.of(childPath, e));
                        continue;
                    }
                    if (s.type() == FileType.DIRECTORY) children.add(new DirectoryTask(root, childPath, s, entries, errors));
                    else entries.add(new Entry(childPath, s, null));
                }
            } catch (PosixException e) {
                vanished = e.errno() == Errno.ENOENT;
                if (!vanished) errors.add(Failure.of(path, e));
            }
            // An unreadable directory is still created (and reported): its metadata is known.
            if (!vanished) entries.add(new Entry(path, stat, project));
            invokeAll(children);
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

    private static final ThreadLocal<NativeBuffer> BUFFERS = ThreadLocal.withInitial(() -> new NativeBuffer(DIR_BUFFER));
}
