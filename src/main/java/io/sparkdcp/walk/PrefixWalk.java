package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.PathBytes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A budgeted walk whose cut can be named by one path. Its threads take directories strictly in
 * {@link #ORDER} (shallower first, then by path), waiting rather than running ahead of a directory
 * still being listed whose subdirectories would come first. So what it lists is exactly every
 * directory of its share's subtrees up to the last it took, and its frontier the rest of them: a walk
 * told to list through that same path lists the same directories again, however fast it goes.
 */
final class PrefixWalk {
    /**
     * By depth, then by path with '/' before any other byte: names compare one by one, so at each
     * depth children come in the order of their parents, which a walk in this order relies on.
     */
    static final Comparator<byte[]> ORDER = PrefixWalk::compare;

    private final Fd root;
    private final Supplier<DirectoryLister> listers;
    private final TreeWalker.Budget budget;
    private final byte[] through;
    private final long deadline;

    private final Object lock = new Object();
    private final TreeSet<Subdirectory> pending = new TreeSet<>(Comparator.comparing(Subdirectory::path, ORDER));
    private final TreeSet<byte[]> listing = new TreeSet<>(ORDER);
    private final List<DirectoryBlock> blocks = new ArrayList<>();
    private final List<Failure> errors = new ArrayList<>();
    private long entries;
    private byte[] last;
    private boolean stopped;
    private RuntimeException failure;

    /**
     * @param through the last directory to list (where an earlier walk of the same share stopped), or null to
     *                list in order until the budget is spent
     * @param listers a lister for each thread (each owns a buffer)
     */
    PrefixWalk(Fd root, List<Subdirectory> starts, TreeWalker.Budget budget, byte[] through,
               Supplier<DirectoryLister> listers) {
        this.root = root;
        this.listers = listers;
        this.budget = budget;
        this.through = through;
        this.deadline = budget.nanos() == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + budget.nanos();
        pending.addAll(starts);
    }

    TreeWalker.Part run(int threads) {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < Math.max(1, threads); i++) {
            Thread t = new Thread(this::work, "walk-" + i);
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while walking", e);
            }
        }
        if (failure != null) throw failure;
        blocks.sort(Comparator.comparing(DirectoryBlock::path, ORDER));
        return new TreeWalker.Part(blocks, new ArrayList<>(pending), errors, last);
    }

    private void work() {
        try {
            listAll(listers.get());
        } catch (RuntimeException e) {
            // The others stop too: the directory this thread held would keep them waiting.
            synchronized (lock) {
                if (failure == null) failure = e;
                stopped = true;
                lock.notifyAll();
            }
        }
    }

    private void listAll(DirectoryLister lister) {
        for (Subdirectory dir; (dir = next()) != null; ) {
            DirectoryLister.Listed listed = lister.list(root, dir);
            synchronized (lock) {
                listing.remove(dir.path());
                errors.addAll(listed.errors());
                if (listed.block() != null) {
                    blocks.add(listed.block());
                    entries += listed.block().entryCount();
                    pending.addAll(listed.subdirectories());
                }
                lock.notifyAll();
            }
        }
    }

    /** The next directory in order, once no directory being listed can put one before it; null when the walk is done. */
    private Subdirectory next() {
        synchronized (lock) {
            while (true) {
                if (!stopped && through == null && last != null && spent()) stopped = true;
                Subdirectory first = pending.isEmpty() ? null : pending.first();
                boolean known = first != null && (listing.isEmpty() || beforeChildrenOf(first.path(), listing.first()));
                if (known && through != null && ORDER.compare(first.path(), through) > 0) stopped = true;
                if (stopped || (first == null && listing.isEmpty())) {
                    lock.notifyAll();
                    return null;
                }
                if (known) {
                    pending.pollFirst();
                    listing.add(first.path());
                    last = first.path();
                    return first;
                }
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopped = true;
                }
            }
        }
    }

    private boolean spent() {
        return entries >= budget.entries() || (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0);
    }

    /** Whether {@code path} comes before every subdirectory that {@code directory} may have. */
    static boolean beforeChildrenOf(byte[] path, byte[] directory) {
        int depth = PathBytes.depth(path), parentDepth = PathBytes.depth(directory);
        if (depth != parentDepth + 1) return depth <= parentDepth;
        return compareSameDepth(PathBytes.parent(path), directory) < 0;
    }

    static int compare(byte[] a, byte[] b) {
        int byDepth = Integer.compare(PathBytes.depth(a), PathBytes.depth(b));
        return byDepth != 0 ? byDepth : compareSameDepth(a, b);
    }

    /** Unsigned bytes with '/' lowest, so "a/x" comes before "a-b/y" as "a" comes before "a-b". */
    private static int compareSameDepth(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) return Integer.compare(rank(a[i]), rank(b[i]));
        }
        return Integer.compare(a.length, b.length);
    }

    private static int rank(byte b) {
        return b == '/' ? -1 : b & 0xff;
    }
}
