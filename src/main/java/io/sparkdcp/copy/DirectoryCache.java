package io.sparkdcp.copy;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Open directories of one tree, by relative path, opened beneath the tree's root and kept for the
 * entries that follow (a batch is sorted by directory). Least recently used are closed first. One
 * thread's; the root is the task's and stays open.
 */
final class DirectoryCache implements AutoCloseable {
    private static final int CAPACITY = 32;
    private static final int FLAGS = Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW;

    private final Fd root;
    private final StepRecorder steps;
    private final Map<ByteBuffer, Fd> open = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Fd> eldest) {
            if (size() <= CAPACITY) return false;
            eldest.getValue().close();
            return true;
        }
    };

    DirectoryCache(Fd root, StepRecorder steps) {
        this.root = root;
        this.steps = steps;
    }

    Fd root() { return root; }

    /** The directory at relPath (the root for the empty path). */
    Fd get(byte[] relPath) {
        if (relPath.length == 0) return root;
        ByteBuffer key = ByteBuffer.wrap(relPath);
        Fd fd = open.get(key);
        if (fd != null) return fd;
        long t = steps.start(Step.OPEN_DIR);
        try {
            fd = Posix.openBeneath(root, relPath, FLAGS);
        } finally {
            steps.stop(Step.OPEN_DIR, t);
        }
        open.put(key, fd);
        return fd;
    }

    /** The relative path of a directory this cache opened (each is opened by it), the root's empty. */
    byte[] relPath(Fd dir) {
        return dir == root ? new byte[0] : dir.path();
    }

    /** Forget a directory (it was removed or replaced). */
    void evict(byte[] relPath) {
        Fd fd = open.remove(ByteBuffer.wrap(relPath));
        if (fd != null) fd.close();
    }

    @Override
    public void close() {
        for (Fd fd : open.values()) fd.close();
        open.clear();
    }
}
