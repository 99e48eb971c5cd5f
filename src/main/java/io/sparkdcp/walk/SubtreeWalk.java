package io.sparkdcp.walk;

import io.sparkdcp.copy.Failure;
import io.sparkdcp.posix.Fd;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One task of a distributed walk: list the given directories and go on depth first into their
 * subdirectories until about {@code entryBudget} entries are listed; the directories not reached
 * are handed back for the next round. The budget keeps tasks short, so rounds rebalance a tree
 * whose subtrees differ in size.
 */
public record SubtreeWalk(byte[] sourceRoot, boolean projectIds, List<Subdirectory> directories, long entryBudget)
        implements Serializable {

    /** What one task listed, and the directories it left for the next round. */
    public record Result(List<DirectoryBlock> blocks, List<Subdirectory> frontier, List<Failure> errors)
            implements Serializable {}

    public Result run() {
        List<DirectoryBlock> blocks = new ArrayList<>();
        List<Failure> errors = new ArrayList<>();
        ArrayDeque<Subdirectory> stack = new ArrayDeque<>();
        for (int i = directories.size() - 1; i >= 0; i--) stack.push(directories.get(i));
        DirectoryLister lister = new DirectoryLister(projectIds);
        long listed = 0;
        try (Fd root = TreeWalker.openRoot(sourceRoot)) {
            while (!stack.isEmpty() && listed < entryBudget) {
                DirectoryLister.Listed l = lister.list(root, stack.pop());
                errors.addAll(l.errors());
                if (l.block() == null) continue;
                blocks.add(l.block());
                listed += l.block().entryCount();
                List<Subdirectory> subs = l.subdirectories();
                for (int i = subs.size() - 1; i >= 0; i--) stack.push(subs.get(i));
            }
        }
        return new Result(blocks, new ArrayList<>(stack), errors);
    }
}
