package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.function.Consumer;

/**
 * Lists a tree with several threads, one directory per task ({@link DirectoryLister}): the whole
 * tree on the driver, or, in a distributed walk, subtrees up to a budget of entries and time, in a
 * fixed order so that where a budgeted walk stopped can be named and walked again ({@link PrefixWalk}). Threads keep
 * several metadata reads in flight, which is what a cold cache or a remote metadata server needs.
 */
public final class TreeWalker {
    private final int threads;
    private final boolean projectIds;
    private final Filter filter;

    public TreeWalker(int threads, boolean projectIds) {
        this(threads, projectIds, Filter.NONE);
    }

    /** @param filter which entries are listed (a directory left out is not walked) */
    public TreeWalker(int threads, boolean projectIds, Filter filter) {
        this.threads = threads;
        this.projectIds = projectIds;
        this.filter = filter;
    }

    /**
     * What a budgeted walk listed, the directories it did not reach, and the last directory it listed in
     * {@link PrefixWalk#ORDER} (a walk of the same starts through it lists the same directories).
     */
    public record Part(List<DirectoryBlock> blocks, List<Subdirectory> frontier, List<Failure> errors, byte[] last) {}

    /** The whole tree under {@code sourceRoot}. */
    public Listing walk(byte[] sourceRoot) {
        return walk(sourceRoot, block -> {});
    }

    /**
     * The whole tree under {@code sourceRoot}, each directory also handed to {@code listed} (from the
     * walk's threads) as soon as it is listed: a parent always before its subdirectories.
     */
    public Listing walk(byte[] sourceRoot, Consumer<DirectoryBlock> listed) {
        try (Fd root = openRoot(sourceRoot)) {
            Shared all = walk(root, new Subdirectory(PathBytes.EMPTY, Posix.fstat(root)), listed);
            return Listing.sorted(new ArrayList<>(all.blocks), List.copyOf(all.errors));
        }
    }

    /**
     * The listing of one entry that is not a directory, {@code name} in the directory {@code root},
     * listed at {@code path} (a source file copied under another name in DST): empty when nothing has
     * that name, with an ENOENT error when {@code missingFails}.
     */
    public static Listing walkOne(byte[] root, byte[] name, byte[] path, boolean missingFails) {
        try (Fd dir = openRoot(root)) {
            Stat stat = Posix.statAtIfExists(dir, name);
            if (stat == null)
                return new Listing(List.of(), missingFails ? List.of(Failure.of(path, "statx", "it no longer exists")) : List.of());
            return Listing.of(List.of(new Entry(path, stat, null)), List.of());
        } catch (PosixException e) {
            return new Listing(List.of(), List.of(Failure.of(path, e)));
        }
    }

    /**
     * How much a walk may list before it hands the rest back: about {@code entries} entries, for
     * {@code nanos} of time from its start.
     */
    public record Budget(long entries, long nanos) implements java.io.Serializable {
        public static final Budget NONE = new Budget(Long.MAX_VALUE, Long.MAX_VALUE);
    }

    /**
     * Lists {@code starts} and their subtrees within the budget, in {@link PrefixWalk#ORDER}; a directory
     * met after that is not opened but handed back in the frontier. The first start is listed whatever the
     * budget says, so every walk makes progress.
     */
    public Part walk(Fd root, List<Subdirectory> starts, Budget budget) {
        return new PrefixWalk(root, starts, budget, null, this::lister).run(threads);
    }

    /**
     * Lists {@code starts} and their subtrees up to and including {@code last} in {@link PrefixWalk#ORDER}:
     * what a budgeted walk of the same starts that stopped at {@code last} listed, and the same frontier.
     */
    public Part walkThrough(Fd root, List<Subdirectory> starts, byte[] last) {
        return new PrefixWalk(root, starts, Budget.NONE, last, this::lister).run(threads);
    }

    private DirectoryLister lister() {
        return new DirectoryLister(projectIds, filter);
    }

    /** The whole tree below {@code start}, on a fork-join pool: no budget, so in whatever order the threads go. */
    private Shared walk(Fd root, Subdirectory start, Consumer<DirectoryBlock> listed) {
        Shared shared = new Shared(root, ThreadLocal.withInitial(this::lister), listed);
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            pool.invoke(new DirectoryTask(start, shared));
        } finally {
            pool.shutdown();
        }
        return shared;
    }

    /**
     * The root is named by the user: a symlink to a directory is followed, as cp -a SRC/. does.
     * Opened with O_NOATIME where allowed, so listing it leaves its atime alone.
     */
    public static Fd openRoot(byte[] sourceRoot) {
        try {
            return Posix.open(sourceRoot, Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOATIME);
        } catch (io.sparkdcp.posix.PosixException e) {
            if (e.errno() != io.sparkdcp.posix.Errno.EPERM) throw e;
            return Posix.open(sourceRoot, Linux.O_RDONLY | Linux.O_DIRECTORY);
        }
    }

    private record Shared(Fd root, ThreadLocal<DirectoryLister> listers, Consumer<DirectoryBlock> onListed,
                          ConcurrentLinkedQueue<DirectoryBlock> blocks, ConcurrentLinkedQueue<Failure> errors) {
        Shared(Fd root, ThreadLocal<DirectoryLister> listers, Consumer<DirectoryBlock> onListed) {
            this(root, listers, onListed, new ConcurrentLinkedQueue<>(), new ConcurrentLinkedQueue<>());
        }
    }

    private static final class DirectoryTask extends RecursiveAction {
        private final Subdirectory dir;
        private final Shared shared;

        DirectoryTask(Subdirectory dir, Shared shared) {
            this.dir = dir;
            this.shared = shared;
        }

        @Override
        protected void compute() {
            DirectoryLister.Listed listed = shared.listers.get().list(shared.root, dir);
            shared.errors.addAll(listed.errors());
            if (listed.block() == null) return;
            shared.blocks.add(listed.block());
            shared.onListed.accept(listed.block());
            List<DirectoryTask> children = new ArrayList<>();
            for (Subdirectory s : listed.subdirectories()) children.add(new DirectoryTask(s, shared));
            invokeAll(children);
        }
    }
}
