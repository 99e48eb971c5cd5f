package io.sparkdcp.testing;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A source tree with everything a copy must keep: owners, odd modes, xattrs of every namespace,
 * ACLs, hard links, symlinks, special files, names that are not UTF-8, holes, project IDs and
 * nanosecond times. Built with the real tools where one exists, so the posix layer is not
 * checked against itself. Needs root on XFS.
 *
 * @param root    the directory the tree was built in (it is part of the tree: project 4242, PROJINHERIT)
 * @param entries every path below root, relative, in creation order (hard links once per name)
 */
public record RichTree(Path root, List<byte[]> entries) {
    public static final String SMALL_FILE = "small.txt";
    public static final String EMPTY_FILE = "empty";
    public static final String BIG_FILE = "data/big.bin";
    public static final long BIG_FILE_SIZE = (3L << 20) + 123;
    public static final String SPARSE_FILE = "data/sparse.img";
    public static final long SPARSE_FILE_SIZE = 64L << 20;
    /** Data extents of the sparse file: offsets, each SPARSE_EXTENT bytes long; the rest is holes. */
    public static final List<Long> SPARSE_DATA_OFFSETS = List.of(0L, 10L << 20, SPARSE_FILE_SIZE - (64 << 10));
    public static final int SPARSE_EXTENT = 64 << 10;
    public static final String MODE_0000 = "modes/m0000";
    public static final String MODE_0751 = "modes/m0751";
    public static final String SETUID_FILE = "modes/m4755";
    public static final String SETGID_FILE = "modes/m2711";
    public static final String STICKY_DIR = "modes/sticky";
    public static final String OWNED_1001 = "owners/u1001-g1002";
    public static final String OWNED_1003 = "owners/u1003-g100";
    public static final String OWNED_DIR = "owners/d1001";
    public static final String XATTR_FILE = "xattrs/file";
    public static final String XATTR_DIR = "xattrs/dir";
    public static final String ACL_FILE = "acl/file";
    public static final String DEFAULT_ACL_DIR = "acl/dir";
    public static final String ACL_INHERITED_FILE = "acl/dir/inherited";
    public static final List<String> HARD_LINK_GROUP = List.of("links/one/hard-a", "links/two/hard-b", "links/three/hard-c");
    public static final List<String> HARD_LINK_PAIR = List.of("links/pair-1", "links/pair-2");
    public static final String SYMLINK_RELATIVE = "symlinks/relative";
    public static final String SYMLINK_ABSOLUTE = "symlinks/absolute";
    public static final String SYMLINK_DANGLING = "symlinks/dangling";
    public static final String SYMLINK_TO_DIR = "symlinks/to-dir";
    public static final String SYMLINK_OWNED = "symlinks/owned-1001";
    public static final String FIFO = "special/fifo";
    public static final String CHAR_DEVICE = "special/null";
    public static final String BLOCK_DEVICE = "special/loop200";
    public static final String NEWLINE_NAME = "names/new\nline";
    public static final String READ_ONLY_DIR = "readonly";
    public static final String DEEP_FILE = "deep/l1/l2/l3/l4/leaf.txt";
    public static final String PROJECT_77_DIR = "projects/p77";
    public static final String PROJECT_77_FILE = "projects/p77/child";
    public static final String PROJECT_77_NESTED_FILE = "projects/p77/sub/grandchild";
    public static final String PROJECT_99_FILE = "projects/p77/p99";
    public static final String NO_INHERIT_DIR = "projects/no-inherit";
    public static final String NO_INHERIT_FILE = "projects/no-inherit/file";
    public static final int ROOT_PROJECT = 4242;
    /** Set with {@code touch -h -d} on SMALL_FILE, SYMLINK_RELATIVE and "deep" (atime and mtime). */
    public static final String TOUCHED_TIME = "2001-02-03 04:05:06.123456789";
    public static final long TOUCHED_EPOCH_SECONDS = 981173106L;
    public static final int TOUCHED_NANOS = 123456789;
    public static final List<String> TOUCHED = List.of(SMALL_FILE, SYMLINK_RELATIVE, "deep");

    /** "names/f\xffg": not UTF-8, so no Java String spells it. */
    public static byte[] nonUtf8File() {
        return new byte[] {'n', 'a', 'm', 'e', 's', '/', 'f', (byte) 0xff, 'g'};
    }

