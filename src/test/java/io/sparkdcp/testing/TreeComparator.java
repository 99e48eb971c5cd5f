package io.sparkdcp.testing;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import org.junit.jupiter.api.Assertions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Compares two trees entry by entry through the posix layer (byte names, never Strings):
 * type, permissions, owner, size, content, mtime (atime on request), xattrs of every namespace,
 * project ID and PROJINHERIT, symlink targets, device numbers, hard-link groups and holes.
 * The roots are compared too. Tree a is the source: holes are checked one way, where a file
 * of a has holes, b's may not allocate more blocks (beyond a slack). Reads open files with O_NOATIME, so comparing does not move atimes
 * (readlink still does under relatime: compare symlink atimes before anything read the links).
 */
public final class TreeComparator {
    private TreeComparator() {}

    /**
     * @param atimes          also compare atimes of regular files and symlinks (directories' move when listed)
     * @param holeSlackBlocks how many 512-byte blocks b may allocate beyond a before its holes count as filled
     */
    public record Options(boolean atimes, long holeSlackBlocks) {
        public static final Options DEFAULT = new Options(false, 64);

        public Options withAtimes() {
            return new Options(true, holeSlackBlocks);
        }
    }

    public static List<String> differences(Path a, Path b) {
        return differences(a, b, Options.DEFAULT);
    }

    /** Every difference, one line each, naming the path (PathBytes.display; "." is the root). */
    public static List<String> differences(Path a, Path b, Options options) {
        try (Snapshot left = Snapshot.of(a); Snapshot right = Snapshot.of(b)) {
            return new Comparison(left, right, options).run();
        }
    }

    public static void assertSameTree(Path a, Path b) {
        assertSameTree(a, b, Options.DEFAULT);
    }

    public static void assertSameTree(Path a, Path b, Options options) {
        List<String> found = differences(a, b, options);
        if (!found.isEmpty()) {
            Assertions.fail(found.size() + " difference(s) between " + a + " and " + b + ":\n  "
                    + String.join("\n  ", found));
        }
    }

    /** What one entry looked like; fsx and xattrs only for files and directories. */
    private record Entry(Stat stat, FsXattr fsx, SortedMap<byte[], byte[]> xattrs, byte[] linkTarget) {}

    /** One tree, read once: entries by relative path, and its root kept open for content reads. */
    private static final class Snapshot implements AutoCloseable {
        final Fd root;
        final SortedMap<byte[], Entry> entries = new TreeMap<>(PathBytes::compare);
        private final NativeBuffer buffer = new NativeBuffer(64 << 10);

        private Snapshot(Fd root) {
            this.root = root;
        }

        static Snapshot of(Path rootPath) {
            Fd root = Posix.open(PathBytes.of(rootPath.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW);
            Snapshot snapshot = new Snapshot(root);
            try {
                snapshot.entries.put(PathBytes.EMPTY, snapshot.openEntry(root, Posix.fstat(root)));
                snapshot.walk(root, PathBytes.EMPTY);
            } catch (RuntimeException e) {
                root.close();
                throw e;
            }
            return snapshot;
        }

        private void walk(Fd dir, byte[] dirPath) {
            for (Posix.DirEntry child : Posix.readDirectory(dir, buffer)) {
                byte[] path = PathBytes.join(dirPath, child.name());
                Stat stat = Posix.statAt(dir, child.name());
                switch (stat.type()) {
                    case DIRECTORY -> {
                        try (Fd sub = Posix.openat(dir, child.name(), Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW, 0)) {
                            entries.put(path, openEntry(sub, stat));
                            walk(sub, path);
                        }
                    }
                    case FILE -> {
                        try (Fd file = openNoAtime(dir, child.name())) {
                            entries.put(path, openEntry(file, stat));
                        }
                    }
                    case SYMLINK -> entries.put(path, new Entry(stat, null, null, Posix.readlinkat(dir, child.name())));
                    // FIFOs and devices are never opened: an open could block or touch hardware.
                    default -> entries.put(path, new Entry(stat, null, null, null));
                }
            }
        }

        private Entry openEntry(Fd fd, Stat stat) {
            SortedMap<byte[], byte[]> xattrs = new TreeMap<>(PathBytes::compare);
            for (byte[] name : Posix.flistxattr(fd, buffer)) {
                byte[] value = Posix.fgetxattr(fd, name, buffer);
                if (value != null) xattrs.put(name, value);
            }
            return new Entry(stat, Posix.getFsXattr(fd), xattrs, null);
        }

        Fd openFile(byte[] path) {
            try {
                return Posix.openBeneath(root, path, Linux.O_RDONLY | Linux.O_NOATIME);
            } catch (PosixException e) {
                if (e.errno() != Errno.EPERM) throw e;
                return Posix.openBeneath(root, path, Linux.O_RDONLY);
            }
        }

        @Override
        public void close() {
            root.close();
        }
    }

