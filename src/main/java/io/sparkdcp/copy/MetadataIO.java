package io.sparkdcp.copy;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;

import java.util.List;

/** Reads and writes xattrs and the struct fsxattr (project ID, flags) of one entry, on its open descriptors or by its path. */
interface MetadataIO {
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
}
