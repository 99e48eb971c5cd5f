package io.sparkdcp.copy.steps;

/** The timed steps of a copy. The names are stable: reports, accumulators and benchmarks use them. */
public enum Step {
    OPEN_SRC("open_src"), OPEN_DST("open_dst"), STAT_DST("stat_dst"), DATA("data"),
    XATTR_LIST("xattr_list"), XATTR_GET("xattr_get"), XATTR_SET("xattr_set"),
    IOCTL_GET("ioctl_get"), IOCTL_SET("ioctl_set"), OWNER("owner"), MODE("mode"), TIMES("times"),
    CLOSE("close"), MKDIR("mkdir"), LINK("link"), READLINK("readlink"), SYMLINK("symlink"), MKNOD("mknod"),
    UNLINK("unlink"), OPEN_DIR("open_dir"), RENAME("rename"), FSYNC("fsync"), VERIFY("verify"),
    STAT_SRC("stat_src"), LOCK("lock");

    private final String label;

    Step(String label) { this.label = label; }

    public String label() { return label; }

    /** A metadata call: what --max-ops limits and the report's ops per second count (data and verify move bytes). */
    public boolean metadata() { return this != DATA && this != VERIFY; }
}
