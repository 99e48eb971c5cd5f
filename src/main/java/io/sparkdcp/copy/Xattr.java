package io.sparkdcp.copy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** One extended attribute: name and value as bytes. */
public record Xattr(byte[] name, byte[] value) {
    private static final byte[] ACL_PREFIX = "system.posix_acl_".getBytes(StandardCharsets.US_ASCII);

    /** An ACL ({@code system.posix_acl_access} or {@code _default}), which compare and the item log name apart. */
    static boolean isAcl(byte[] name) {
        return name.length >= ACL_PREFIX.length && Arrays.equals(name, 0, ACL_PREFIX.length, ACL_PREFIX, 0, ACL_PREFIX.length);
    }
}
