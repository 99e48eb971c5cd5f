package io.sparkdcp.testing;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The comparator must pass an exact copy and catch every single change a copy could get wrong.
 * The source is built once; each test gets a fresh copy made by cp -a plus the project IDs
 * (which cp does not carry), then changes one thing and restores the times it disturbed.
 */
class TreeComparatorTest {
    private static LoopMount mount;
    private static RichTree source;
    private static int copies;
    private Path copy;

    @BeforeAll
    static void buildSource() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("comparator-test", 1024);
        source = RichTree.build(Files.createDirectory(mount.dir().resolve("source")));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @BeforeEach
    void copySource() {
        copy = mount.dir().resolve("copy-" + ++copies);
        Commands.run("cp", "-a", "--preserve=all", source.root().toString(), copy.toString());
        copyProjectIds(source.root(), copy);
    }

    @AfterEach
    void removeCopy() {
        Commands.run("rm", "-rf", copy.toString());
    }

    // ---- the tree itself -----------------------------------------------------------------------

    @Test
    void richTreeHasEveryKindOfEntry() throws IOException {
        // find prints one x per entry: names with newlines cannot break the count.
        assertEquals(source.entryCount(), Commands.run("find", source.root().toString(), "-mindepth", "1", "-printf", "x").length());
        assertEquals(FileType.FIFO, stat(RichTree.FIFO).type());
        assertEquals(FileType.CHAR_DEVICE, stat(RichTree.CHAR_DEVICE).type());
        assertEquals(FileType.BLOCK_DEVICE, stat(RichTree.BLOCK_DEVICE).type());
        assertEquals(04755, stat(RichTree.SETUID_FILE).permissions());
        assertEquals(02711, stat(RichTree.SETGID_FILE).permissions());
        assertEquals(01777, stat(RichTree.STICKY_DIR).permissions());
        assertEquals(0555, stat(RichTree.READ_ONLY_DIR).permissions());
        assertEquals(1001, stat(RichTree.SETUID_FILE).uid());
        assertEquals(100, stat(RichTree.OWNED_1003).gid());
        assertEquals(3, stat(RichTree.HARD_LINK_GROUP.get(2)).nlink());
        assertEquals(RichTree.BIG_FILE_SIZE, Files.size(source.resolve(RichTree.BIG_FILE)));
        assertTrue(Files.exists(source.resolve(RichTree.DEEP_FILE)));
        assertTrue(Files.exists(source.resolve(RichTree.NEWLINE_NAME)));
        assertTrue(Commands.run("getfacl", "-p", source.resolve(RichTree.ACL_INHERITED_FILE).toString()).contains("user:1003:rwx"));
        try (Fd root = openRoot(source.root())) {
            assertEquals(FileType.FILE, Posix.statAt(root, RichTree.nonUtf8File()).type());
            assertEquals(FileType.FILE, Posix.statAt(root, RichTree.fileInNonUtf8Dir()).type());
        }
    }

    @Test
    void richTreeSparseFileHasHoles() {
        Stat sparse = stat(RichTree.SPARSE_FILE);
        assertEquals(RichTree.SPARSE_FILE_SIZE, sparse.size());
        long dataBlocks = RichTree.SPARSE_DATA_OFFSETS.size() * (long) RichTree.SPARSE_EXTENT / 512;
        assertTrue(sparse.blocks() <= dataBlocks + 64, "allocated " + sparse.blocks() + " blocks");
    }

    @Test
    void richTreeProjectIdsAreWhatXfsIoReports() {
        Map<String, String> expected = Map.of(".", "4242", RichTree.SMALL_FILE, "4242", RichTree.PROJECT_77_DIR, "77",
                RichTree.PROJECT_77_FILE, "77", RichTree.PROJECT_77_NESTED_FILE, "77", RichTree.PROJECT_99_FILE, "99",
                RichTree.NO_INHERIT_DIR, "4242", RichTree.NO_INHERIT_FILE, "0");
        expected.forEach((rel, projid) -> assertEquals("projid = " + projid,
                Commands.run("xfs_io", "-c", "lsproj", source.resolve(rel).toString()).strip(), rel));
        assertTrue(fsx(source.root(), ".").projInherit());
        assertTrue(fsx(source.root(), RichTree.PROJECT_77_DIR + "/sub").projInherit());
        assertFalse(fsx(source.root(), RichTree.NO_INHERIT_DIR).projInherit());
    }

