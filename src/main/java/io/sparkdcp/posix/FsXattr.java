package io.sparkdcp.posix;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** struct fsxattr (FS_IOC_FSGETXATTR / FS_IOC_FSSETXATTR): 28 bytes, of which the copy keeps projid and PROJINHERIT. */
public record FsXattr(int xflags, int extsize, int nextents, int projid, int cowextsize) implements Serializable {
    static final int SIZE = 28;

    public boolean projInherit() {
        return (xflags & Linux.FS_XFLAG_PROJINHERIT) != 0;
    }

    /** This struct with the project ID and PROJINHERIT of another, every other flag kept. */
    public FsXattr withProject(int newProjid, boolean newProjInherit) {
        int flags = newProjInherit ? xflags | Linux.FS_XFLAG_PROJINHERIT : xflags & ~Linux.FS_XFLAG_PROJINHERIT;
        return new FsXattr(flags, extsize, nextents, newProjid, cowextsize);
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
