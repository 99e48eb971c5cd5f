package io.sparkdcp.copy.keep;

/**
 * How xattrs and project IDs are read and written: {@code FD} on the descriptors the copy already
 * holds (the design), or {@code PATH} as the rejected mpifileutils patch did — xattrs by path and a
 * second open of each file for the ioctls — kept so the difference can be measured.
 * {@code FD_ALWAYS_SET} is the fd way without its skip: every entry with a project gets
 * FS_IOC_FSSETXATTR even when creation under a PROJINHERIT parent already gave it that project. It
 * exists only for the bench, to separate the cost of the second opens from that of the needless
 * sets; {@link #parse} (the user's {@code --xattr-access}) does not accept it.
 */
public enum MetadataAccess {
    FD, PATH, FD_ALWAYS_SET;

    public static MetadataAccess parse(String word) {
        return switch (word) {
            case "fd" -> FD;
            case "path" -> PATH;
            default -> throw new IllegalArgumentException("unknown xattr access '" + word + "' (expected fd or path)");
        };
    }
}