    /** O_NOATIME needs ownership or CAP_FOWNER; without it, read anyway. */
    private static Fd openNoAtime(Fd dir, byte[] name) {
        int flags = Linux.O_RDONLY | Linux.O_NOFOLLOW;
        Fd fd = Posix.openatUnless(Errno.EPERM, dir, name, flags | Linux.O_NOATIME, 0);
        return fd != null ? fd : Posix.openat(dir, name, flags, 0);
    }

    private static final class Comparison {
        private final Snapshot a;
        private final Snapshot b;
        private final Options options;
        private final List<String> found = new ArrayList<>();
        private final NativeBuffer bufA = new NativeBuffer(1 << 20);
        private final NativeBuffer bufB = new NativeBuffer(1 << 20);

        Comparison(Snapshot a, Snapshot b, Options options) {
            this.a = a;
            this.b = b;
            this.options = options;
        }

        List<String> run() {
            Set<byte[]> all = new TreeSet<>(PathBytes::compare);
            all.addAll(a.entries.keySet());
            all.addAll(b.entries.keySet());
            for (byte[] path : all) {
                Entry left = a.entries.get(path);
                Entry right = b.entries.get(path);
                if (right == null) found.add(PathBytes.display(path) + ": only in a");
                else if (left == null) found.add(PathBytes.display(path) + ": only in b");
                else compareEntry(path, left, right);
            }
            compareHardLinks();
            return found;
        }

        private void compareEntry(byte[] path, Entry left, Entry right) {
            Stat x = left.stat();
            Stat y = right.stat();
            if (x.type() != y.type()) {
                differ(path, "type", x.type(), y.type());
                return;
            }
            FileType type = x.type();
            check(path, "permissions", octal(x.permissions()), octal(y.permissions()));
            check(path, "uid", x.uid(), y.uid());
            check(path, "gid", x.gid(), y.gid());
            check(path, "mtime", time(x.mtimeSec(), x.mtimeNsec()), time(y.mtimeSec(), y.mtimeNsec()));
            if (options.atimes() && (type == FileType.FILE || type == FileType.SYMLINK)) {
                check(path, "atime", time(x.atimeSec(), x.atimeNsec()), time(y.atimeSec(), y.atimeNsec()));
            }
            switch (type) {
                case FILE -> {
                    compareInode(path, left, right);
                    if (check(path, "size", x.size(), y.size())) compareContent(path, x.size());
                    // Only where a has holes: CoW and preallocation may add blocks to dense files.
                    if (x.maybeSparse() && y.blocks() > x.blocks() + options.holeSlackBlocks()) {
                        found.add(PathBytes.display(path) + ": holes filled: b allocates " + y.blocks()
                                + " blocks of 512 bytes, a only " + x.blocks());
                    }
                }
                case DIRECTORY -> compareInode(path, left, right);
                case SYMLINK -> check(path, "symlink target", PathBytes.display(left.linkTarget()), PathBytes.display(right.linkTarget()));
                case CHAR_DEVICE, BLOCK_DEVICE -> check(path, "device", device(x.rdev()), device(y.rdev()));
                default -> { }
            }
        }

        private void compareInode(byte[] path, Entry left, Entry right) {
            check(path, "project ID", left.fsx().projid(), right.fsx().projid());
            check(path, "PROJINHERIT", left.fsx().projInherit(), right.fsx().projInherit());
            Set<byte[]> names = new TreeSet<>(PathBytes::compare);
            names.addAll(left.xattrs().keySet());
            names.addAll(right.xattrs().keySet());
            for (byte[] name : names) {
                byte[] x = left.xattrs().get(name);
                byte[] y = right.xattrs().get(name);
                String what = "xattr " + PathBytes.display(name);
                if (y == null) found.add(PathBytes.display(path) + ": " + what + " only in a");
                else if (x == null) found.add(PathBytes.display(path) + ": " + what + " only in b");
                else check(path, what, hex(x), hex(y));
            }
        }

