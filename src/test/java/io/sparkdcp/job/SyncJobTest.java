package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** sync without Spark on XFS: new and changed data copied, metadata-only differences fixed in place, extras deleted. */
class SyncJobTest {
    @RegisterExtension
    static final MountedSource source = MountedSource.richTree("syncjob");

    /** A fresh destination already synced once, so each test starts from an exact copy. */
    private static Path syncedDestination() throws IOException {
        Path dst = Files.createDirectory(source.newDestinationPath());
        CopyReport first = LocalCopy.syncDefaults().sync(source.tree().root(), dst, false);
        assertEquals(List.of(), first.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        return dst;
    }

    private static long inode(Path p) {
        return Posix.lstat(PathBytes.of(p.toString())).ino();
    }

    @Test
    void firstSyncCopiesEverythingAndASecondChangesNothing() throws IOException {
        Path dst = syncedDestination();
        CopyReport again = LocalCopy.syncDefaults().sync(source.tree().root(), dst, true);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().copied(), "nothing to copy");
        assertEquals(0, again.counts().metadataFixed());
        assertEquals(0, again.counts().deleted());
        assertEquals(0, again.counts().bytesCopied());
        assertEquals(source.tree().entryCount() + 1, again.counts().skipped());
    }

    @Test
    void metadataOnlyDifferencesAreFixedWithoutCopyingData() throws IOException {
        Path dst = syncedDestination();
        Path big = dst.resolve(RichTree.BIG_FILE);
        Path xattrFile = dst.resolve(RichTree.XATTR_FILE);
        Path projectFile = dst.resolve(RichTree.PROJECT_77_FILE);
        long bigInode = inode(big);
        long xattrInode = inode(xattrFile);
        long projectInode = inode(projectFile);
        Commands.run("chmod", "600", big.toString());
        Commands.run("chown", "1234:1234", xattrFile.toString());
        Commands.run("setfattr", "-n", "user.extra", "-v", "not in the source", xattrFile.toString());
        Commands.run("xfs_io", "-c", "chproj 5", projectFile.toString());
        Commands.run("chmod", "700", dst.resolve("deep").toString());
        Commands.run("xfs_io", "-c", "chproj 6", dst.resolve(RichTree.NO_INHERIT_DIR).toString());
        Commands.run("touch", "-h", "-d", "2020-01-01", dst.resolve(RichTree.SYMLINK_RELATIVE).toString());

        CopyReport report = LocalCopy.syncDefaults().sync(source.tree().root(), dst, false);

        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(0, report.counts().bytesCopied(), "no data rewritten");
        assertEquals(0, report.counts().copied());
        assertEquals(3, report.counts().metadataFixed(FileType.FILE));
        assertEquals(2, report.counts().metadataFixed(FileType.DIRECTORY), "mode of deep, project of no-inherit");
        assertEquals(1, report.counts().metadataFixed(FileType.SYMLINK));
        assertEquals(bigInode, inode(big));
        assertEquals(xattrInode, inode(xattrFile));
        assertEquals(projectInode, inode(projectFile));
        try (Fd f = Posix.open(PathBytes.of(projectFile.toString()), Linux.O_RDONLY)) {
            assertEquals(77, Posix.getFsXattr(f).projid());
        }
    }

    @Test
    void changedSizeOrMtimeRecopiesTheData() throws IOException {
        Path dst = syncedDestination();
        Path small = dst.resolve(RichTree.SMALL_FILE);
        Files.writeString(small, "other data of another size");
        Path big = dst.resolve(RichTree.BIG_FILE);
        Commands.run("touch", "-d", "2019-05-05", big.toString());

        CopyReport report = LocalCopy.syncDefaults().sync(source.tree().root(), dst, false);

        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(2, report.counts().copied(FileType.FILE));
        assertEquals(Files.size(source.tree().resolve(RichTree.SMALL_FILE)) + RichTree.BIG_FILE_SIZE, report.counts().bytesCopied());
    }

    @Test
    void sameSizeAndMtimeHidesChangedBytesUnlessContentsAreCompared() throws IOException {
        Path dst = syncedDestination();
        Path small = dst.resolve(RichTree.SMALL_FILE);
        String original = Files.readString(small);
        Files.writeString(small, original.toUpperCase());
        Commands.run("touch", "-d", RichTree.TOUCHED_TIME, small.toString());

        CopyReport trusting = LocalCopy.syncDefaults().sync(source.tree().root(), dst, false);
        assertEquals(0, trusting.counts().copied(), "size and mtime agree");
        assertEquals(original.toUpperCase(), Files.readString(small));

        CopyReport comparing = LocalCopy.syncDefaults().withModes(CopyModes.of(CopyModes.Mode.SYNC, CopyModes.Mode.CONTENTS))
                .sync(source.tree().root(), dst, false);
        assertEquals(List.of(), comparing.counts().failures());
        assertEquals(1, comparing.counts().copied(FileType.FILE));
        assertEquals(original, Files.readString(small));
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    @Test
    void contentsEqualButMtimeDifferentOnlyFixesTheTimes() throws IOException {
        Path dst = syncedDestination();
        Path small = dst.resolve(RichTree.SMALL_FILE);
        long ino = inode(small);
        Commands.run("touch", "-d", "2022-02-02", small.toString());

        CopyReport report = LocalCopy.syncDefaults().withModes(CopyModes.of(CopyModes.Mode.SYNC, CopyModes.Mode.CONTENTS))
                .sync(source.tree().root(), dst, false);

        assertEquals(List.of(), report.counts().failures());
        assertEquals(1, report.counts().metadataFixed(FileType.FILE));
        assertEquals(0, report.counts().bytesCopied());
        assertEquals(ino, inode(small));
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    @Test
    void deleteRemovesWhatTheSourceLacksDeepestFirst() throws IOException {
        Path dst = syncedDestination();
        Files.createDirectories(dst.resolve("extra/nested/deeper"));
        Files.writeString(dst.resolve("extra/nested/deeper/file"), "x");
        Files.writeString(dst.resolve("data/stray.txt"), "stray");
        Files.createSymbolicLink(dst.resolve("stray-link"), Path.of("/etc"));
        Commands.run("chmod", "0", dst.resolve("extra/nested").toString());
        // A directory where the source has a file: only deletion lets the copy put the file there.
        Files.delete(dst.resolve(RichTree.SMALL_FILE));
        Files.createDirectories(dst.resolve(RichTree.SMALL_FILE).resolve("inside"));

        CopyReport report = LocalCopy.syncDefaults().sync(source.tree().root(), dst, true);

        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(5, report.counts().deleted(FileType.DIRECTORY)); // extra, nested, deeper, small.txt, inside
        assertEquals(2, report.counts().deleted(FileType.FILE));
        assertEquals(1, report.counts().deleted(FileType.SYMLINK));
        assertEquals(1, report.counts().copied(FileType.FILE));
        assertTrue(Files.isDirectory(Path.of("/etc")), "a symlink is removed, never followed");
    }

    @Test
    void withoutDeleteExtrasStay() throws IOException {
        Path dst = syncedDestination();
        Files.writeString(dst.resolve("mine.txt"), "keep me");
        CopyReport report = LocalCopy.syncDefaults().sync(source.tree().root(), dst, false);
        assertEquals(0, report.counts().deleted());
        assertEquals("keep me", Files.readString(dst.resolve("mine.txt")));
        assertFalse(report.counts().failed() > 0);
    }
}
