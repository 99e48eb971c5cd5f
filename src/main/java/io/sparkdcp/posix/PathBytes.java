package io.sparkdcp.posix;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Paths are byte arrays: Linux names need not be UTF-8. Relative paths use '/' between names
 * and the empty array for the root of a tree. Decoding happens only for display.
 */
public final class PathBytes {
    private PathBytes() {}

    public static final byte[] EMPTY = new byte[0];
    private static final byte[] DOT = {'.', 0};

    public static byte[] of(String path) {
        return path.getBytes(StandardCharsets.UTF_8);
    }

    /** NUL-terminated copy for libc; the empty path becomes ".". */
    public static byte[] cString(byte[] path) {
        if (path.length == 0) return DOT;
        byte[] c = Arrays.copyOf(path, path.length + 1);
        return c;
    }

    public static byte[] join(byte[] parent, byte[] name) {
        if (parent.length == 0) return name;
        byte[] out = new byte[parent.length + 1 + name.length];
        System.arraycopy(parent, 0, out, 0, parent.length);
        out[parent.length] = '/';
        System.arraycopy(name, 0, out, parent.length + 1, name.length);
        return out;
    }

    public static byte[] parent(byte[] path) {
        int slash = lastSlash(path);
        return slash < 0 ? EMPTY : Arrays.copyOfRange(path, 0, slash);
    }

    public static byte[] name(byte[] path) {
        int slash = lastSlash(path);
        return slash < 0 ? path : Arrays.copyOfRange(path, slash + 1, path.length);
    }

    /** Number of names in a relative path: 0 for the root, 1 for "a", 2 for "a/b". */
    public static int depth(byte[] path) {
        if (path.length == 0) return 0;
        int d = 1;
        for (byte b : path) if (b == '/') d++;
        return d;
    }

    private static int lastSlash(byte[] path) {
        for (int i = path.length - 1; i >= 0; i--) if (path[i] == '/') return i;
        return -1;
    }

    /** Printable form: UTF-8 where valid, other bytes as \xNN, control characters escaped. */
    public static String display(byte[] path) {
        if (path == null) return "";
        if (path.length == 0) return ".";
        StringBuilder sb = new StringBuilder(path.length + 8);
        var decoder = StandardCharsets.UTF_8.newDecoder();
        int i = 0;
        while (i < path.length) {
            int b = path[i] & 0xff;
            int len = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
            if (len == 1) {
                if (b == '\n') sb.append("\\n");
                else if (b == '\\') sb.append("\\\\");
                else if (b < 0x20 || b == 0x7f) sb.append(String.format("\\x%02x", b));
                else sb.append((char) b);
                i++;
                continue;
            }
            if (len > 1 && i + len <= path.length) {
                try {
                    sb.append(decoder.decode(java.nio.ByteBuffer.wrap(path, i, len)));
                    i += len;
                    continue;
                } catch (java.nio.charset.CharacterCodingException notUtf8) {
                    // falls through to the escape below
                }
            }
            sb.append(String.format("\\x%02x", b));
            i++;
        }
        return sb.toString();
    }

    /** Lexicographic order on unsigned bytes, the order the planner sorts paths in. */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }
}
