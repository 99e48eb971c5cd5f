package io.sparkdcp.copy;

/**
 * How xattrs and project IDs are read and written: {@code FD} on the descriptors the copy already
 * holds (the design), or {@code PATH} as the rejected mpifileutils patch did — xattrs by path and a
 * second open of each file for the ioctls — kept so the difference can be measured.
 */
public enum MetadataAccess {
    FD, PATH;

    public static MetadataAccess parse(String word) {
        return switch (word) {
            case "fd" -> FD;
            case "path" -> PATH;
            default -> throw new IllegalArgumentException("unknown xattr access '" + word + "' (expected fd or path)");
        };
    }
}
