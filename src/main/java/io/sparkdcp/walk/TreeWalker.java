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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Lists a tree with several threads, one directory per task ({@link DirectoryLister}): the whole
 * tree on the driver, or, in a distributed walk, subtrees up to a budget of entries. Threads keep
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

    /** What a budgeted walk listed, and the directories it did not reach. */
    public record Part(List<DirectoryBlock> blocks, List<Subdirectory> frontier, List<Failure> errors) {}

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
            Part all = walk(root, List.of(new Subdirectory(PathBytes.EMPTY, Posix.fstat(root))), Budget.NONE, listed);
            return Listing.sorted(all.blocks(), all.errors());
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
     * Lists {@code starts} and their subtrees within the budget; a directory met after that is not
     * opened but handed back in the frontier.
     */
    public Part walk(Fd root, List<Subdirectory> starts, Budget budget) {
        return walk(root, starts, budget, block -> {});
    }

    private Part walk(Fd root, List<Subdirectory> starts, Budget budget, Consumer<DirectoryBlock> listed) {
        long deadline = budget.nanos() == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + budget.nanos();
        Shared shared = new Shared(root, budget.entries(), deadline, ThreadLocal.withInitial(() -> new DirectoryLister(projectIds, filter)),
                listed);
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            List<DirectoryTask> tasks = new ArrayList<>();
            // The first start is listed whatever the budget says, so every walk makes progress.
            for (int i = 0; i < starts.size(); i++) tasks.add(new DirectoryTask(starts.get(i), shared, i == 0));
            pool.invoke(new RecursiveAction() {
                @Override
                protected void compute() {
                    invokeAll(tasks);
                }
            });
        } finally {
            pool.shutdown();
        }
        return new Part(new ArrayList<>(shared.blocks), new ArrayList<>(shared.frontier), List.copyOf(shared.errors));
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

    private record Shared(Fd root, long budget, long deadline, ThreadLocal<DirectoryLister> listers,
                          Consumer<DirectoryBlock> onListed, AtomicLong listed, ConcurrentLinkedQueue<DirectoryBlock> blocks,
                          ConcurrentLinkedQueue<Subdirectory> frontier, ConcurrentLinkedQueue<Failure> errors) {
        Shared(Fd root, long budget, long deadline, ThreadLocal<DirectoryLister> listers, Consumer<DirectoryBlock> onListed) {
            this(root, budget, deadline, listers, onListed, new AtomicLong(), new ConcurrentLinkedQueue<>(),
                    new ConcurrentLinkedQueue<>(), new ConcurrentLinkedQueue<>());
        }

        boolean spent() {
            return listed.get() >= budget || (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0);
        }
    }

    private static final class DirectoryTask extends RecursiveAction {
        private final Subdirectory dir;
        private final Shared shared;
        private final boolean first;

        DirectoryTask(Subdirectory dir, Shared shared, boolean first) {
            this.dir = dir;
            this.shared = shared;
            this.first = first;
        }

        @Override
        protected void compute() {
            if (!first && shared.spent()) {
                shared.frontier.add(dir);
                return;
            }
            DirectoryLister.Listed listed = shared.listers.get().list(shared.root, dir);
            shared.errors.addAll(listed.errors());
            if (listed.block() == null) return;
            shared.blocks.add(listed.block());
            shared.listed.addAndGet(listed.block().entryCount());
            shared.onListed.accept(listed.block());
            List<DirectoryTask> children = new ArrayList<>();
            for (Subdirectory s : listed.subdirectories()) children.add(new DirectoryTask(s, shared, false));
            invokeAll(children);
        }
    }
}
