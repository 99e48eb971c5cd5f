package io.sparkdcp.posix;

/** The kind of a directory entry, from the S_IFMT bits of its mode. */
public enum FileType {
    FILE(Linux.S_IFREG), DIRECTORY(Linux.S_IFDIR), SYMLINK(Linux.S_IFLNK), FIFO(Linux.S_IFIFO),
    CHAR_DEVICE(Linux.S_IFCHR), BLOCK_DEVICE(Linux.S_IFBLK), SOCKET(Linux.S_IFSOCK);

    /** values() clones its array on every call, and a fresh JVM's C1 code clones through the VM: twice per file copied. */
    private static final FileType[] ALL = values();

    private final int formatBits;

    FileType(int formatBits) { this.formatBits = formatBits; }

    public int formatBits() { return formatBits; }

    public static FileType ofMode(int mode) {
        int fmt = mode & Linux.S_IFMT;
        for (FileType t : ALL) if (t.formatBits == fmt) return t;
        throw new IllegalArgumentException("unknown file type in mode 0" + Integer.toOctalString(mode));
    }
}
