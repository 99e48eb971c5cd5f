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

    /** A stat of this type built by name; what is not given is 0. */
    public static Builder of(FileType type) {
        return new Builder(type);
    }

    /** A builder holding this stat's values, to change some of them by name. */
    public Builder toBuilder() {
        return of(type).permissions(permissions).uid(uid).gid(gid).size(size).blocks(blocks).nlink(nlink).dev(dev).ino(ino)
                .rdev(rdev).atime(atimeSec, atimeNsec).mtime(mtimeSec, mtimeNsec).ctime(ctimeSec, ctimeNsec).locks(locks);
    }

    /** This stat with another link count (what a listed file has once some of its names are gone). */
    public Stat withNlink(long links) {
        return toBuilder().nlink(links).build();
    }

    /** Seventeen components by name, so that a caller cannot swap two of the same type unseen. */
    public static final class Builder {
        private final FileType type;
        private int permissions;
        private int uid;
        private int gid;
        private long size;
        private long blocks;
        private long nlink;
        private long dev;
        private long ino;
        private long rdev;
        private long atimeSec;
        private int atimeNsec;
        private long mtimeSec;
        private int mtimeNsec;
        private long ctimeSec;
        private int ctimeNsec;
        private int locks;

        private Builder(FileType type) {
            this.type = type;
        }

        public Builder permissions(int bits) { permissions = bits; return this; }

        public Builder uid(int id) { uid = id; return this; }

        public Builder gid(int id) { gid = id; return this; }

        public Builder size(long bytes) { size = bytes; return this; }

        public Builder blocks(long count) { blocks = count; return this; }

        public Builder nlink(long links) { nlink = links; return this; }

        public Builder dev(long device) { dev = device; return this; }

        public Builder ino(long inode) { ino = inode; return this; }

        public Builder rdev(long device) { rdev = device; return this; }

        public Builder atime(long sec, int nsec) { atimeSec = sec; atimeNsec = nsec; return this; }

        public Builder mtime(long sec, int nsec) { mtimeSec = sec; mtimeNsec = nsec; return this; }

        public Builder ctime(long sec, int nsec) { ctimeSec = sec; ctimeNsec = nsec; return this; }

        public Builder locks(int bits) { locks = bits; return this; }

        public Stat build() {
            return new Stat(type, permissions, uid, gid, size, blocks, nlink, dev, ino, rdev, atimeSec, atimeNsec, mtimeSec, mtimeNsec,
                    ctimeSec, ctimeNsec, locks);
        }
    }

    /** True when some of the size is holes, so the copy should look for data extents. */
    public boolean maybeSparse() {
        return type == FileType.FILE && blocks * 512 < size;
    }

    /**
     * The bytes of data a copy writes, as far as the stat tells: the size, or a sparse file's allocated
     * blocks (its holes are not written). Zero for anything but a regular file.
     */
    public long dataBytes() {
        if (type != FileType.FILE) return 0;
        return maybeSparse() ? blocks * 512 : size;
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