    @Test
    void richTreeTimesAreWhatTouchSet() {
        for (String rel : RichTree.TOUCHED) {
            Stat stat = stat(rel);
            assertEquals(RichTree.TOUCHED_EPOCH_SECONDS, stat.mtimeSec(), rel);
            assertEquals(RichTree.TOUCHED_NANOS, stat.mtimeNsec(), rel);
        }
        Stat deep = stat(RichTree.DEEP_FILE);
        assertEquals(deep.mtimeSec() + "." + String.format("%09d", deep.mtimeNsec()),
                Commands.run("stat", "-c", "%.9Y", source.resolve(RichTree.DEEP_FILE).toString()).strip());
    }

    // ---- no false alarms -----------------------------------------------------------------------

    @Test
    void aTreeEqualsItself() {
        assertEquals(List.of(), TreeComparator.differences(source.root(), source.root()));
    }

    @Test
    void anExactCopyHasNoDifferences() {
        TreeComparator.assertSameTree(source.root(), copy);
    }

    // ---- every single change is caught ---------------------------------------------------------

    @Test
    void detectsAChangedContentByte() throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(copy.resolve(RichTree.BIG_FILE).toFile(), "rw")) {
            file.seek(2_000_000);
            int old = file.read();
            file.seek(2_000_000);
            file.write(old ^ 1);
        }
        restoreTimes(RichTree.BIG_FILE);
        assertOnly(RichTree.BIG_FILE + ": data: the bytes differ");
    }

    @Test
    void detectsAChangedMode() {
        Commands.run("chmod", "0640", copy.resolve(RichTree.MODE_0751).toString());
        assertOnly(RichTree.MODE_0751 + ": mode: 0751 != 0640");
    }

    @Test
    void detectsALostSetuidBit() {
        Commands.run("chmod", "u-s", copy.resolve(RichTree.SETUID_FILE).toString());
        assertOnly(RichTree.SETUID_FILE + ": mode: 4755 != 0755");
    }

    @Test
    void detectsAChangedOwner() {
        Commands.run("chown", "1005:1002", copy.resolve(RichTree.OWNED_1001).toString());
        assertOnly(RichTree.OWNED_1001 + ": owner: 1001 != 1005");
    }

    @Test
    void detectsAChangedSymlinkOwner() {
        Commands.run("chown", "-h", "0:0", copy.resolve(RichTree.SYMLINK_OWNED).toString());
        assertEquals(List.of(RichTree.SYMLINK_OWNED + ": owner: 1001 != 0", RichTree.SYMLINK_OWNED + ": group: 1002 != 0"),
                differences());
    }

    @Test
    void detectsAMtimeOneNanosecondOff() {
        Commands.run("touch", "-h", "-m", "-d", "2001-02-03 04:05:06.123456788", copy.resolve(RichTree.SMALL_FILE).toString());
        assertOnly(RichTree.SMALL_FILE + ": mtime: 2001-02-03T04:05:06.123456789Z != 2001-02-03T04:05:06.123456788Z");
    }

    @Test
    void detectsADirectoryMtimeAndComparesTheRoot() {
        Commands.run("touch", "-m", "-d", "2001-02-03 04:05:06.123456789", copy.toString());
        List<String> found = differences();
        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).startsWith(".: mtime: "), found::toString);
    }

    @Test
    void detectsAnAtimeOnlyWhenAsked() {
        Commands.run("touch", "-a", "-d", "2011-01-01 00:00:00.5", copy.resolve(RichTree.EMPTY_FILE).toString());
        assertEquals(List.of(), differences());
        List<String> found = TreeComparator.differences(source.root(), copy, TreeComparator.Options.DEFAULT.withAtimes());
        assertTrue(found.stream().anyMatch(line -> line.startsWith(RichTree.EMPTY_FILE + ": atime: ")), found::toString);
    }

    @Test
    void detectsAChangedXattrValue() {
        Commands.run("setfattr", "-n", "user.plain", "-v", "plain valuf", copy.resolve(RichTree.XATTR_FILE).toString());
        assertOnly(RichTree.XATTR_FILE + ": xattr: user.plain=\"plain value\" != user.plain=\"plain valuf\"");
    }

    @Test
    void detectsAMissingXattrOfEachNamespace() {
        for (String name : List.of("user.empty", "trusted.secret", "security.test")) {
            Commands.run("setfattr", "-x", name, copy.resolve(RichTree.XATTR_FILE).toString());
        }
        assertEquals(List.of(RichTree.XATTR_FILE + ": xattr: security.test=\"security value\" != security.test absent",
                RichTree.XATTR_FILE + ": xattr: trusted.secret=0x73656372657400 != trusted.secret absent",
                RichTree.XATTR_FILE + ": xattr: user.empty=\"\" != user.empty absent"), differences());
    }

    @Test
    void detectsALostDefaultAcl() {
        Commands.run("setfacl", "-k", copy.resolve(RichTree.DEFAULT_ACL_DIR).toString());
        List<String> found = differences();
        assertTrue(found.stream().anyMatch(l -> l.startsWith(RichTree.DEFAULT_ACL_DIR + ": acl: system.posix_acl_default=0x")
                && l.endsWith(" != system.posix_acl_default absent")), found::toString);
    }

    @Test
    void detectsAChangedProjectId() {
        Commands.run("xfs_io", "-x", "-c", "chproj 100", copy.resolve(RichTree.PROJECT_99_FILE).toString());
        assertOnly(RichTree.PROJECT_99_FILE + ": project_id: 99 != 100");
    }

    @Test
    void detectsALostProjInherit() {
        Commands.run("xfs_io", "-x", "-c", "chattr -P", copy.resolve(RichTree.PROJECT_77_DIR).toString());
        assertOnly(RichTree.PROJECT_77_DIR + ": projinherit: set != unset");
    }

    @Test
    void detectsAChangedSymlinkTarget() throws IOException {
        Path link = copy.resolve(RichTree.SYMLINK_RELATIVE);
        Files.delete(link);
        Files.createSymbolicLink(link, Path.of("../empty"));
        restoreTimes(RichTree.SYMLINK_RELATIVE);
        restoreTimes("symlinks");
        assertOnly(RichTree.SYMLINK_RELATIVE + ": symlink_target: ../small.txt != ../empty");
    }

    @Test
    void detectsABrokenHardLink() {
        // A copy with all metadata, renamed over one name: same everything but the inode.
        String rel = RichTree.HARD_LINK_GROUP.get(2);
        Path path = copy.resolve(rel);
        Commands.run("cp", "-a", "--preserve=all", path.toString(), path + ".tmp");
        Commands.run("mv", path + ".tmp", path.toString());
        restoreTimes(PathBytes.display(PathBytes.parent(PathBytes.of(rel))));
        assertOnly(RichTree.HARD_LINK_GROUP.get(0) + ": hard_links: [links/one/hard-a, links/three/hard-c, links/two/hard-b]"
                + " != [links/one/hard-a, links/two/hard-b] [links/three/hard-c]");
    }

    @Test
    void detectsAnExtraHardLink() throws IOException {
        Path second = copy.resolve(RichTree.HARD_LINK_PAIR.get(1));
        Files.delete(second);
        Files.createLink(second, copy.resolve(RichTree.HARD_LINK_GROUP.get(0)));
        restoreTimes("links");
        List<String> found = differences();
        assertTrue(found.contains(RichTree.HARD_LINK_GROUP.get(0) + ": hard_links: [links/one/hard-a, links/three/hard-c, "
                + "links/two/hard-b] [links/pair-2] != [links/one/hard-a, links/pair-2, links/three/hard-c, links/two/hard-b]"), found::toString);
    }

    @Test
    void detectsAFilledHole() {
        // fallocate fills a hole with zeros: the content stays equal, only the allocation grows.
        Commands.run("xfs_io", "-c", "falloc 1m 8m", copy.resolve(RichTree.SPARSE_FILE).toString());
        restoreTimes(RichTree.SPARSE_FILE);
        List<String> found = differences();
        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).startsWith(RichTree.SPARSE_FILE + ": holes filled: b allocates "), found::toString);
    }

    @Test
    void detectsAChangedDeviceNumber() {
        Path device = copy.resolve(RichTree.CHAR_DEVICE);
        Commands.run("rm", device.toString());
        Commands.run("mknod", "-m", "0620", device.toString(), "c", "1", "5");
        restoreTimes(RichTree.CHAR_DEVICE);
        restoreTimes("special");
        assertOnly(RichTree.CHAR_DEVICE + ": device: 1:3 != 1:5");
    }

    @Test
    void detectsAMissingAndAnExtraEntry() throws IOException {
        Files.delete(copy.resolve(RichTree.EMPTY_FILE));
        Files.createFile(copy.resolve("extra"));
        restoreTimes(".");
        assertEquals(List.of("empty: only_in_source: file, 0 bytes", "extra: only_in_destination: file, 0 bytes"), differences());
    }

    @Test
    void detectsAChangedTypeAtAByteName() {
        try (Fd root = openRoot(copy)) {
            byte[] name = RichTree.nonUtf8File();
            try (Fd names = Posix.openBeneath(root, PathBytes.parent(name), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
                Posix.unlinkat(names, PathBytes.name(name), false);
                Posix.mkdirat(names, PathBytes.name(name), 0755);
            }
        }
        restoreTimes("names");
        assertOnly("names/f\\xffg: type: file != directory");
    }

    @Test
    void assertSameTreeListsEveryDifference() {
        Commands.run("chmod", "0600", copy.resolve(RichTree.SMALL_FILE).toString());
        Commands.run("chown", "1005", copy.resolve(RichTree.EMPTY_FILE).toString());
        AssertionError error = assertThrows(AssertionError.class, () -> TreeComparator.assertSameTree(source.root(), copy));
        assertTrue(error.getMessage().contains("2 difference(s)"), error.getMessage());
        assertTrue(error.getMessage().contains(RichTree.SMALL_FILE + ": mode: "), error.getMessage());
        assertTrue(error.getMessage().contains(RichTree.EMPTY_FILE + ": owner: "), error.getMessage());
    }

    // ---- helpers -------------------------------------------------------------------------------

    private List<String> differences() {
        return TreeComparator.differences(source.root(), copy);
    }

    private void assertOnly(String expected) {
        assertEquals(List.of(expected), differences());
    }

    /** Times back from the source, after a change that moved them (touch -r keeps nanoseconds). */
    private void restoreTimes(String rel) {
        Commands.run("touch", "-h", "-r", source.resolve(rel).toString(), copy.resolve(rel).toString());
    }

    private static Stat stat(String rel) {
        try (Fd root = openRoot(source.root())) {
            return Posix.statAt(root, PathBytes.of(rel));
        }
    }

    private static Fd openRoot(Path root) {
        return Posix.open(PathBytes.of(root.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY);
    }

    private static FsXattr fsx(Path root, String rel) {
        try (Fd rootFd = openRoot(root);
             Fd fd = Posix.openBeneath(rootFd, PathBytes.of(rel.equals(".") ? "" : rel), Linux.O_RDONLY)) {
            return Posix.getFsXattr(fd);
        }
    }

    /** cp -a keeps everything but the project ID and PROJINHERIT; carry those over, files and dirs. */
    private static void copyProjectIds(Path from, Path to) {
        try (Fd src = openRoot(from); Fd dst = openRoot(to)) {
            copyProjectIds(src, dst, new NativeBuffer(64 << 10));
        }
    }

    private static void copyProjectIds(Fd src, Fd dst, NativeBuffer buf) {
        copyProjectId(src, dst);
        for (Posix.DirEntry entry : Posix.readDirectory(src, buf)) {
            FileType type = Posix.statAt(src, entry.name()).type();
            if (type != FileType.FILE && type != FileType.DIRECTORY) continue;
            int flags = Linux.O_RDONLY | Linux.O_NOFOLLOW | (type == FileType.DIRECTORY ? Linux.O_DIRECTORY : 0);
            try (Fd s = Posix.openat(src, entry.name(), flags, 0); Fd d = Posix.openat(dst, entry.name(), flags, 0)) {
                if (type == FileType.DIRECTORY) copyProjectIds(s, d, buf);
                else copyProjectId(s, d);
            }
        }
    }

    private static void copyProjectId(Fd src, Fd dst) {
        FsXattr want = Posix.getFsXattr(src);
        FsXattr have = Posix.getFsXattr(dst);
        if (have.projid() != want.projid() || have.projInherit() != want.projInherit()) {
            Posix.setFsXattr(dst, have.withProject(want.projid(), want.projInherit()));
        }
    }
}