    /** "names/d\xfe/inner": a non-UTF-8 directory in the middle of a path. */
    public static byte[] fileInNonUtf8Dir() {
        return new byte[] {'n', 'a', 'm', 'e', 's', '/', 'd', (byte) 0xfe, '/', 'i', 'n', 'n', 'e', 'r'};
    }

    /** "symlinks/bytes-target" points to "f\xffg". */
    public static final String SYMLINK_BYTES_TARGET = "symlinks/bytes-target";

    public Path resolve(String relative) {
        return root.resolve(relative);
    }

    public int entryCount() {
        return entries.size();
    }

    /** Builds the tree in root, which must exist, be empty and sit on XFS; runs as root. */
    public static RichTree build(Path root) {
        try (Builder builder = new Builder(root)) {
            builder.buildAll();
            return new RichTree(root, List.copyOf(builder.entries.stream().map(Made::path).toList()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the rich tree in " + root, e);
        }
    }

    private record Made(byte[] path, boolean directory) {}

    private static final class Builder implements AutoCloseable {
        private final Path root;
        private final Fd rootFd;
        private final List<Made> entries = new ArrayList<>();

        Builder(Path root) {
            this.root = root;
            this.rootFd = Posix.open(PathBytes.of(root.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY);
        }

        void buildAll() throws IOException {
            // Project first: everything created below inherits 4242 from here on.
            xfsIo(".", "chproj " + ROOT_PROJECT, "chattr +P");
            plainFiles();
            modesAndOwners();
            xattrsAndAcls();
            links();
            specialFiles();
            oddNames();
            readOnlyDir();
            deepDirs();
            projects();
            setTimes();
        }

        private void plainFiles() throws IOException {
            file(SMALL_FILE, "hello, spark-dcp\n");
            file(EMPTY_FILE, "");
            dir("data");
            byte[] big = new byte[(int) BIG_FILE_SIZE];
            new SplittableRandom(42).nextBytes(big);
            file(BIG_FILE, big);
            sparseFile(SPARSE_FILE);
        }

        private void sparseFile(String rel) throws IOException {
            Path path = root.resolve(rel);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                // The last extent first: later writes land inside EOF, so XFS adds no speculative preallocation.
                for (int i = SPARSE_DATA_OFFSETS.size() - 1; i >= 0; i--) {
                    long offset = SPARSE_DATA_OFFSETS.get(i);
                    byte[] data = new byte[SPARSE_EXTENT];
                    new SplittableRandom(offset).nextBytes(data);
                    channel.write(ByteBuffer.wrap(data), offset);
                }
            }
            made(rel, false);
        }

        private void modesAndOwners() throws IOException {
            dir("modes");
            for (String rel : List.of(MODE_0000, MODE_0751, SETUID_FILE, SETGID_FILE)) file(rel, "mode " + rel + "\n");
            dir(STICKY_DIR);
            file(STICKY_DIR + "/inside", "in a sticky dir\n");
            dir("owners");
            file(OWNED_1001, "owned by 1001:1002\n");
            file(OWNED_1003, "owned by 1003:100\n");
            dir(OWNED_DIR);
            file(OWNED_DIR + "/f", "in a dir owned by 1001\n");
            // chown before chmod: chown clears setuid and setgid.
            tool("chown", "1001:1002", abs(OWNED_1001), abs(OWNED_DIR), abs(SETUID_FILE));
            tool("chown", "1003:100", abs(OWNED_1003), abs(OWNED_DIR + "/f"), abs(SETGID_FILE));
            tool("chmod", "0000", abs(MODE_0000));
            tool("chmod", "0751", abs(MODE_0751));
            tool("chmod", "04755", abs(SETUID_FILE));
            tool("chmod", "02711", abs(SETGID_FILE));
            tool("chmod", "01777", abs(STICKY_DIR));
        }

        private void xattrsAndAcls() throws IOException {
            dir("xattrs");
            file(XATTR_FILE, "has xattrs\n");
            setfattr(XATTR_FILE, "user.plain", "plain value");
            setfattr(XATTR_FILE, "user.binary", "0x0001ff7f80fe00");
            tool("setfattr", "-n", "user.empty", abs(XATTR_FILE));
            setfattr(XATTR_FILE, "trusted.secret", "0sc2VjcmV0AA==");
            setfattr(XATTR_FILE, "security.test", "security value");
            dir(XATTR_DIR);
            setfattr(XATTR_DIR, "user.on-dir", "dir value");
            setfattr(XATTR_DIR, "trusted.dir", "0x00ff");
            dir("acl");
            file(ACL_FILE, "has an access ACL\n");
            tool("setfacl", "-m", "u:1001:rw-,g:100:r--", abs(ACL_FILE));
            dir(DEFAULT_ACL_DIR);
            tool("setfacl", "-m", "u:1003:rwx,d:u:1003:rwx,d:g:1002:r-x", abs(DEFAULT_ACL_DIR));
            // Created after the default ACL, so they inherit it: an access ACL (and a default on the subdir).
            file(ACL_INHERITED_FILE, "inherits the default ACL\n");
            dir(DEFAULT_ACL_DIR + "/subdir");
        }

        private void links() throws IOException {
            dir("links");
            for (String d : List.of("links/one", "links/two", "links/three")) dir(d);
            file(HARD_LINK_GROUP.get(0), "three names, one inode\n");
            for (String other : HARD_LINK_GROUP.subList(1, 3)) hardLink(other, HARD_LINK_GROUP.get(0));
            file(HARD_LINK_PAIR.get(0), "two names in one dir\n");
            setfattr(HARD_LINK_PAIR.get(0), "user.linked", "shared by both names");
            hardLink(HARD_LINK_PAIR.get(1), HARD_LINK_PAIR.get(0));

            dir("symlinks");
            symlink(SYMLINK_RELATIVE, "../small.txt");
            symlink(SYMLINK_ABSOLUTE, "/etc/hostname");
            symlink(SYMLINK_DANGLING, "no/such/target");
            symlink(SYMLINK_TO_DIR, "../deep");
            symlink(SYMLINK_OWNED, "../small.txt");
            tool("chown", "-h", "1001:1002", abs(SYMLINK_OWNED));
            try (Fd symlinks = dirFd("symlinks")) {
                Posix.symlinkat(new byte[] {'f', (byte) 0xff, 'g'}, symlinks, PathBytes.of("bytes-target"));
            }
            made(SYMLINK_BYTES_TARGET, false);
        }

        private void specialFiles() throws IOException {
            dir("special");
            tool("mkfifo", "-m", "0640", abs(FIFO));
            made(FIFO, false);
            tool("mknod", "-m", "0620", abs(CHAR_DEVICE), "c", "1", "3");
            made(CHAR_DEVICE, false);
            tool("mknod", "-m", "0600", abs(BLOCK_DEVICE), "b", "7", "200");
            made(BLOCK_DEVICE, false);
        }

        private void oddNames() throws IOException {
            dir("names");
            file(NEWLINE_NAME, "a newline in the name\n");
            file("names/spaces and 'quotes'", "quoted\n");
            file("names/-leading-dash", "dash\n");
            try (Fd names = dirFd("names")) {
                // Java Strings cannot name these: write under an ASCII name, then rename to the bytes.
                file("names/tmp-non-utf8", "name is f, 0xff, g\n");
                Posix.renameat(names, PathBytes.of("tmp-non-utf8"), names, PathBytes.name(nonUtf8File()));
                replaceLast(nonUtf8File());
                file("names/tmp-unicode", "name is UTF-8 with accents\n");
                byte[] unicode = PathBytes.of("names/\u00fcn\u00efc\u00f6d\u00e9");
                Posix.renameat(names, PathBytes.of("tmp-unicode"), names, PathBytes.name(unicode));
                replaceLast(unicode);
                dir("names/tmp-dir");
                file("names/tmp-dir/inner", "inside a non-UTF-8 dir\n");
                byte[] byteDir = PathBytes.parent(fileInNonUtf8Dir());
                Posix.renameat(names, PathBytes.of("tmp-dir"), names, PathBytes.name(byteDir));
                entries.set(entries.size() - 2, new Made(byteDir, true));
                replaceLast(fileInNonUtf8Dir());
            }
        }

        private void readOnlyDir() throws IOException {
            dir(READ_ONLY_DIR);
            file(READ_ONLY_DIR + "/a", "in a read-only dir\n");
            file(READ_ONLY_DIR + "/b", "");
            tool("chmod", "0555", abs(READ_ONLY_DIR));
        }

        private void deepDirs() throws IOException {
            String path = "deep";
            dir(path);
            for (String level : List.of("l1", "l2", "l3", "l4")) {
                path += "/" + level;
                dir(path);
            }
            file(DEEP_FILE, "six levels down\n");
        }

        private void projects() throws IOException {
            dir("projects");
            dir(PROJECT_77_DIR);
            // Set before the children exist: they inherit 77 (and the subdir PROJINHERIT too).
            xfsIo(PROJECT_77_DIR, "chproj 77", "chattr +P");
            file(PROJECT_77_FILE, "project 77 by inheritance\n");
            dir(PROJECT_77_DIR + "/sub");
            file(PROJECT_77_NESTED_FILE, "project 77, two levels down\n");
            file(PROJECT_99_FILE, "project 99 in a project 77 dir\n");
            xfsIo(PROJECT_99_FILE, "chproj 99");
            dir(NO_INHERIT_DIR);
            // Keeps project 4242 but passes nothing on: its file gets project 0.
            xfsIo(NO_INHERIT_DIR, "chattr -P");
            file(NO_INHERIT_FILE, "project 0: parent without PROJINHERIT\n");
        }

        /** Distinct ns times on every entry: files and symlinks first, then dirs deepest first, root last. */
        private void setTimes() {
            List<Made> order = new ArrayList<>(entries.stream().filter(m -> !m.directory()).toList());
            entries.stream().filter(Made::directory)
                    .sorted(Comparator.comparingInt((Made m) -> PathBytes.depth(m.path())).reversed())
                    .forEachOrdered(order::add);
            order.add(new Made(PathBytes.EMPTY, true));
            for (int i = 0; i < order.size(); i++) {
                byte[] path = order.get(i).path();
                long mtime = 981173106L + 3_600L * (i + 1);
                long atime = 1012615506L + 60L * (i + 1);
                try (Fd parent = dirFd(PathBytes.parent(path))) {
                    Posix.lutimensAt(parent, PathBytes.name(path),
                            atime, 987654321 - i, mtime, (int) (100_000_007L * (i + 1) % 1_000_000_000));
                }
            }
            // A few by the real tool, so tests can check the posix layer against touch.
            for (String rel : TOUCHED) tool("touch", "-h", "-d", TOUCHED_TIME, abs(rel));
        }

        // ---- small helpers -------------------------------------------------------------------

        private void file(String rel, String content) throws IOException {
            file(rel, content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        private void file(String rel, byte[] content) throws IOException {
            Files.write(root.resolve(rel), content, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            made(rel, false);
        }

        private void dir(String rel) throws IOException {
            Files.createDirectory(root.resolve(rel));
            made(rel, true);
        }

        private void symlink(String rel, String target) throws IOException {
            Files.createSymbolicLink(root.resolve(rel), Path.of(target));
            made(rel, false);
        }

        private void hardLink(String rel, String existing) throws IOException {
            Files.createLink(root.resolve(rel), root.resolve(existing));
            made(rel, false);
        }

        private void made(String rel, boolean directory) {
            entries.add(new Made(PathBytes.of(rel), directory));
        }

        private void replaceLast(byte[] path) {
            Made last = entries.remove(entries.size() - 1);
            entries.add(new Made(path, last.directory()));
        }

        private Fd dirFd(byte[] rel) {
            return Posix.openBeneath(rootFd, rel, Linux.O_RDONLY | Linux.O_DIRECTORY);
        }

        private Fd dirFd(String rel) {
            return dirFd(PathBytes.of(rel));
        }

        private String abs(String rel) {
            return root.resolve(rel).toString();
        }

        private void setfattr(String rel, String name, String value) {
            tool("setfattr", "-n", name, "-v", value, abs(rel));
        }

        private void xfsIo(String rel, String... commands) {
            List<String> argv = new ArrayList<>(List.of("xfs_io", "-x"));
            for (String c : commands) argv.addAll(List.of("-c", c));
            argv.add(abs(rel));
            tool(argv.toArray(String[]::new));
        }

        private static void tool(String... argv) {
            Commands.run(argv);
        }

        @Override
        public void close() {
            rootFd.close();
        }
    }
}