        /** Byte for byte; only called when the sizes agree. */
        private void compareContent(byte[] path, long size) {
            int chunk = bufA.capacity();
            try (Fd x = a.openFile(path); Fd y = b.openFile(path)) {
                for (long offset = 0; offset < size; offset += chunk) {
                    int length = (int) Math.min(chunk, size - offset);
                    byte[] left = readFully(x, bufA, length, offset);
                    byte[] right = readFully(y, bufB, length, offset);
                    int at = Arrays.mismatch(left, right);
                    if (at >= 0) {
                        found.add(PathBytes.display(path) + ": content differs from byte " + (offset + at));
                        return;
                    }
                }
            }
        }

        private static byte[] readFully(Fd fd, NativeBuffer buf, int length, long offset) {
            int n = 0;
            byte[] out = new byte[length];
            while (n < length) {
                int got = Posix.pread(fd, buf, length - n, offset + n);
                if (got == 0) return Arrays.copyOf(out, n); // shrank while we read
                System.arraycopy(buf.copyOut(0, got), 0, out, n, got);
                n += got;
            }
            return out;
        }

        /**
         * The partition of non-directory paths into inodes must be the same. Reports, once per
         * group, names linked in a but not in b, then names linked in b but not in a.
         */
        private void compareHardLinks() {
            Map<byte[], List<Object>> inodeA = inodes(a);
            Map<byte[], List<Object>> inodeB = inodes(b);
            Set<byte[]> common = new TreeSet<>(PathBytes::compare);
            for (byte[] p : inodeA.keySet()) if (inodeB.containsKey(p)) common.add(p);
            reportSplits(common, inodeA, inodeB, "a", "b");
            reportSplits(common, inodeB, inodeA, "b", "a");
        }

        private void reportSplits(Set<byte[]> common, Map<byte[], List<Object>> here, Map<byte[], List<Object>> there,
                                  String hereName, String thereName) {
            Map<List<Object>, List<byte[]>> groups = new LinkedHashMap<>();
            for (byte[] p : common) groups.computeIfAbsent(here.get(p), k -> new ArrayList<>()).add(p);
            for (List<byte[]> group : groups.values()) {
                Map<List<Object>, List<byte[]>> asThere = new LinkedHashMap<>();
                for (byte[] p : group) asThere.computeIfAbsent(there.get(p), k -> new ArrayList<>()).add(p);
                if (asThere.size() > 1) {
                    found.add(PathBytes.display(group.get(0)) + ": hard links " + names(group) + " share an inode in "
                            + hereName + " but not in " + thereName + ", where they are "
                            + asThere.values().stream().map(TreeComparator::names).collect(Collectors.joining(" ")));
                }
            }
        }

        private static Map<byte[], List<Object>> inodes(Snapshot s) {
            Map<byte[], List<Object>> byPath = new TreeMap<>(PathBytes::compare);
            s.entries.forEach((path, e) -> {
                if (e.stat().type() != FileType.DIRECTORY) byPath.put(path, List.of(e.stat().dev(), e.stat().ino()));
            });
            return byPath;
        }

        private boolean check(byte[] path, String what, Object x, Object y) {
            if (Objects.equals(x, y)) return true;
            differ(path, what, x, y);
            return false;
        }

        private void differ(byte[] path, String what, Object x, Object y) {
            found.add(PathBytes.display(path) + ": " + what + " " + x + " != " + y);
        }
    }

    private static String names(List<byte[]> paths) {
        return paths.stream().map(PathBytes::display).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String octal(int permissions) {
        return String.format("0%04o", permissions);
    }

    private static String time(long sec, int nsec) {
        return String.format("%d.%09d", sec, nsec);
    }

    /** major:minor, glibc's split of a 64-bit dev_t. */
    private static String device(long rdev) {
        long major = ((rdev >>> 8) & 0xfffL) | ((rdev >>> 32) & 0xfffff000L);
        long minor = (rdev & 0xffL) | ((rdev >>> 12) & 0xffffff00L);
        return major + ":" + minor;
    }

    private static String hex(byte[] value) {
        return "0x" + HexFormat.of().formatHex(value);
    }
}
