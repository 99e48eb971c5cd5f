package io.sparkdcp.copy;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;

import java.util.List;

/** Reads and writes xattrs and the project ID of one entry, on its open descriptors or by its path. */
interface MetadataIO {
    /** The source's project ID and flags, or null where the file system has none. */
    FsXattr readProject(Fd src, byte[] relPath);

    /**
     * Gives dst the project ID and PROJINHERIT of the source. {@code inherited} is what dst got at
     * creation (null: unknown); the fd way skips the call when it already matches.
     */
    void writeProject(Fd dst, byte[] relPath, FsXattr source, FsXattr inherited);

    /** False when {@link #writeProject} would skip dst for what it inherited: then dst need not even be opened. */
    boolean needsProjectWrite(FsXattr source, FsXattr inherited);

    /** The source's xattrs that the policy keeps. */
    List<Xattr> readXattrs(Fd src, byte[] relPath);

    void writeXattrs(Fd dst, byte[] relPath, List<Xattr> xattrs);
}
