package io.sparkdcp.job;

import io.sparkdcp.copy.keep.XattrPolicy;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * XFS to ext4: the kernel refuses copy_file_range between different file systems, so data goes by
 * read/write; ext4 here cannot hold project IDs, so exactly the entries that have one fail, with
 * a reason, and everything else arrives intact.
 */
class CrossFileSystemCopyTest {
    private static LoopMount xfs;
    private static LoopMount ext4;
    private static RichTree tree;
    private static Path dst;
    private static CopyReport report;

    @BeforeAll
    static void copyXfsToExt4() throws Exception {
        LoopMount.requireRootAndXfs();
        xfs = LoopMount.create("cross-src", 400);
        ext4 = LoopMount.createExt4("cross-dst", 400);
        tree = RichTree.build(Files.createDirectory(xfs.dir().resolve("src")));
        // Project IDs only under p77 (77, and 99 on one file); the rest of the tree has none to carry.
        // (xfs_io opens what it changes: never a FIFO, which would block it.)
        Commands.bash("cd '" + tree.root() + "' && find . \\( -type f -o -type d \\) -exec xfs_io -c 'chproj 0' -c 'chattr -P' {} \\;"
                + " && find " + RichTree.PROJECT_77_DIR + " \\( -type f -o -type d \\) -exec xfs_io -c 'chproj 77' {} \\;"
                + " && xfs_io -c 'chattr +P' " + RichTree.PROJECT_77_DIR + " && xfs_io -c 'chattr +P' " + RichTree.PROJECT_77_DIR + "/sub"
                + " && xfs_io -c 'chproj 99' " + RichTree.PROJECT_99_FILE);
        dst = Files.createDirectory(ext4.dir().resolve("dst"));
        report = LocalCopy.defaults().withXattrs(XattrPolicy.nonLustre()).run(tree.root(), dst);
    }

    @AfterAll
    static void unmount() {
        if (ext4 != null) ext4.close();
        if (xfs != null) xfs.close();
    }

    @Test
    void onlyEntriesWithAProjectIdFailAndSayWhy() {
        Set<String> failed = report.counts().failures().stream().map(Failure::path).collect(Collectors.toSet());
        assertEquals(Set.of(RichTree.PROJECT_77_DIR, RichTree.PROJECT_77_FILE, RichTree.PROJECT_99_FILE,
                RichTree.PROJECT_77_DIR + "/sub", RichTree.PROJECT_77_NESTED_FILE), failed);
        assertTrue(report.counts().failures().stream().allMatch(f -> f.message().contains("cannot hold project ID")),
                report.counts().failures().toString());
        assertEquals(1, report.exitCode());
    }

    @Test
    void everythingElseArrivesIntactThroughReadWrite() {
        List<String> differences = TreeComparator.differences(tree.root(), dst).stream()
                .filter(d -> !d.contains(": project_id: ") && !d.contains(": projinherit: ") && !d.contains("trusted.SGI_ACL"))
                .toList();
        // Entries whose project could not be set keep the copy's mtime so a re-run retries them.
        Set<String> failed = report.counts().failures().stream().map(Failure::path).collect(Collectors.toSet());
        List<String> unexplained = differences.stream()
                .filter(d -> failed.stream().noneMatch(f -> d.startsWith(f + ": ")))
                .toList();
        assertEquals(List.of(), unexplained);
        assertTrue(report.steps().count(Step.DATA) > 0);
    }
}
