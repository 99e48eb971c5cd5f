package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;

import java.io.Serializable;
import java.util.List;

/**
 * One task of a distributed walk: list the given directories and their subtrees with a few threads
 * within a budget of entries and time; the directories not reached are handed back for the next
 * round. The time budget makes a round's tasks end together, so little is lost waiting for the
 * slowest, and rounds rebalance a tree whose subtrees differ in size.
 */
public record SubtreeWalk(byte[] sourceRoot, boolean projectIds, Filter filter, int threads, List<Subdirectory> directories,
                          TreeWalker.Budget budget) implements Serializable {

    /** What one task listed, and the directories it left for the next round. */
    public record Result(List<DirectoryBlock> blocks, List<Subdirectory> frontier, List<Failure> errors)
            implements Serializable {}

    public Result run() {
        try (Fd root = TreeWalker.openRoot(sourceRoot)) {
            TreeWalker.Part part = new TreeWalker(threads, projectIds, filter).walk(root, directories, budget);
            return new Result(part.blocks(), part.frontier(), part.errors());
        }
    }
}
