package io.sparkdcp.roots;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The roots as given and as resolved, absolute paths as bytes: a SRC or DST that is not UTF-8 has no
 * java.nio Path in a UTF-8 JVM, so roots are made absolute, normalized, resolved (realpath(3)) and
 * created here on their bytes. An absolute path is "/" or "/" followed by names without empty ones.
 */
final class RootPaths {
    private static final byte[] SLASH = {'/'};
    private static final byte[] DOT = {'.'};

    private RootPaths() {}

    /** path made absolute against the working directory, "." and ".." removed by name (as java.nio's normalize does). */
    static byte[] absolute(byte[] path) {
        byte[] whole = path.length > 0 && path[0] == '/' ? path : PathBytes.join(workingDirectory(), path);
        List<byte[]> names = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= whole.length; i++) {
            if (i < whole.length && whole[i] != '/') continue;
            byte[] name = Arrays.copyOfRange(whole, start, i);
            start = i + 1;
            if (name.length == 0 || Arrays.equals(name, DOT)) continue;
            if (name.length == 2 && name[0] == '.' && name[1] == '.') {
                if (!names.isEmpty()) names.remove(names.size() - 1);
                continue;
            }
            names.add(name);
        }
        byte[] out = SLASH;
        for (byte[] name : names) out = child(out, name);
        return out;
    }

    /** The directory holding an absolute path; null for "/". */
    static byte[] parent(byte[] absolute) {
        if (absolute.length == 1) return null;
        byte[] parent = PathBytes.parent(absolute);
        return parent.length == 0 ? SLASH : parent;
    }

    /** The last name of an absolute path (empty for "/"). */
    static byte[] name(byte[] absolute) {
        return absolute.length == 1 ? PathBytes.EMPTY : PathBytes.name(absolute);
    }

    static byte[] child(byte[] absolute, byte[] name) {
        if (absolute.length == 1) {
            byte[] out = new byte[1 + name.length];
            out[0] = '/';
            System.arraycopy(name, 0, out, 1, name.length);
            return out;
        }
        return PathBytes.join(absolute, name);
    }

    /** True when path is dir or below it, by name. */
    static boolean below(byte[] path, byte[] dir) {
        if (dir.length == 1) return true;
        if (path.length < dir.length || !Arrays.equals(path, 0, dir.length, dir, 0, dir.length)) return false;
        return path.length == dir.length || path[dir.length] == '/';
    }

    /** The names below dir that lead to path (path below dir, not dir itself). */
    static byte[] relative(byte[] path, byte[] dir) {
        return Arrays.copyOfRange(path, dir.length == 1 ? 1 : dir.length + 1, path.length);
    }

    /** stat, following symlinks (without {@code follow}: lstat); null when missing. A path that cannot be looked at is a usage error. */
    static Stat stat(byte[] absolute, boolean follow, byte[] named) {
        try {
            return Posix.statIfExists(absolute, follow);
        } catch (PosixException e) {
            throw new UsageException("cannot look at " + PathBytes.display(named) + ": " + e.reason());
        }
    }

    static boolean exists(byte[] absolute, byte[] named) {
        return stat(absolute, false, named) != null;
    }

    static boolean isDirectory(byte[] absolute, byte[] named) {
        Stat s = stat(absolute, true, named);
        return s != null && s.type() == FileType.DIRECTORY;
    }

    /** realpath(3): every symlink resolved; the path must exist. */
    static byte[] real(byte[] absolute, byte[] named) {
        try {
            return Posix.realpath(absolute);
        } catch (PosixException e) {
            throw new UsageException("cannot resolve " + PathBytes.display(named) + ": " + e.reason());
        }
    }

    /** The working directory's real path, as the kernel has it (java's user.dir is decoded, so lossy for other bytes). */
    private static byte[] workingDirectory() {
        return Posix.realpath(DOT);
    }

    /** mkdir -p: each missing directory on the way to absolute, created in its parent opened without following symlinks. */
    static void createDirectories(byte[] absolute, byte[] named) {
        byte[] existing = absolute;
        List<byte[]> missing = new ArrayList<>();
        while (!exists(existing, named)) {
            missing.add(0, name(existing));
            existing = parent(existing);
        }
        try {
            Fd dir = Posix.open(existing, Linux.O_RDONLY | Linux.O_DIRECTORY);
            try {
                for (byte[] name : missing) {
                    Posix.mkdirat(dir, name, 0777);
                    Fd next = Posix.openat(dir, name, Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW, 0);
                    dir.close();
                    dir = next;
                }
            } finally {
                dir.close();
            }
        } catch (PosixException e) {
            throw new UsageException("cannot create destination " + PathBytes.display(named) + ": " + e.reason());
        }
    }

    /** The path as a String when it is UTF-8, else null (the mount table holds UTF-8 mount points only). */
    static String utf8(byte[] path) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(path)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
