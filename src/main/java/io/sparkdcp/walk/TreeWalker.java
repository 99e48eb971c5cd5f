package io.sparkdcp.walk;

import io.sparkdcp.copy.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** Lists a source tree on this node with several threads, one directory per task ({@link DirectoryLister}). */
public final class TreeWalker {
    private final int threads;
    private final boolean projectIds;

    public TreeWalker(int threads, boolean projectIds) {
        if (threads < 1) throw new IllegalArgumentException("walk threads must be at least 1");
        this.threads = threads;
        this.projectIds = projectIds;
    }

    public Listing walk(byte[] sourceRoot) {
        ConcurrentLinkedQueue<DirectoryBlock> blocks = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Failure> errors = new ConcurrentLinkedQueue<>();
        ThreadLocal<DirectoryLister> listers = ThreadLocal.withInitial(() -> new DirectoryLister(projectIds));
        try (Fd root = openRoot(sourceRoot)) {
            Subdirectory top = new Subdirectory(PathBytes.EMPTY, Posix.fstat(root));
            ForkJoinPool pool = new ForkJoinPool(threads);
            try {
                pool.invoke(new DirectoryTask(root, top, listers, blocks, errors));
            } finally {
                pool.shutdown();
            }
        }
        return Listing.sorted(new ArrayList<>(blocks), List.copyOf(errors));
    }

    /** The root is named by the user: a symlink to a directory is followed, as cp -a SRC/. does. */
    public static Fd openRoot(byte[] sourceRoot) {
        return Posix.open(sourceRoot, Linux.O_RDONLY | Linux.O_DIRECTORY);
    }

    private static final class DirectoryTask extends RecursiveAction {
        private final Fd root;
        private final Subdirectory dir;
        private final ThreadLocal<DirectoryLister> listers;
        private final ConcurrentLinkedQueue<DirectoryBlock> blocks;
        private final ConcurrentLinkedQueue<Failure> errors;

        DirectoryTask(Fd root, Subdirectory dir, ThreadLocal<DirectoryLister> listers,
                      ConcurrentLinkedQueue<DirectoryBlock> blocks, ConcurrentLinkedQueue<Failure> errors) {
            this.root = root;
            this.dir = dir;
            this.listers = listers;
            this.blocks = blocks;
            this.errors = errors;
        }

        @Override
        protected void compute() {
            DirectoryLister.Listed listed = listers.get().list(root, dir);
            if (listed.block() != null) blocks.add(listed.block());
            errors.addAll(listed.errors());
            List<DirectoryTask> children = new ArrayList<>();
            for (Subdirectory s : listed.subdirectories()) children.add(new DirectoryTask(root, s, listers, blocks, errors));
            invokeAll(children);
        }
    }
}
