package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inode flags on XFS, compared as {@code lsattr} and {@code xfs_io lsattr/extsize/cowextsize} show
 * them: every kept flag and both hints survive a copy, a re-run and a sync, on files and directories,
 * immutable and append-only ones included, also where the destination is locked and must change.
 */
class InodeFlagsTest {
    private static final LocalCopy COPY = LocalCopy.defaults();
    private static final LocalCopy SYNC = LocalCopy.syncDefaults();

    private static LoopMount mount;
    private static LoopMount ext4;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("flags", LoopMount.MIN_SIZE_MIB);
        ext4 = LoopMount.createExt4("flags-ext4", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
        if (ext4 != null) ext4.close();
    }

    /** A tree with each kept flag on a file of its own, hints, and locked files and directories. */
    private static Path flaggedTree(String name) throws IOException {
        Path src = Files.createDirectory(mount.dir().resolve(name));
        String[][] files = {{"sync", "+s"}, {"noatime", "+A"}, {"nodump", "+d"}, {"nodefrag", "+f"}, {"dax", "+x"},
                {"several", "+sAdf"}, {"immutable", "+i"}, {"append", "+a"}, {"both", "+ia"}, {"plain", ""}};
        for (String[] f : files) {
            Path p = src.resolve(f[0]);
            Files.writeString(p, "data of " + f[0]);
            if (!f[1].isEmpty()) xfsIo(p, "chattr " + f[1]);
        }
        Path hinted = src.resolve("hinted");
        Files.createFile(hinted);
        xfsIo(hinted, "extsize 1m", "cowextsize 2m");
        Files.writeString(hinted, "written after the hint");
        Path hintedDir = Files.createDirectory(src.resolve("hinted-dir"));
        xfsIo(hintedDir, "chattr +E", "extsize 4m", "chattr +d");
        Files.writeString(hintedDir.resolve("child"), "inherits extsize and nodump");
        Path lockedDir = Files.createDirectory(src.resolve("locked-dir"));
        Files.writeString(lockedDir.resolve("inside"), "in a locked directory");
        Files.createDirectory(lockedDir.resolve("sub"));
        xfsIo(lockedDir, "chattr +i");
        Path appendDir = Files.createDirectory(src.resolve("append-dir"));
        Files.writeString(appendDir.resolve("kept"), "in an append-only directory");
        xfsIo(appendDir, "chattr +a");
        Path locked = src.resolve("hard-immutable");
        Files.writeString(locked, "two names, one immutable inode");
        Files.createLink(src.resolve("hard-immutable-2"), locked);
        xfsIo(locked, "chattr +i");
        return src;
    }

