package io.sparkdcp.posix;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * struct fsxattr (FS_IOC_FSGETXATTR / FS_IOC_FSSETXATTR): 28 bytes. The copy keeps projid with
 * PROJINHERIT, and the {@link #KEPT_FLAGS} with the extent-size and CoW extent-size hints.
 */
public record FsXattr(int xflags, int extsize, int nextents, int projid, int cowextsize) implements Serializable {
    static final int SIZE = 28;

    /** Immutable and append-only: set last, and cleared before anything else may change such an entry. */
    public static final int LOCKS = Linux.FS_XFLAG_IMMUTABLE | Linux.FS_XFLAG_APPEND;

    /**
     * The persistent bits a user sets (chattr, xfs_io chattr/extsize/cowextsize). Not kept: realtime
     * and rtinherit (they need a realtime device), filestream (an allocator hint bound to the AG),
     * nosymlinks, and PROJINHERIT, which goes with the project ID.
     */
    public static final int KEPT_FLAGS = LOCKS | Linux.FS_XFLAG_SYNC | Linux.FS_XFLAG_NOATIME | Linux.FS_XFLAG_NODUMP
            | Linux.FS_XFLAG_NODEFRAG | Linux.FS_XFLAG_DAX | Linux.FS_XFLAG_EXTSIZE | Linux.FS_XFLAG_EXTSZINHERIT
            | Linux.FS_XFLAG_COWEXTSIZE;

    private static final int EXTSIZE_FLAGS = Linux.FS_XFLAG_EXTSIZE | Linux.FS_XFLAG_EXTSZINHERIT;

    /**
     * Bits of a directory that XFS passes on to entries created in it (xfs_inode_inherit_flags):
     * under such a directory a new entry's struct is not known without asking.
     */
    public static final int PASSED_ON = Linux.FS_XFLAG_RTINHERIT | Linux.FS_XFLAG_EXTSZINHERIT | Linux.FS_XFLAG_NOSYMLINKS
            | Linux.FS_XFLAG_NOATIME | Linux.FS_XFLAG_NODUMP | Linux.FS_XFLAG_SYNC | Linux.FS_XFLAG_NODEFRAG
            | Linux.FS_XFLAG_FILESTREAM | Linux.FS_XFLAG_DAX | Linux.FS_XFLAG_COWEXTSIZE;

    public boolean projInherit() {
        return (xflags & Linux.FS_XFLAG_PROJINHERIT) != 0;
    }

    /** This struct with the project ID and PROJINHERIT of another, every other flag kept. */
    public FsXattr withProject(int newProjid, boolean newProjInherit) {
        int flags = newProjInherit ? xflags | Linux.FS_XFLAG_PROJINHERIT : xflags & ~Linux.FS_XFLAG_PROJINHERIT;
        return new FsXattr(flags, extsize, nextents, newProjid, cowextsize);
    }

    public int keptFlags() {
        return xflags & KEPT_FLAGS;
    }

    public int locks() {
        return xflags & LOCKS;
    }

    /** An extent-size hint: XFS takes it only while a regular file has no extents, so before its data. */
    public boolean hasExtentSizeHint() {
        return (xflags & EXTSIZE_FLAGS) != 0;
    }

    /**
     * This struct with the kept flags and hints of source, the lock bits only when withLocks;
     * every other bit (PROJINHERIT, realtime...) and the project ID as they are.
     */
    public FsXattr withKept(FsXattr source, boolean withLocks) {
        int wanted = withLocks ? source.keptFlags() : source.keptFlags() & ~LOCKS;
        int flags = (xflags & ~KEPT_FLAGS) | wanted;
        int ext = (wanted & EXTSIZE_FLAGS) != 0 ? source.extsize : 0;
        int cow = (wanted & Linux.FS_XFLAG_COWEXTSIZE) != 0 ? source.cowextsize : 0;
        return new FsXattr(flags, ext, nextents, projid, cow);
    }

    /** This struct without the lock bits. */
    public FsXattr unlocked() {
        return new FsXattr(xflags & ~LOCKS, extsize, nextents, projid, cowextsize);
    }

    /** Whether this struct holds source's kept flags and hints (the lock bits only when withLocks). */
    public boolean sameKept(FsXattr source, boolean withLocks) {
        int mask = withLocks ? KEPT_FLAGS : KEPT_FLAGS & ~LOCKS;
        if ((xflags & mask) != (source.xflags & mask)) return false;
        if ((source.xflags & EXTSIZE_FLAGS) != 0 && extsize != source.extsize) return false;
        return (source.xflags & Linux.FS_XFLAG_COWEXTSIZE) == 0 || cowextsize == source.cowextsize;
    }

    static FsXattr decode(byte[] raw) {
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.nativeOrder());
        return new FsXattr(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16));
    }

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        b.putInt(xflags).putInt(extsize).putInt(nextents).putInt(projid).putInt(cowextsize);
        return b.array();
    }
}
