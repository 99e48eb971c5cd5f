package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.CompareOutcome;
import io.sparkdcp.copy.compare.ContentComparer;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.compare.EntryPair;
import io.sparkdcp.copy.compare.PairChunk;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The compare command's rule for one entry both trees have, run by a task on its share of pairs:
 * what the two stats say (type, size, mode, owner, group, mtime within the window, device number),
 * then, through one read-only descriptor per side (O_NOFOLLOW, O_NOATIME where allowed, O_NONBLOCK),
 * the project ID and PROJINHERIT, the inode flags and extent-size hints the copy keeps, the xattrs the policy keeps (ACLs among them) and with --contents
 * the bytes; symlink targets are read by name in their open parents. Nothing is ever written.
 */
public final class EntryComparer implements AutoCloseable {
    private static final int OPEN_FILE = Linux.O_RDONLY | Linux.O_NOFOLLOW | Linux.O_NONBLOCK;
    private static final int OPEN_DIRECTORY = Linux.O_RDONLY | Linux.O_DIRECTORY | Linux.O_NOFOLLOW;
    private static final StepRecorder UNTIMED = (step, nanos) -> {};
    private static final int VALUE_SHOWN = 48;
    private static final java.time.format.DateTimeFormatter ISO_NANOS =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'", Locale.ROOT).withZone(java.time.ZoneOffset.UTC);

    private final CopyOptions options;
    private final long windowNanos;
    private final Fd sourceRoot;
    private final Fd destinationRoot;
    private final DirectoryCache sourceDirs;
    private final DirectoryCache destinationDirs;
    private final NativeBuffer buffer = new NativeBuffer(64 * 1024);
    private final ContentComparer contents = new ContentComparer();
    private final List<Difference> differences = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    private long compared;
    private long bytesCompared;

    /** Opens both roots, checked against the identities the driver pinned. */
    private EntryComparer(CopyOptions options, long windowNanos) {
        this.options = options;
        this.windowNanos = windowNanos;
        RootCheck.Both roots = RootCheck.openBoth(options);
        this.sourceRoot = roots.source();
        this.destinationRoot = roots.destination();
        this.sourceDirs = new DirectoryCache(sourceRoot, UNTIMED);
        this.destinationDirs = new DirectoryCache(destinationRoot, UNTIMED);
    }

