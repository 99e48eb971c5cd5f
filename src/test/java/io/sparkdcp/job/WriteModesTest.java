package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.FileType;
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
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** --atomic, --verify and --fsync on the rich tree: the same exact tree, and counts that say what really happened. */
class WriteModesTest {
    private static final CopyModes ATOMIC = CopyModes.of(CopyModes.Mode.ATOMIC);
    private static final CopyModes VERIFY_FSYNC = CopyModes.of(CopyModes.Mode.VERIFY, CopyModes.Mode.FSYNC);
    private static final String LEFTOVER = ".spark-dcp.small.txt.0123456789abcdef.tmp";

    @RegisterExtension
    static final MountedSource source = MountedSource.richTree("writemodes");

    private static Path newDestination() throws IOException {
        return Files.createDirectory(source.newDestinationPath());
    }

    private static List<Path> temporaries(Path dst) throws IOException {
        try (Stream<Path> s = Files.walk(dst)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".spark-dcp.")).toList();
        }
    }

    /** --atomic is what every copy does: each new file (and each further name of a hard link) is linked into place once. */
    @Test
    void atomicCopyGivesTheExactTreeWithNoTemporaryLeft() throws IOException {
        for (CopyModes modes : List.of(ATOMIC, CopyModes.COPY)) {
            Path dst = newDestination();
            CopyReport report = LocalCopy.defaults().withModes(modes).run(source.tree().root(), dst);
            assertEquals(List.of(), report.counts().failures());
            TreeComparator.assertSameTree(source.tree().root(), dst);
            assertEquals(List.of(), temporaries(dst));
            long[] renames = report.steps().asMap().getOrDefault(Step.RENAME.label(), new long[1]);
            assertEquals(report.counts().copied(FileType.FILE) + report.counts().links(),
                    report.steps().asMap().get(Step.LINK.label())[0] + renames[0], "every file linked (or, in chunks, renamed) into place once");
        }
    }

    @Test
    void leftoverTemporariesOfAKilledRunAreRemovedByTheNextRun() throws IOException {
        leftoverTemporariesAreRemovedBy(ATOMIC);
    }

    @Test
    void leftoverTemporariesOfAKilledAtomicRunAreRemovedByAPlainRunToo() throws IOException {
        leftoverTemporariesAreRemovedBy(CopyModes.COPY);
    }

    private static void leftoverTemporariesAreRemovedBy(CopyModes modes) throws IOException {
        Path dst = newDestination();
        LocalCopy.defaults().withModes(ATOMIC).run(source.tree().root(), dst);
        markedTemporary(dst.resolve(LEFTOVER), "half a file");
        markedTemporary(dst.resolve("deep/l1").resolve(".spark-dcp.x.fedcba9876543210.tmp"), "half");

        CopyReport again = LocalCopy.defaults().withModes(modes).run(source.tree().root(), dst);

        assertEquals(List.of(), again.counts().failures());
        assertEquals(List.of(), temporaries(dst));
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(0, again.counts().copied(FileType.FILE), "complete files are skipped");
    }

    /** What a killed --atomic run leaves: a temporary's name and the marker its copy sets. */
    private static void markedTemporary(Path file, String content) throws IOException {
        Files.writeString(file, content);
        Commands.run("setfattr", "-n", "trusted.spark-dcp.temporary", "-v", "1", file.toString());
    }

    /** A name is not proof: a user's file or directory that merely looks like a temporary stays, in every run. */
    @Test
    void aUsersFileOrDirectoryNamedLikeATemporaryIsLeftAlone() throws IOException {
        Path dst = newDestination();
        Path file = dst.resolve(".spark-dcp.notes.0123456789abcdef.tmp");
        Files.writeString(file, "the user's notes");
        Path dir = Files.createDirectory(dst.resolve(".spark-dcp.dir.0123456789abcdef.tmp"));
        for (CopyModes modes : List.of(ATOMIC, ATOMIC, CopyModes.COPY)) {
            CopyReport report = LocalCopy.defaults().withModes(modes).run(source.tree().root(), dst);
            assertEquals(List.of(), report.counts().failures());
            assertEquals("the user's notes", Files.readString(file));
            assertTrue(Files.isDirectory(dir));
        }
    }

    /** A source entry with a temporary's name is copied like any other, and skipped by the next run. */
    @Test
    void aSourceFileNamedLikeATemporaryCopiesLikeAnyOther() throws IOException {
        Path src = Files.createDirectories(source.mount().dir().resolve("src-temporary-names"));
        Files.writeString(src.resolve(".spark-dcp.a.0123456789abcdef.tmp"), "mine");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("sub/.spark-dcp.b.fedcba9876543210.tmp"), "mine too");
        Path dst = newDestination();
        CopyReport first = LocalCopy.defaults().withModes(ATOMIC).run(src, dst);
        assertEquals(List.of(), first.counts().failures());
        assertEquals(2, first.counts().copied(FileType.FILE));
        CopyReport again = LocalCopy.defaults().withModes(ATOMIC).run(src, dst);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(0, again.counts().copied(FileType.FILE), "not taken for a leftover and copied again");
        assertEquals(2, again.counts().skipped(FileType.FILE));
        TreeComparator.assertSameTree(src, dst);
    }

    @Test
    void atomicSyncReplacesAChangedFileByRenameOverIt() throws IOException {
        Path dst = newDestination();
        LocalCopy sync = LocalCopy.syncDefaults().withModes(CopyModes.of(CopyModes.Mode.SYNC, CopyModes.Mode.ATOMIC));
        sync.sync(source.tree().root(), dst, false);
        Path small = dst.resolve(RichTree.SMALL_FILE);
        long before = Posix.lstat(PathBytes.of(small.toString())).ino();
        Files.writeString(small, "changed");

        CopyReport report = sync.sync(source.tree().root(), dst, false);

        assertEquals(List.of(), report.counts().failures());
        assertEquals(1, report.counts().copied(FileType.FILE));
        assertNotEquals(before, Posix.lstat(PathBytes.of(small.toString())).ino(), "a new inode took the name");
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    @Test
    void verifyCountsOnlyTheFilesItReallyReadBackAndFsyncEachFile() throws IOException {
        Path dst = newDestination();
        CopyReport first = LocalCopy.defaults().withModes(VERIFY_FSYNC).run(source.tree().root(), dst);
        assertEquals(List.of(), first.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        long files = first.counts().copied(FileType.FILE);
        assertEquals(files, first.counts().verified());
        assertEquals(files, first.steps().asMap().get(Step.FSYNC.label())[0]);

        CopyReport second = LocalCopy.defaults().withModes(VERIFY_FSYNC).run(source.tree().root(), dst);
        assertEquals(0, second.counts().verified(), "nothing copied, nothing verified");
        assertFalse(second.steps().asMap().containsKey(Step.FSYNC.label()));
    }

    @Test
    void filesCopiedInChunksAreVerifiedAndSyncedToo() throws IOException {
        Path dst = newDestination();
        CopyReport report = LocalCopy.defaults().withChunkSize(1 << 20).withModes(VERIFY_FSYNC).run(source.tree().root(), dst);
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(report.counts().copied(FileType.FILE), report.counts().verified());
        assertEquals(report.counts().copied(FileType.FILE), report.steps().asMap().get(Step.FSYNC.label())[0]);
    }

    @Test
    void syncFixesOnlyTheMetadataOfAFileCopiedInChunks() throws IOException {
        Path dst = newDestination();
        LocalCopy chunked = LocalCopy.syncDefaults().withChunkSize(1 << 20);
        chunked.sync(source.tree().root(), dst, false);
        Path big = dst.resolve(RichTree.BIG_FILE);
        long inode = Posix.lstat(PathBytes.of(big.toString())).ino();
        Commands.run("chmod", "600", big.toString());

        CopyReport report = chunked.sync(source.tree().root(), dst, false);

        assertEquals(List.of(), report.counts().failures());
        assertEquals(1, report.counts().metadataFixed(FileType.FILE));
        assertEquals(0, report.counts().bytesCopied());
        assertEquals(inode, Posix.lstat(PathBytes.of(big.toString())).ino());
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }
}
