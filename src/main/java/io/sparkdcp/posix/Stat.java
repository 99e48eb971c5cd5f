package io.sparkdcp.posix;

import java.io.Serializable;

/**
 * What statx(2) says of an inode, the fields a copy keeps or compares.
 *
 * @param permissions mode bits 07777 (setuid, setgid, sticky and rwx)
 * @param blocks      512-byte blocks allocated: fewer than the size needs means holes
 * @param ctimeSec    inode change time: with size and mtime, how a copy tells that its source changed since the walk
 * @param locks       immutable and append-only, as {@link FsXattr#LOCKS} bits (statx reports them without another call)
 */
public record Stat(FileType type, int permissions, int uid, int gid, long size, long blocks, long nlink,
                   long dev, long ino, long rdev, long atimeSec, int atimeNsec, long mtimeSec, int mtimeNsec,
                   long ctimeSec, int ctimeNsec, int locks)
        implements Serializable {

    /** An inode without immutable or append-only. */
    public Stat(FileType type, int permissions, int uid, int gid, long size, long blocks, long nlink,
                long dev, long ino, long rdev, long atimeSec, int atimeNsec, long mtimeSec, int mtimeNsec,
                long ctimeSec, int ctimeNsec) {
        this(type, permissions, uid, gid, size, blocks, nlink, dev, ino, rdev, atimeSec, atimeNsec, mtimeSec, mtimeNsec,
                ctimeSec, ctimeNsec, 0);
    }

    /** This stat with another link count (what a listed file has once some of its names are gone). */
    public Stat withNlink(long links) {
        return new Stat(type, permissions, uid, gid, size, blocks, links, dev, ino, rdev, atimeSec, atimeNsec, mtimeSec, mtimeNsec,
                ctimeSec, ctimeNsec, locks);
    }

    /** True when some of the size is holes, so the copy should look for data extents. */
    public boolean maybeSparse() {
        return type == FileType.FILE && blocks * 512 < size;
    }

    public boolean sameMtime(Stat other) {
        return sameMtime(other, 0);
    }

    /**
     * Whether the mtimes are equal, or less than windowNanos apart: a destination that keeps times
     * in whole seconds (or 2 s, or µs) holds the source's time cut to that granularity.
     */
    public boolean sameMtime(Stat other, long windowNanos) {
        if (windowNanos == 0) return mtimeSec == other.mtimeSec && mtimeNsec == other.mtimeNsec;
        long seconds = mtimeSec - other.mtimeSec;
        if (Math.abs(seconds) > windowNanos / 1_000_000_000L + 1) return false;
        return Math.abs(seconds * 1_000_000_000L + (mtimeNsec - other.mtimeNsec)) < windowNanos;
    }
}
