package io.sparkdcp.job;

import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.posix.FileType;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine and the driver's phases without Spark, on a real XFS holding every kind of entry. */
class CopyJobTest {
    @RegisterExtension
    static final MountedSource source = MountedSource.richTree("copyjob");

    private static Path newDestination() {
        return source.newDestinationPath();
    }

    private static CopyReport copy(LocalCopy how, Path dst) throws IOException {
        Files.createDirectories(dst);
        return how.run(source.tree().root(), dst);
    }

    @Test
    void singleFdCopyKeepsEverything() throws IOException {
        Path dst = newDestination();
        CopyReport report = copy(LocalCopy.defaults(), dst);
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(source.tree().entryCount() + 1, report.counts().copied(), "every entry and the root, once each");
        assertEquals(0, report.exitCode());
    }

    @Test
    void defaultPolicyKeepsAclsThroughTheirSystemNames() throws IOException {
        Path dst = newDestination();
        CopyReport report = copy(LocalCopy.defaults().withXattrs(XattrPolicy.nonLustre()), dst);
        assertEquals(List.of(), report.counts().failures());
        // XFS rebuilds its trusted.SGI_ACL_* copies from system.posix_acl_*: the trees still compare equal.
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    /** The path way is the bench module's (its tests are PathWayTest there): without its jar a copy by it says so. */
    @Test
    void thePathWayWithoutTheBenchsJarSaysWhereItIs() throws IOException {
        Path dst = newDestination();
        Exception e = assertThrows(Exception.class, () -> copy(LocalCopy.defaults().withAccess(MetadataAccess.PATH), dst));
        Throwable root = e;
        while (root.getCause() != null) root = root.getCause();
        assertTrue(root.getMessage().contains("the path way of copying metadata is the bench module's"), root.toString());
    }

    @Test
    void largeFilesCopiedInChunksKeepDataAndHoles() throws IOException {
        Path dst = newDestination();
        CopyReport report = copy(LocalCopy.defaults().withChunkSize(1 << 20), dst);
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(source.tree().entryCount() + 1, report.counts().copied());
        long chunkedBytes = RichTree.BIG_FILE_SIZE + RichTree.SPARSE_DATA_OFFSETS.size() * (long) RichTree.SPARSE_EXTENT;
        assertTrue(report.steps().count(Step.DATA) >= 4 + 1, "the big file alone is four chunks");
        assertTrue(report.counts().bytesCopied() >= chunkedBytes);
    }

    @Test
    void stepCountsMatchPerEntryOutcomes() throws IOException {
        CopyReport report = copy(LocalCopy.defaults(), newDestination());
        CopyCounts c = report.counts();
        StepStats s = report.steps();
        long copiedWithTimes = c.copied() - c.links();
        assertEquals(copiedWithTimes, s.count(Step.TIMES), "times set once per copied entry, links excepted");
        long modeAtCreation = copiedWithTimes - c.copied(FileType.SYMLINK) - s.count(Step.MODE);
        // Plain files get their mode at creation; the setuid and setgid files, directories and special files by fchmod.
        assertTrue(modeAtCreation > 0 && modeAtCreation <= c.copied(FileType.FILE) - 2, modeAtCreation + " of " + s);
        assertEquals(c.copied(FileType.DIRECTORY) - 1, s.count(Step.MKDIR), "every directory but the root is made");
        // A new file is linked into place complete (a file copied in chunks: its marked temporary), its other names are hard links.
        assertTrue(s.count(Step.LINK) >= c.copied(FileType.FILE), "a linkat per hard link and per new file linked into place: " + s);
        assertEquals(c.copied(FileType.FILE), s.count(Step.OPEN_DST));
    }

    @Test
    void rerunSkipsEverythingAndChangesNothing() throws IOException {
        Path dst = newDestination();
        copy(LocalCopy.defaults(), dst);
        List<String> before = Commands.bash("cd '" + dst + "' && find . -printf '%p %i %C@\\n' | sort").lines().toList();
        CopyReport again = copy(LocalCopy.defaults(), dst);
        assertEquals(0, again.counts().copied());
        assertEquals(source.tree().entryCount() + 1, again.counts().skipped());
        assertEquals(0, again.steps().count(Step.OPEN_SRC), "a re-run decides from stat alone");
        List<String> after = Commands.bash("cd '" + dst + "' && find . -printf '%p %i %C@\\n' | sort").lines().toList();
        assertEquals(before, after, "same inodes, no change time moved");
        TreeComparator.assertSameTree(source.tree().root(), dst);
    }

    @Test
    void rerunRestoresWhatWasDeletedOrAltered() throws IOException {
        Path dst = newDestination();
        copy(LocalCopy.defaults(), dst);
        Commands.bash("cd '" + dst + "' && echo altered >> " + RichTree.SMALL_FILE
                + " && rm " + RichTree.HARD_LINK_GROUP.get(1)
                + " && chmod 600 " + RichTree.SETUID_FILE
                + " && ln -sfn elsewhere " + RichTree.SYMLINK_RELATIVE
                + " && rm -r " + RichTree.DEEP_FILE
                + " && xfs_io -c 'chproj 5' " + RichTree.PROJECT_77_FILE
                + " && touch " + RichTree.PROJECT_77_FILE);
        CopyReport again = copy(LocalCopy.defaults(), dst);
        assertEquals(List.of(), again.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertTrue(again.counts().copied() >= 6, "the six damaged entries are copied again: " + again.counts().copied());
    }

    @Test
    void destinationDirectoryInTheWayOfAFileIsReportedAndKept() throws IOException {
        Path dst = newDestination();
        Files.createDirectories(dst.resolve(RichTree.SMALL_FILE).resolve("precious"));
        CopyReport report = copy(LocalCopy.defaults(), dst);
        assertEquals(1, report.counts().failed());
        assertEquals(RichTree.SMALL_FILE, report.counts().failures().get(0).path());
        assertTrue(Files.isDirectory(dst.resolve(RichTree.SMALL_FILE).resolve("precious")), "nothing of the user's is deleted");
        assertTrue(Files.exists(dst.resolve(RichTree.DEEP_FILE)), "the rest is copied");
        assertEquals(1, report.exitCode());
    }

    @Test
    void fileInTheWayOfADirectoryIsReportedAndKept() throws IOException {
        Path dst = newDestination();
        Files.createDirectories(dst);
        Files.writeString(dst.resolve("deep"), "mine");
        CopyReport report = copy(LocalCopy.defaults(), dst);
        assertTrue(report.counts().failures().stream().anyMatch(f -> f.path().equals("deep") && f.op().equals("mkdirat")),
                report.counts().failures().toString());
        assertEquals("mine", Files.readString(dst.resolve("deep")));
        assertTrue(Files.exists(dst.resolve(RichTree.SMALL_FILE)));
    }

    @Test
    void withoutProjectIdsAndFlagsNoProjectIoctlIsMade() throws IOException {
        Path dst = newDestination();
        // --no-projid alone still reads each source's struct fsxattr for its flags.
        CopyReport report = copy(LocalCopy.defaults().withoutProjectIds().withoutFlags(), dst);
        assertEquals(List.of(), report.counts().failures());
        assertEquals(0, report.steps().count(Step.IOCTL_GET) + report.steps().count(Step.IOCTL_SET));
        List<String> differences = TreeComparator.differences(source.tree().root(), dst);
        assertTrue(!differences.isEmpty() && differences.stream().allMatch(d -> d.contains(": project_id: ") || d.contains(": projinherit: ")),
                "only project IDs differ: " + differences);
    }
}
