package io.sparkdcp.copy.keep;

/**
 * How xattrs and project IDs are read and written: {@code FD} on the descriptors the copy already
 * holds (the design). The other two exist only for the bench, which sets them through the API:
 * {@code PATH} as the rejected mpifileutils patch did — xattrs by path and a second open of each
 * file for the ioctls — so the difference can be measured; {@code FD_ALWAYS_SET}, the fd way
 * without its skip: every entry with a project gets FS_IOC_FSSETXATTR even when creation under a
 * PROJINHERIT parent already gave it that project, to separate the cost of the second opens from
 * that of the needless sets. {@link #parse} (the user's {@code --xattr-access}) takes neither: a
 * slower way that keeps nothing more is no choice for a copy.
 */
public enum MetadataAccess {
    FD, PATH, FD_ALWAYS_SET;

    public static MetadataAccess parse(String word) {
        return switch (word) {
            case "fd" -> FD;
            case "path" -> throw new IllegalArgumentException("'path' is the bench's baseline (spark-dcp bench --contenders path), "
                    + "not a way to copy: expected fd");
            default -> throw new IllegalArgumentException("unknown xattr access '" + word + "' (expected fd)");
        };
    }
}
