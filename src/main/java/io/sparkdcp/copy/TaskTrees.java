package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.throttle.JobLimits;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the engines of one task share, thread-safe: the two roots, opened once per task, and what is
 * known of the destination's directories ({@link ParentState}). Each engine keeps its own open
 * directories beneath the roots: a descriptor closed by one thread's cache must not be in another's
 * hands, where its number could already name another file.
 */
final class TaskTrees implements AutoCloseable {
    /** Beyond this many directories known, the states are dropped and read again. */
    private static final int PARENT_STATES_KEPT = 1024;

    final CopyOptions options;
    final Fd sourceRoot;
    final Fd destinationRoot;
    final int euid = Posix.geteuid();
    final int egid = Posix.getegid();
    /** This JVM's share of the job's --max-ops and --bwlimit, shared with its other tasks. */
    final JobLimits limits;
    private final Map<ByteBuffer, ParentState> parentStates = new ConcurrentHashMap<>();

    TaskTrees(CopyOptions options) {
        this.options = options;
        this.limits = JobLimits.of(options.throttle());
        RootCheck.Both roots = RootCheck.openBoth(options);
        this.sourceRoot = roots.source();
        this.destinationRoot = roots.destination();
    }

    ParentState parentState(byte[] relPath) {
        return parentStates.get(ByteBuffer.wrap(relPath));
    }

    void keepParentState(byte[] relPath, ParentState state) {
        if (parentStates.size() > PARENT_STATES_KEPT) parentStates.clear();
        parentStates.put(ByteBuffer.wrap(relPath), state);
    }

    void forgetParentState(byte[] relPath) {
        parentStates.remove(ByteBuffer.wrap(relPath));
    }

    @Override
    public void close() {
        try (sourceRoot; destinationRoot) { // closes both, even when one of them throws
        }
    }
}