    @Test
    void everyKeptFlagSurvivesACopyAndARerun() throws IOException {
        Path src = flaggedTree("copy-src");
        Path dst = Files.createDirectory(mount.dir().resolve("copy-dst"));
        CopyReport first = COPY.run(src, dst);
        assertEquals(List.of(), first.counts().failures());
        assertEquals(flags(src), flags(dst));
        assertTrue(flags(dst).stream().anyMatch(l -> l.contains("immutable") && l.contains("locked-dir")), flags(dst).toString());

        CopyReport again = COPY.run(src, dst);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().copied(), "a re-run copies nothing");
        assertEquals(flags(src), flags(dst));
    }

    @Test
    void aRerunReplacesImmutableAndAppendOnlyFilesWhoseSourceChanged() throws IOException {
        Path src = flaggedTree("rerun-src");
        Path dst = Files.createDirectory(mount.dir().resolve("rerun-dst"));
        assertEquals(List.of(), COPY.run(src, dst).counts().failures());
        for (String name : List.of("immutable", "append", "both")) changeLocked(src.resolve(name), "new data of " + name);
        changeLocked(src.resolve("locked-dir"), () -> Files.writeString(src.resolve("locked-dir/new"), "a new entry"));

        CopyReport report = COPY.run(src, dst);
        assertEquals(List.of(), report.counts().failures());
        assertEquals("new data of immutable", Files.readString(dst.resolve("immutable")));
        assertEquals("new data of both", Files.readString(dst.resolve("both")));
        assertEquals("a new entry", Files.readString(dst.resolve("locked-dir/new")));
        assertEquals(flags(src), flags(dst));
    }

    @Test
    void atomicWritesRenameBeforeLockingAndReplaceLockedFiles() throws IOException {
        LocalCopy atomic = COPY.withModes(CopyModes.of(CopyModes.Mode.ATOMIC));
        Path src = flaggedTree("atomic-src");
        Path dst = Files.createDirectory(mount.dir().resolve("atomic-dst"));
        assertEquals(List.of(), atomic.run(src, dst).counts().failures());
        assertEquals(flags(src), flags(dst));
        changeLocked(src.resolve("both"), "rewritten");
        changeLocked(src.resolve("locked-dir"), () -> Files.writeString(src.resolve("locked-dir/inside"), "rewritten inside"));
        assertEquals(List.of(), atomic.run(src, dst).counts().failures());
        assertEquals("rewritten inside", Files.readString(dst.resolve("locked-dir/inside")));
        assertEquals(flags(src), flags(dst));
    }

    @Test
    void syncChangesFlagsAndLockedEntriesAndLocksThemAgain() throws IOException {
        Path src = flaggedTree("sync-src");
        Path dst = Files.createDirectory(mount.dir().resolve("sync-dst"));
        assertEquals(List.of(), SYNC.sync(src, dst, true).counts().failures());
        xfsIo(src.resolve("plain"), "chattr +d");                     // a flag added
        xfsIo(src.resolve("nodump"), "chattr -d");                    // one removed
        changeLocked(src.resolve("immutable"), () -> Files.setLastModifiedTime(src.resolve("immutable"),
                java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L))); // metadata of a locked file
        xfsIo(src.resolve("sync"), "chattr +i");                      // a lock added
        changeLocked(src.resolve("locked-dir"), () -> Files.delete(src.resolve("locked-dir/inside"))); // --delete in a locked directory
        changeLocked(src.resolve("append-dir"), () -> Files.delete(src.resolve("append-dir/kept")));
        xfsIo(src.resolve("hinted-dir"), "chattr -d");

        CopyReport report = SYNC.sync(src, dst, true);
        assertEquals(List.of(), report.counts().failures());
        assertEquals(flags(src), flags(dst));
        assertTrue(Files.notExists(dst.resolve("locked-dir/inside")));
        assertTrue(report.counts().metadataFixed() >= 6, "fixed: " + report.counts().metadataFixed());

        CopyReport again = SYNC.sync(src, dst, true);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().metadataFixed() + again.counts().copied() + again.counts().deleted(),
                "a second sync finds nothing to do");
    }

    @Test
    void aFileCopiedInChunksGetsItsHintBeforeItsFirstExtentAndItsLocksAfterTheLastChunk() throws IOException {
        Path src = Files.createDirectory(mount.dir().resolve("chunked-src"));
        Path big = Files.createFile(src.resolve("big"));
        xfsIo(big, "extsize 1m");
        Files.write(big, new byte[256 << 10]);
        xfsIo(big, "chattr +id");
        Path dst = Files.createDirectory(mount.dir().resolve("chunked-dst"));
        CopyReport report = COPY.withChunkSize(64 << 10).run(src, dst);
        assertEquals(List.of(), report.counts().failures());
        assertEquals(List.of(), report.counts().notices());
        assertEquals(flags(src), flags(dst));
    }

    @Test
    void noFlagsCopiesNone() throws IOException {
        Path src = flaggedTree("none-src");
        Path dst = Files.createDirectory(mount.dir().resolve("none-dst"));
        CopyReport report = COPY.withoutFlags().run(src, dst);
        assertEquals(List.of(), report.counts().failures());
        for (String line : flags(dst)) {
            if (line.startsWith("lsattr")) assertTrue(line.matches("lsattr -+ .*"), line);
            else if (line.equals("xfs_io [cowextsize] hinted") || line.equals("xfs_io [2097152] hinted")) continue; // XFS's reflink passes the CoW hint on
            else if (!line.contains("[0]")) assertTrue(line.matches("xfs_io \\[] .*"), line);
        }
    }

    /** A lock the source dropped stays at DST: it is cleared only to give an entry its source's own locks. */
    @Test
    void aLockTheSourceDroppedIsProtectedAtTheDestination() throws IOException {
        Path src = flaggedTree("dropped-src");
        Path dst = Files.createDirectory(mount.dir().resolve("dropped-dst"));
        assertEquals(List.of(), SYNC.sync(src, dst, true).counts().failures());
        xfsIo(src.resolve("append"), "chattr -a");

        CopyReport report = SYNC.sync(src, dst, true);
        assertEquals(List.of("append: change EPERM: protected at DST (append-only)"),
                report.counts().failures().stream().map(Failure::toString).toList());
        String lsattr = Commands.run("lsattr", "-d", dst.resolve("append").toString()).trim().split("\\s+")[0];
        assertTrue(lsattr.contains("a"), lsattr);
    }

    @Test
    void aDestinationThatCannotHoldAFlagGetsOneNoticePerKindOrFailuresWithStrict() throws IOException {
        Path src = Files.createDirectory(mount.dir().resolve("to-ext4"));
        for (int i = 0; i < 5; i++) {
            Path p = src.resolve("nodefrag-" + i);
            Files.writeString(p, "ext4 has no nodefrag");
            xfsIo(p, "chattr +fd"); // nodump it has
        }
        Path dst = Files.createDirectory(ext4.dir().resolve("lenient"));
        CopyReport report = COPY.withoutProjectIds().run(src, dst);
        assertEquals(List.of(), report.counts().failures());
        List<Failure> notices = report.counts().notices().stream().filter(n -> n.op().equals("keep flag")).toList();
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).message().contains("nodefrag"), notices.toString());
        assertEquals(5, Commands.run("lsattr", "-R", dst.toString()).lines()
                        .filter(l -> l.contains("nodefrag-") && l.split("\\s+")[0].contains("d")).count(),
                "the flags ext4 holds are kept");

        Path strictDst = Files.createDirectory(ext4.dir().resolve("strict"));
        CopyReport strict = COPY.withoutProjectIds().strict().run(src, strictDst);
        assertEquals(5, strict.counts().failed(), strict.counts().failures().toString());
        assertTrue(strict.counts().failures().get(0).message().contains("nodefrag"), strict.counts().failures().toString());
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Every entry's flags as lsattr and xfs_io show them, paths relative to root (has-xattr left out). */
    static List<String> flags(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        List<Path> entries;
        try (Stream<Path> all = Files.walk(root)) {
            entries = all.filter(p -> !p.equals(root)).sorted().toList();
        }
        for (Path p : entries) {
            String rel = root.relativize(p).toString();
            out.add("lsattr " + Commands.run("lsattr", "-d", p.toString()).trim().split("\\s+")[0] + " " + rel);
            for (String line : Commands.run("xfs_io", "-r", "-c", "lsattr -v", "-c", "extsize", "-c", "cowextsize", p.toString()).lines().toList())
                out.add("xfs_io " + line.replace(", has-xattr", "").replace("has-xattr", "").replace(p.toString(), rel).trim());
        }
        return out;
    }

    static void xfsIo(Path p, String... commands) {
        List<String> argv = new ArrayList<>(List.of("xfs_io", "-r")); // read-only: an append-only file opens only so
        for (String c : commands) argv.addAll(List.of("-c", c));
        argv.add(p.toString());
        Commands.run(argv.toArray(String[]::new));
    }

    /** Unlocks a locked source entry, changes it, and locks it as it was. */
    private static void changeLocked(Path p, IoAction change) throws IOException {
        String before = Commands.run("lsattr", "-d", p.toString()).trim().split("\\s+")[0];
        String locks = (before.contains("i") ? "i" : "") + (before.contains("a") ? "a" : "");
        if (!locks.isEmpty()) Commands.run("chattr", "-" + locks, p.toString());
        change.run();
        if (!locks.isEmpty()) Commands.run("chattr", "+" + locks, p.toString());
    }

    private static void changeLocked(Path file, String data) throws IOException {
        changeLocked(file, () -> Files.writeString(file, data));
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }
}
