package io.sparkdcp.copy;

import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;

import java.util.StringJoiner;

/** The kept inode flags and hints in words, as compare prints them (xfs_io's names). */
final class FlagWords {
    private static final int[] BITS = {Linux.FS_XFLAG_IMMUTABLE, Linux.FS_XFLAG_APPEND, Linux.FS_XFLAG_SYNC, Linux.FS_XFLAG_NOATIME,
            Linux.FS_XFLAG_NODUMP, Linux.FS_XFLAG_NODEFRAG, Linux.FS_XFLAG_DAX, Linux.FS_XFLAG_EXTSIZE,
            Linux.FS_XFLAG_EXTSZINHERIT, Linux.FS_XFLAG_COWEXTSIZE};
    private static final String[] WORDS = {"immutable", "append-only", "sync", "noatime", "nodump", "nodefrag", "dax", "extsize",
            "extszinherit", "cowextsize"};

    private FlagWords() {}

    /** "immutable,nodump", or "none". */
    static String of(int xflags) {
        StringJoiner out = new StringJoiner(",");
        for (int i = 0; i < BITS.length; i++) if ((xflags & BITS[i]) != 0) out.add(WORDS[i]);
        return out.length() == 0 ? "none" : out.toString();
    }

    /** The extent-size hints a struct's flags make count: "extsize 65536 cowextsize 0". */
    static String hints(FsXattr x) {
        StringJoiner out = new StringJoiner(" ");
        if (x.hasExtentSizeHint()) out.add("extsize " + Integer.toUnsignedString(x.extsize()));
        if ((x.xflags() & Linux.FS_XFLAG_COWEXTSIZE) != 0) out.add("cowextsize " + Integer.toUnsignedString(x.cowextsize()));
        return out.length() == 0 ? "none" : out.toString();
    }
}
