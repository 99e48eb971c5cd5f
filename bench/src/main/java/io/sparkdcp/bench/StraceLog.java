package io.sparkdcp.bench;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an {@code strace -f -qq} log: counts the calls that act on files, descriptors and names,
 * and among them the path look-ups (a non-empty name the kernel must resolve).
 */
final class StraceLog {
    /** Calls whose first argument is a path. */
    private static final Set<String> PATH_FIRST = Set.of("open", "creat", "stat", "lstat", "access", "chown", "lchown", "chmod",
            "mkdir", "rmdir", "unlink", "readlink", "truncate", "utime", "utimes", "mknod", "listxattr", "llistxattr",
            "getxattr", "lgetxattr", "setxattr", "lsetxattr", "removexattr", "lremovexattr");
    /** Calls whose second argument is a path relative to a directory descriptor (empty with AT_EMPTY_PATH). */
    private static final Set<String> PATH_SECOND = Set.of("openat", "openat2", "statx", "newfstatat", "mkdirat", "readlinkat",
            "unlinkat", "fchownat", "fchmodat", "fchmodat2", "utimensat", "mknodat", "faccessat", "faccessat2");
    /** Calls that resolve two names. */
    private static final Set<String> TWO_PATHS = Set.of("link", "linkat", "rename", "renameat", "renameat2", "symlink", "symlinkat");
    /** Calls on descriptors only. */
    private static final Set<String> BY_DESCRIPTOR = Set.of("close", "read", "write", "pread64", "pwrite64", "readv", "writev",
            "copy_file_range", "sendfile", "splice", "fstat", "ioctl", "flistxattr", "fgetxattr", "fsetxattr", "fremovexattr",
            "fchown", "fchmod", "getdents64", "lseek", "ftruncate", "fsync", "fdatasync", "fallocate", "fadvise64", "dup", "dup2",
            "dup3", "fcntl");
    private static final Pattern CALL = Pattern.compile("^(?:\\d+\\s+)?([a-z0-9_]+)\\((.*)");
    private static final Pattern SECOND_ARG_PATH = Pattern.compile("^[^,]+, \"(.*)");

    record Counts(long fileCalls, long pathLookups) {
        Counts minus(Counts o) { return new Counts(fileCalls - o.fileCalls, pathLookups - o.pathLookups); }
    }

    private StraceLog() {}

    static Counts count(List<String> lines) {
        long calls = 0;
        long lookups = 0;
        for (String line : lines) {
            Matcher m = CALL.matcher(line);
            if (!m.find()) continue; // "<... resumed>", signals, exits
            String name = m.group(1);
            String args = m.group(2);
            if (PATH_FIRST.contains(name)) {
                calls++;
                if (args.startsWith("\"") && !args.startsWith("\"\"")) lookups++;
            } else if (PATH_SECOND.contains(name)) {
                calls++;
                Matcher p = SECOND_ARG_PATH.matcher(args);
                if (p.find() && !p.group(1).startsWith("\"")) lookups++;
            } else if (TWO_PATHS.contains(name)) {
                calls++;
                // linkat(fd, "", dir, name, AT_EMPTY_PATH) names an open file: only the new name is resolved.
                lookups += name.equals("linkat") && args.matches("^[^,]+, \"\",.*AT_EMPTY_PATH.*") ? 1 : 2;
            } else if (BY_DESCRIPTOR.contains(name)) {
                calls++;
            }
        }
        return new Counts(calls, lookups);
    }
}