    /**
     * Compares a task's pairs. {@code options} names the roots, the xattr policy, whether project
     * IDs count and (modes().compareContents()) whether bytes are read; {@code windowNanos} is how
     * far apart mtimes may be and still count as the same (0: to the nanosecond). With several
     * threads the pairs are cut into as many runs of neighbours, each compared by its own thread with
     * its own descriptors, so that many calls are in flight where each is a round trip (Lustre).
     */
    public static CompareOutcome compare(CopyOptions options, long windowNanos, int threads, List<EntryPair> pairs) {
        int n = Math.max(1, Math.min(threads, pairs.size()));
        if (n == 1) return compareSlice(options, windowNanos, pairs);
        List<java.util.concurrent.Future<CompareOutcome>> slices = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(n);
        try {
            for (int i = 0; i < n; i++) {
                List<EntryPair> slice = pairs.subList(i * pairs.size() / n, (i + 1) * pairs.size() / n);
                slices.add(pool.submit(() -> compareSlice(options, windowNanos, slice)));
            }
            List<Difference> differences = new ArrayList<>();
            List<Failure> failures = new ArrayList<>();
            long compared = 0;
            long bytes = 0;
            for (java.util.concurrent.Future<CompareOutcome> f : slices) {
                CompareOutcome o = joined(f);
                differences.addAll(o.differences());
                failures.addAll(o.failures());
                compared += o.compared();
                bytes += o.bytesCompared();
            }
            return new CompareOutcome(differences, failures, compared, bytes);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Compares ranges of files larger than the chunk size, which the pairs' own comparison leaves
     * out; each range is a DATA difference of its file when its bytes differ (the driver keeps one per file).
     */
    public static CompareOutcome compareChunks(CopyOptions options, List<PairChunk> chunks) {
        try (EntryComparer c = new EntryComparer(options, 0)) {
            for (PairChunk chunk : chunks) c.compareChunk(chunk);
            return new CompareOutcome(List.copyOf(c.differences), List.copyOf(c.failures), 0, c.bytesCompared);
        }
    }

    private void compareChunk(PairChunk chunk) {
        Entry s = chunk.pair().source();
        Entry d = chunk.pair().destination();
        try (Fd x = open(sourceDirs, s, options.sourcePath(s.path()), "source"); Fd y = open(destinationDirs, d, d.path(), "destination")) {
            bytesCompared += chunk.length();
            if (!contents.equal(x, y, chunk.offset(), chunk.length(), UNTIMED))
                differences.add(new Difference(s.path(), Difference.Kind.DATA, "", ""));
        } catch (PosixException e) {
            failures.add(Failure.of(s.path(), e));
        } catch (ChangedSinceWalk e) {
            failures.add(Failure.of(s.path(), "compare", e.getMessage()));
        }
    }

    private static CompareOutcome compareSlice(CopyOptions options, long windowNanos, List<EntryPair> pairs) {
        try (EntryComparer comparer = new EntryComparer(options, windowNanos)) {
            for (EntryPair pair : pairs) comparer.compare(pair);
            return new CompareOutcome(List.copyOf(comparer.differences), List.copyOf(comparer.failures),
                    comparer.compared, comparer.bytesCompared);
        }
    }

    private static CompareOutcome joined(java.util.concurrent.Future<CompareOutcome> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while comparing", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        }
    }

    private void compare(EntryPair pair) {
        Entry s = pair.source();
        Entry d = pair.destination();
        compared++;
        List<Difference> found = new ArrayList<>();
        byStat(s, d, windowNanos, found);
        if (s.type() == d.type()) {
            try {
                switch (s.type()) {
                    case FILE, DIRECTORY -> byDescriptors(s, d, found);
                    case SYMLINK -> {
                        byte[] x = Posix.readlinkat(sourceDirs.get(s.parent()), PathBytes.name(options.sourcePath(s.path())));
                        byte[] y = Posix.readlinkat(destinationDirs.get(d.parent()), d.name());
                        if (!Arrays.equals(x, y))
                            found.add(new Difference(s.path(), Difference.Kind.SYMLINK_TARGET, PathBytes.display(x), PathBytes.display(y)));
                    }
                    default -> { }
                }
            } catch (PosixException e) {
                failures.add(Failure.of(s.path(), e));
            } catch (ChangedSinceWalk e) {
                failures.add(Failure.of(s.path(), "compare", e.getMessage()));
            }
        }
        differences.addAll(found);
    }

    /**
     * What the two stats tell: the type first (nothing else is compared across types), then mode
     * (not of symlinks, whose mode Linux fixes), owner, group, mtime within the window, and the
     * size of files or the device number of devices. Directory sizes depend on the file system and
     * are not compared.
     */
    public static void byStat(Entry source, Entry destination, long windowNanos, List<Difference> out) {
        Stat s = source.stat();
        Stat d = destination.stat();
        byte[] path = source.path();
        if (s.type() != d.type()) {
            out.add(new Difference(path, Difference.Kind.TYPE, typeWord(s.type()), typeWord(d.type())));
            return;
        }
        if (s.type() != FileType.SYMLINK && s.permissions() != d.permissions())
            out.add(new Difference(path, Difference.Kind.MODE, octal(s.permissions()), octal(d.permissions())));
        if (s.uid() != d.uid()) out.add(new Difference(path, Difference.Kind.OWNER, "" + s.uid(), "" + d.uid()));
        if (s.gid() != d.gid()) out.add(new Difference(path, Difference.Kind.GROUP, "" + s.gid(), "" + d.gid()));
        if (!s.sameMtime(d, windowNanos))
            out.add(new Difference(path, Difference.Kind.MTIME, time(s.mtimeSec(), s.mtimeNsec()), time(d.mtimeSec(), d.mtimeNsec())));
        if (s.type() == FileType.FILE && s.size() != d.size())
            out.add(new Difference(path, Difference.Kind.SIZE, "" + s.size(), "" + d.size()));
        if ((s.type() == FileType.CHAR_DEVICE || s.type() == FileType.BLOCK_DEVICE) && s.rdev() != d.rdev())
            out.add(new Difference(path, Difference.Kind.DEVICE, device(s.rdev()), device(d.rdev())));
    }

    /** One descriptor per side for everything an open inode tells. */
    private void byDescriptors(Entry s, Entry d, List<Difference> found) {
        Fd x = null;
        Fd y = null;
        try {
            x = open(sourceDirs, s, options.sourcePath(s.path()), "source");
            y = open(destinationDirs, d, d.path(), "destination");
            if (options.readsFsXattr()) {
                FsXattr a = project(x);
                FsXattr b = project(y);
                if (options.projectIds()) compareProjects(s.path(), a, b, found);
                if (options.flags()) compareFlags(s.path(), a, b, found);
            }
            if (!options.xattrs().copiesNothing()) compareXattrs(s.path(), xattrs(x), xattrs(y), found);
            long size = s.stat().size();
            if (options.modes().compareContents() && s.type() == FileType.FILE && size == d.stat().size() && size <= options.chunkSize()) {
                bytesCompared += size;
                if (!contents.equal(x, y, size, UNTIMED))
                    found.add(new Difference(s.path(), Difference.Kind.DATA, "", ""));
            }
        } finally {
            if (x != null && x != sourceRoot) x.close();
            if (y != null && y != destinationRoot) y.close();
        }
    }

    /**
     * The entry read-only, without following a symlink, without moving its atime where we may
     * (O_NOATIME needs ownership or CAP_FOWNER), and only if it is still the inode the walk listed.
     */
    static Fd open(DirectoryCache dirs, Entry e, byte[] path, String side) {
        if (e.isRoot()) return dirs.root();
        int flags = e.type() == FileType.DIRECTORY ? OPEN_DIRECTORY : OPEN_FILE;
        Fd parent = dirs.get(e.parent());
        byte[] name = PathBytes.name(path);
        Fd fd = Posix.openatUnless(Errno.EPERM, parent, name, flags | Linux.O_NOATIME, 0);
        if (fd == null) fd = Posix.openat(parent, name, flags, 0);
        Stat now = Posix.fstat(fd);
        if (now.ino() != e.stat().ino() || now.dev() != e.stat().dev() || now.type() != e.type()) {
            fd.close();
            throw new ChangedSinceWalk("the " + side + " entry was replaced since the walk; not compared");
        }
        return fd;
    }

    static FsXattr project(Fd fd) {
        FsXattr p = FdMetadataIO.projectOrNull(fd, UNTIMED);
        return p != null ? p : new FsXattr(0, 0, 0, 0, 0); // no project IDs there: ID 0, no PROJINHERIT
    }

    private static void compareProjects(byte[] path, FsXattr x, FsXattr y, List<Difference> found) {
        if (x.projid() != y.projid())
            found.add(new Difference(path, Difference.Kind.PROJECT_ID, "" + Integer.toUnsignedString(x.projid()),
                    Integer.toUnsignedString(y.projid())));
        if (x.projInherit() != y.projInherit())
            found.add(new Difference(path, Difference.Kind.PROJINHERIT, onOff(x.projInherit()), onOff(y.projInherit())));
    }

    /** The inode flags the copy keeps (immutable, append-only, nodump...), then their extent-size hints. */
    private static void compareFlags(byte[] path, FsXattr x, FsXattr y, List<Difference> found) {
        if (x.keptFlags() != y.keptFlags())
            found.add(new Difference(path, Difference.Kind.FLAGS, FlagWords.of(x.keptFlags()), FlagWords.of(y.keptFlags())));
        else if (!y.sameKept(x, true))
            found.add(new Difference(path, Difference.Kind.EXTENT_HINTS, FlagWords.hints(x), FlagWords.hints(y)));
    }

    private SortedMap<byte[], byte[]> xattrs(Fd fd) {
        SortedMap<byte[], byte[]> out = new TreeMap<>(PathBytes::compare);
        List<byte[]> names = Posix.flistxattr(fd, buffer);
        for (Xattr x : FdMetadataIO.readKept(names, options.xattrs(), UNTIMED, n -> Posix.fgetxattr(fd, n, buffer)))
            out.put(x.name(), x.value());
        return out;
    }

    private static void compareXattrs(byte[] path, SortedMap<byte[], byte[]> x, SortedMap<byte[], byte[]> y, List<Difference> found) {
        SortedMap<byte[], Boolean> names = new TreeMap<>(PathBytes::compare);
        x.keySet().forEach(n -> names.put(n, true));
        y.keySet().forEach(n -> names.put(n, true));
        for (byte[] name : names.keySet()) {
            byte[] a = x.get(name);
            byte[] b = y.get(name);
            if (a != null && Arrays.equals(a, b)) continue;
            String shown = PathBytes.display(name);
            Difference.Kind kind = Xattr.isAcl(name) ? Difference.Kind.ACL : Difference.Kind.XATTR;
            found.add(new Difference(path, kind, shown + (a == null ? " absent" : "=" + value(a)),
                    shown + (b == null ? " absent" : "=" + value(b))));
        }
    }

    /** Text when the value is printable ASCII, else hex; long values cut short. */
    static String value(byte[] v) {
        boolean text = true;
        for (byte b : v) if (b < 0x20 || b == 0x7f) text = false; // negative bytes: not ASCII either
        String shown = text ? "\"" + new String(v, StandardCharsets.US_ASCII) + "\"" : "0x" + HexFormat.of().formatHex(v);
        return shown.length() <= VALUE_SHOWN ? shown : shown.substring(0, VALUE_SHOWN) + "… (" + v.length + " bytes)";
    }

    static String typeWord(FileType t) {
        return t.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String onOff(boolean on) {
        return on ? "set" : "unset";
    }

    private static String octal(int permissions) {
        return String.format("%04o", permissions);
    }

    /** ISO-8601 in UTC with all nine digits of nanoseconds: two times that differ by 1 ns read apart. */
    static String time(long sec, int nsec) {
        return ISO_NANOS.format(java.time.Instant.ofEpochSecond(sec, nsec));
    }

    /** major:minor, glibc's split of a 64-bit dev_t. */
    private static String device(long rdev) {
        long major = ((rdev >>> 8) & 0xfffL) | ((rdev >>> 32) & 0xfffff000L);
        long minor = (rdev & 0xffL) | ((rdev >>> 12) & 0xffffff00L);
        return major + ":" + minor;
    }

    @Override
    public void close() {
        try {
            sourceDirs.close();
            destinationDirs.close();
        } finally {
            try {
                sourceRoot.close();
            } finally {
                destinationRoot.close();
            }
        }
    }

    /** The inode at a path is not the one the walk listed: compared, it would be judged on a mix of two. */
    static final class ChangedSinceWalk extends RuntimeException {
        ChangedSinceWalk(String message) {
            super(message, null, false, false);
        }
    }
}
