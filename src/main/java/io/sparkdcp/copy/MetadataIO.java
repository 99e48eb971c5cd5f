package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;

import java.util.List;
import java.util.function.Function;

/**
 * Reads and writes xattrs and the struct fsxattr (project ID, flags) of one entry, on its open descriptors or by its path.
 * Public for the bench module, whose path way ({@link io.sparkdcp.copy.keep.MetadataAccess#PATH}) is a {@link Way}.
 */
public interface MetadataIO {
    /** The source's struct fsxattr (project ID and flags), or null where the file system has none. */
    FsXattr readFsXattr(Fd src, byte[] relPath);

    /**
     * Gives dst what is wanted of the source's struct, the lock bits only when withLocks.
     * {@code inherited} is what dst holds (what it got at creation, or what an earlier step set;
     * null: unknown); the fd way skips the call when that already matches.
     *
     * @return what dst holds afterwards, or null where its file system has no such struct
     */
    FsXattr writeFsXattr(Fd dst, byte[] relPath, WantedFsXattr wanted, FsXattr inherited, boolean withLocks);

    /** False when {@link #writeFsXattr} would skip dst for what it inherited: then dst need not even be opened. */
    boolean needsFsXattrWrite(WantedFsXattr wanted, FsXattr inherited);

    /** The source's xattrs that the policy keeps. */
    List<Xattr> readXattrs(Fd src, byte[] relPath);

    void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs);

    /**
     * A way of another module, found by {@link java.util.ServiceLoader} in the jars of the JVM that runs
     * the task (listed in {@code META-INF/services/io.sparkdcp.copy.MetadataIO$Way}).
     */
    interface Way {
        /** The {@link io.sparkdcp.copy.keep.MetadataAccess} it implements, in lower case ({@code path}). */
        String name();

        MetadataIO open(Task task);
    }

    /** What a task gives a {@link Way}: its options, its step timers, its open directories and the engine's own struct calls. */
    interface Task {
        CopyOptions options();

        StepRecorder steps();

        /** The open directory of the entry at relPath in SRC (or DST) holding its name; the root itself for the root. */
        Fd sourceParent(byte[] relPath);

        Fd destinationParent(byte[] relPath);

        /** The struct of an open entry (timed as ioctl_get), or null where the file system has none. */
        FsXattr readFsXattr(Fd fd);

        /** Reads dst's struct and sets what is wanted of it even when held, with the engine's refusals (timed as ioctl_get, ioctl_set). */
        FsXattr setFsXattr(Fd dst, byte[] relPath, WantedFsXattr wanted, boolean withLocks);

        /** The values of the listed names that the policy keeps (each get timed as xattr_get). */
        List<Xattr> keptXattrs(List<byte[]> names, Function<byte[], byte[]> get);
    }
}
