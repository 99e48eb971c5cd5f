package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;

import java.io.Serializable;
import java.util.List;

/**
 * One task of a distributed walk: list the given directories and their subtrees with a few threads
 * within a budget of entries and time; the directories not reached are handed back for the next
 * round. The time budget makes a round's tasks end together, so little is lost waiting for the
 * slowest, and rounds rebalance a tree whose subtrees differ in size. Given {@code through} (where
 * a first run of the same directories stopped), it lists exactly what that run listed instead, at
 * whatever speed: a task run again must not list another share.
 *
 * @param through the last directory to list, or null to list until the budget is spent
 */
public record SubtreeWalk(byte[] sourceRoot, boolean projectIds, Filter filter, int threads, List<Subdirectory> directories,
                          TreeWalker.Budget budget, byte[] through) implements Serializable {

    public SubtreeWalk(byte[] sourceRoot, boolean projectIds, Filter filter, int threads, List<Subdirectory> directories,
                       TreeWalker.Budget budget) {
        this(sourceRoot, projectIds, filter, threads, directories, budget, null);
    }

    /**
     * What one task listed, the directories it left for the next round, and the last directory it listed
     * (null when it listed none: a listing read back from disk).
     */
    public record Result(List<DirectoryBlock> blocks, List<Subdirectory> frontier, List<Failure> errors, byte[] last)
            implements Serializable {
        public Result(List<DirectoryBlock> blocks, List<Subdirectory> frontier, List<Failure> errors) {
            this(blocks, frontier, errors, null);
        }
    }

    public Result run() {
        try (Fd root = TreeWalker.openRoot(sourceRoot)) {
            TreeWalker walker = new TreeWalker(threads, projectIds, filter);
            TreeWalker.Part part = through == null ? walker.walk(root, directories, budget) : walker.walkThrough(root, directories, through);
            return new Result(part.blocks(), part.frontier(), part.errors(), part.last());
        }
    }
}
