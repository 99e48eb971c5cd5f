package io.sparkdcp.posix;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.sparkdcp.posix.Linux.*;
import static org.junit.jupiter.api.Assertions.*;

/** Real libc on a real XFS, checked against what xfs_io, getfattr, stat and bash report. */
class PosixTest {
    private static LoopMount mount;
    private Path dir;
    private Fd dirFd;

    @BeforeAll
    static void mountXfs() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("posix-test", 512);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @BeforeEach
    void freshDirectory() throws IOException {
        dir = Files.createTempDirectory(mount.dir(), "t");
        dirFd = Posix.open(PathBytes.of(dir.toString()), O_RDONLY | O_DIRECTORY);
    }

    @AfterEach
    void closeDirectory() {
        dirFd.close();
    }

    // ---- roots ---------------------------------------------------------------------------------

    @Test
    void openNoSymlinksRefusesASymlinkInAnyComponentOfAnAbsolutePath() throws IOException {
        Path real = Files.createDirectories(dir.resolve("real/leaf"));
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("real"));
        try (Fd fd = Posix.openNoSymlinks(PathBytes.of(real.toString()), O_RDONLY | O_DIRECTORY)) {
            assertEquals(Files.getAttribute(real, "unix:ino"), Posix.identity(fd).ino());
        }
        PosixException parent = assertThrows(PosixException.class,
                () -> Posix.openNoSymlinks(PathBytes.of(dir.resolve("link/leaf").toString()), O_RDONLY | O_DIRECTORY));
        assertEquals(Errno.ELOOP, parent.errno());
        assertThrows(PosixException.class, () -> Posix.openNoSymlinks(PathBytes.of(dir.resolve("link").toString()), O_RDONLY | O_DIRECTORY));
    }

    @Test
    void identityTellsABindMountFromItsSourceByMountId() throws IOException {
        Path view = Files.createDirectory(dir.resolve("view"));
        Commands.run("mount", "--bind", dir.toString(), view.toString());
        try (Fd bound = Posix.openNoSymlinks(PathBytes.of(view.toString()), O_RDONLY | O_DIRECTORY)) {
            DirectoryIdentity original = Posix.identity(dirFd);
            DirectoryIdentity seen = Posix.identity(bound);
            assertTrue(original.sameInode(seen), "the same directory");
            assertNotEquals(original.mountId(), seen.mountId(), "on another mount");
            assertFalse(original.sameAs(seen));
        } finally {
            Commands.run("umount", view.toString());
        }
    }

    @Test
    void tryLockExclusiveIsRefusedToASecondOpenOfTheSameDirectory() {
        try (Fd first = Posix.open(PathBytes.of(dir.toString()), O_RDONLY | O_DIRECTORY);
             Fd second = Posix.open(PathBytes.of(dir.toString()), O_RDONLY | O_DIRECTORY)) {
            assertTrue(Posix.tryLockExclusive(first));
            assertFalse(Posix.tryLockExclusive(second));
            first.close();
            assertTrue(Posix.tryLockExclusive(second), "free once the holder's descriptor is closed");
        }
    }

    // ---- project IDs ---------------------------------------------------------------------------

    @Test
    void getFsXattrReadsTheProjectIdXfsIoSet() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        Commands.run("xfs_io", "-x", "-c", "chproj 4242", file.toString());
        try (Fd fd = Posix.openat(dirFd, PathBytes.of("f"), O_RDONLY | O_NOFOLLOW, 0)) {
            assertEquals(4242, Posix.getFsXattr(fd).projid());
        }
    }

    @Test
    void setFsXattrWritesTheProjectIdXfsIoReports() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        try (Fd fd = Posix.openat(dirFd, PathBytes.of("f"), O_RDONLY | O_NOFOLLOW, 0)) {
            Posix.setFsXattr(fd, Posix.getFsXattr(fd).withProject(99, false));
            assertEquals(99, Posix.getFsXattr(fd).projid());
        }
        assertEquals(99, lsproj(file));
    }

    @Test
    void projInheritFollowsChattrAndSetFsXattr() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Commands.run("xfs_io", "-x", "-c", "chattr +P", "-c", "chproj 77", sub.toString());
        try (Fd fd = Posix.openat(dirFd, PathBytes.of("sub"), O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0)) {
            FsXattr before = Posix.getFsXattr(fd);
            assertTrue(before.projInherit());
            assertEquals(77, before.projid());

            Posix.setFsXattr(fd, before.withProject(77, false));
            assertFalse(xfsIoFlags(sub).contains("P"), "xfs_io still shows PROJINHERIT");
            Posix.setFsXattr(fd, before.withProject(78, true));
            assertTrue(xfsIoFlags(sub).contains("P"), "xfs_io does not show PROJINHERIT");
        }
        // The kernel's own use of the bit: a new child takes the directory's project ID.
        assertEquals(78, lsproj(Files.createFile(sub.resolve("child"))));
    }

    // ---- xattrs --------------------------------------------------------------------------------

    @Test
    void flistxattrAndFgetxattrMatchGetfattr() throws IOException {
        Path file = Files.createFile(dir.resolve("f"));
        String f = file.toString();
        Commands.run("setfattr", "-n", "user.text", "-v", "some text", f);
        Commands.run("setfattr", "-n", "user.binary", "-v", "0x00ff0a7f80", f);
        Commands.run("setfattr", "-n", "user.empty", f);
        Commands.run("setfattr", "-n", "trusted.t", "-v", "0x0102", f);
        Commands.run("setfattr", "-n", "security.s", "-v", "sec", f);
        Commands.run("setfacl", "-m", "u:1001:rw", f);

        Map<String, String> posix = new TreeMap<>();
        NativeBuffer buf = new NativeBuffer(16); // small on purpose: forces the ERANGE retry path
        try (Fd fd = Posix.openat(dirFd, PathBytes.of("f"), O_RDONLY | O_NOFOLLOW, 0)) {
            for (byte[] name : Posix.flistxattr(fd, buf)) {
                posix.put(new String(name, StandardCharsets.UTF_8), "0x" + HexFormat.of().formatHex(Posix.fgetxattr(fd, name, buf)));
            }
        }
        assertEquals(getfattrHex(f), posix);
        assertTrue(posix.keySet().containsAll(List.of("user.empty", "trusted.t", "security.s", "system.posix_acl_access")), posix::toString);
    }

    @Test
    void fgetxattrOfAMissingNameIsNull() throws IOException {
        Files.createFile(dir.resolve("f"));
        try (Fd fd = Posix.openat(dirFd, PathBytes.of("f"), O_RDONLY, 0)) {
            assertNull(Posix.fgetxattr(fd, PathBytes.of("user.absent"), new NativeBuffer(64)));
        }
    }

    // ---- stat ----------------------------------------------------------------------------------

    @Test
    void statAtReadsWhatStatReports() throws IOException {
        Path file = dir.resolve("f");
        Files.write(file, new byte[5000]);
        Commands.run("chown", "1001:1002", file.toString());
        Commands.run("chmod", "04751", file.toString());
        Commands.run("touch", "-d", "2001-02-03 04:05:06.123456789", file.toString());
        Commands.run("mknod", "-m", "0620", dir.resolve("null").toString(), "c", "1", "3");

        Stat stat = Posix.statAt(dirFd, PathBytes.of("f"));
        String[] tool = Commands.run("stat", "-c", "%a %u %g %s %b %h %i %.9Y %.9X", file.toString()).strip().split(" ");
        assertEquals(FileType.FILE, stat.type());
        assertEquals(List.of(tool), List.of(Integer.toOctalString(stat.permissions()), "" + stat.uid(), "" + stat.gid(),
                "" + stat.size(), "" + stat.blocks(), "" + stat.nlink(), "" + stat.ino(),
                stat.mtimeSec() + "." + String.format("%09d", stat.mtimeNsec()),
                stat.atimeSec() + "." + String.format("%09d", stat.atimeNsec())));
        assertEquals(981173106L, stat.mtimeSec());
        assertEquals(123456789, stat.mtimeNsec());

        Stat device = Posix.statAt(dirFd, PathBytes.of("null"));
        assertEquals(FileType.CHAR_DEVICE, device.type());
        assertEquals(makedev(1, 3), device.rdev());
    }

    // ---- directories and names -----------------------------------------------------------------

    @Test
    void readDirectoryReturnsANonUtf8NameIntact() {
        // bash's $'...' writes the raw byte; no Java String is involved in making the name.
        Commands.bash("touch " + dir + "/$'f\\xffg'");
        byte[] expected = {'f', (byte) 0xff, 'g'};

        List<Posix.DirEntry> entries = Posix.readDirectory(dirFd, new NativeBuffer(4096));

        assertEquals(1, entries.size());
        assertArrayEquals(expected, entries.get(0).name());
        assertEquals(FileType.FILE, Posix.statAt(dirFd, entries.get(0).name()).type());
        assertEquals("f\\xffg", PathBytes.display(entries.get(0).name()));
    }

    @Test
    void readDirectoryListsManyEntriesAcrossSeveralCalls() throws IOException {
        for (int i = 0; i < 300; i++) Files.createFile(dir.resolve("entry-with-a-longish-name-" + i));
        assertEquals(300, Posix.readDirectory(dirFd, new NativeBuffer(1024)).size());
    }

    @Test
    void openBeneathOpensAPathOfRealDirectories() throws IOException {
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/b/file"), "x");
        try (Fd fd = Posix.openBeneath(dirFd, PathBytes.of("a/b/file"), O_RDONLY)) {
            assertEquals(1, Posix.fstat(fd).size());
        }
    }

    @Test
    void openBeneathRefusesASymlinkComponent() throws IOException {
        symlinkedDirectory();
        PosixException e = assertThrows(PosixException.class,
                () -> Posix.openBeneath(dirFd, PathBytes.of("link/file"), O_RDONLY));
        assertTrue(e.errno() == Errno.ELOOP || e.errno() == Errno.EXDEV, e.getMessage());
    }

    @Test
    void openBeneathRefusesASymlinkAsTheLastComponent() throws IOException {
        symlinkedDirectory();
        PosixException e = assertThrows(PosixException.class,
                () -> Posix.openBeneath(dirFd, PathBytes.of("link"), O_RDONLY));
        assertTrue(e.errno() == Errno.ELOOP || e.errno() == Errno.EXDEV, e.getMessage());
    }

    @Test
    void openBeneathRefusesDotDotEscapeAndAbsolutePaths() throws IOException {
        Files.createDirectory(dir.resolve("inner"));
        Files.createFile(dir.resolve("outside"));
        try (Fd inner = Posix.openat(dirFd, PathBytes.of("inner"), O_RDONLY | O_DIRECTORY, 0)) {
            assertEquals(Errno.EXDEV, assertThrows(PosixException.class,
                    () -> Posix.openBeneath(inner, PathBytes.of("../outside"), O_RDONLY)).errno());
            assertEquals(Errno.EXDEV, assertThrows(PosixException.class,
                    () -> Posix.openBeneath(inner, PathBytes.of(dir.resolve("outside").toString()), O_RDONLY)).errno());
        }
    }

    /** The pre-5.6 path (one openat per component) must refuse the same things. */
    @Test
    void openByComponentsRefusesSymlinksAndEscapes() throws IOException {
        symlinkedDirectory();
        Files.createDirectory(dir.resolve("inner"));
        try (Fd inner = Posix.openat(dirFd, PathBytes.of("inner"), O_RDONLY | O_DIRECTORY, 0)) {
            int symlinkErrno = assertThrows(PosixException.class,
                    () -> Posix.openByComponents(dirFd, PathBytes.of("link/file"), O_RDONLY)).errno();
            assertTrue(symlinkErrno == Errno.ELOOP || symlinkErrno == Errno.ENOTDIR, Errno.name(symlinkErrno));
            assertEquals(Errno.EXDEV, assertThrows(PosixException.class,
                    () -> Posix.openByComponents(inner, PathBytes.of("../real/file"), O_RDONLY)).errno());
            assertEquals(Errno.EXDEV, assertThrows(PosixException.class,
                    () -> Posix.openByComponents(inner, PathBytes.of("/etc/hostname"), O_RDONLY)).errno());
        }
        try (Fd fd = Posix.openByComponents(dirFd, PathBytes.of("real/file"), O_RDONLY)) {
            assertEquals(FileType.FILE, Posix.fstat(fd).type());
        }
    }

    // ---- descriptors and errors ----------------------------------------------------------------

    @Test
    void aSecondCloseIsHarmless() throws IOException {
        Files.createFile(dir.resolve("f"));
        Fd fd = Posix.openat(dirFd, PathBytes.of("f"), O_RDONLY, 0);
        fd.close();
        assertDoesNotThrow(fd::close);
        assertThrows(IllegalStateException.class, fd::fd);
    }

    @Test
    void aFailingCallNamesTheCallTheErrnoAndThePath() {
        byte[] missing = {'n', 'o', (byte) 0xff, 'p', 'e'};
        PosixException e = assertThrows(PosixException.class, () -> Posix.openat(dirFd, missing, O_RDONLY, 0));
        assertEquals("openat", e.call());
        assertEquals(Errno.ENOENT, e.errno());
        assertEquals("ENOENT", e.errnoName());
        assertArrayEquals(missing, e.path());
        assertTrue(e.getMessage().contains("openat") && e.getMessage().contains("ENOENT")
                && e.getMessage().contains("no\\xffpe"), e.getMessage());
        assertFalse(e.reason().isBlank());
    }

    @Test
    void aRefusedIoctlNamesTheIoctl() throws IOException {
        Files.createFile(dir.resolve("f"));
        try (Fd fd = Posix.openat(dirFd, PathBytes.of("f"), O_RDONLY, 0)) {
            // project IDs are 32-bit but XFS keeps -1 (the "no ID" marker) for itself.
            PosixException e = assertThrows(PosixException.class,
                    () -> Posix.setFsXattr(fd, Posix.getFsXattr(fd).withProject(-1, false)));
            assertTrue(e.call().startsWith("ioctl(FS_IOC_FSSETXATTR"), e.call());
            assertEquals(Errno.EINVAL, e.errno());
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** real/file and link -> real. */
    private void symlinkedDirectory() throws IOException {
        Files.createDirectory(dir.resolve("real"));
        Files.createFile(dir.resolve("real/file"));
        Files.createSymbolicLink(dir.resolve("link"), Path.of("real"));
    }

    private static int lsproj(Path path) {
        String out = Commands.run("xfs_io", "-c", "lsproj", path.toString()).strip();
        assertTrue(out.startsWith("projid = "), out);
        return Integer.parseInt(out.substring("projid = ".length()));
    }

    /** The flag letters of xfs_io lsattr, e.g. "--------P-------X". */
    private static String xfsIoFlags(Path path) {
        return Commands.run("xfs_io", "-c", "lsattr", path.toString()).strip().split(" ")[0];
    }

    /** getfattr -d -e hex: name to "0x..." (an empty value prints as "0x" or with no '=' at all). */
    private static Map<String, String> getfattrHex(String path) {
        Map<String, String> values = new TreeMap<>();
        for (String line : Commands.run("getfattr", "--absolute-names", "-d", "-m", "-", "-e", "hex", path).split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            int eq = line.indexOf('=');
            if (eq < 0) values.put(line, "0x");
            else values.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return values;
    }
}
