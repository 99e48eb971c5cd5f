package io.sparkdcp.job;

import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.spark.SparkPhaseRunner;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeFiles;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 row L: {@code sync --delete} never crosses a mount point. A tmpfs, a bind mount of a
 * directory outside DST, and a bind mount of SRC itself, all found inside DST, keep every entry; each
 * mount point is reported, and what DST itself has extra is still deleted.
 */
class DeleteAcrossMountsTest {
    private static LoopMount mount;

    @BeforeAll
    static void build() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("delmounts", 300);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void deleteLeavesEveryMountInsideTheDestinationAloneAndReportsIt() throws IOException {
        Path src = Files.createDirectories(mount.dir().resolve("src/kept"));
        src = src.getParent();
        Files.writeString(src.resolve("kept/f"), "f");
        Path outside = Files.createDirectories(mount.dir().resolve("outside"));
        Files.writeString(outside.resolve("precious"), "outside DST");
        Path dst = Files.createDirectories(mount.dir().resolve("dst"));
        LocalCopy sync = LocalCopy.syncDefaults();
        assertEquals(0, sync.sync(src, dst, false).exitCode());
        Files.writeString(dst.resolve("extra"), "DST's own, to delete");
        Path tmpfs = Files.createDirectories(dst.resolve("scratch"));
        Path bind = Files.createDirectories(dst.resolve("kept/view"));
        Path srcView = Files.createDirectories(dst.resolve("srcview"));
        Commands.run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", tmpfs.toString());
        try {
            Commands.run("mount", "--bind", outside.toString(), bind.toString());
            try {
                Commands.run("mount", "--bind", src.toString(), srcView.toString());
                try {
                    Files.writeString(tmpfs.resolve("job-output"), "on tmpfs");
                    List<Path> srcBefore = TreeFiles.everything(src);

                    CopyReport report = sync.sync(src, dst, true);

                    assertEquals("on tmpfs", Files.readString(tmpfs.resolve("job-output")));
                    assertEquals("outside DST", Files.readString(outside.resolve("precious")));
                    assertEquals(srcBefore, TreeFiles.everything(src), "SRC, bind-mounted inside DST, keeps everything");
                    assertTrue(Files.notExists(dst.resolve("extra")), "DST's own extra entry is deleted");
                    List<String> reported = report.counts().notices().stream().map(Failure::path).sorted().toList();
                    assertEquals(List.of("kept/view", "scratch", "srcview"), reported, report.counts().notices().toString());
                    assertEquals(List.of(), report.counts().failures());
                } finally {
                    Commands.run("umount", srcView.toString());
                }
            } finally {
                Commands.run("umount", bind.toString());
            }
        } finally {
            Commands.run("umount", tmpfs.toString());
        }
    }

    @Test
    void aMountMadeAfterThePlanIsNotDeletedIntoEither() throws IOException {
        Path src = Files.createDirectories(mount.dir().resolve("late-src"));
        Path outside = Files.createDirectories(mount.dir().resolve("late-outside"));
        Files.writeString(outside.resolve("x"), "outside DST");
        Path dst = Files.createDirectories(mount.dir().resolve("late-dst"));
        Path old = Files.createDirectories(dst.resolve("old"));
        Files.writeString(old.resolve("x"), "DST's own");
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "delete",
                () -> Commands.run("mount", "--bind", outside.toString(), old.toString()));
        try {
            CopyReport report = LocalCopy.syncDefaults().sync(src, dst, true, runner);

            assertTrue(runner.swapped());
            assertEquals("outside DST", Files.readString(outside.resolve("x")));
            assertEquals(1, report.exitCode());
            assertTrue(report.counts().failures().stream().anyMatch(f -> f.path().equals("old/x") && f.message().contains("another mount")),
                    report.counts().failures().toString());
        } finally {
            Commands.tryRun("umount", old.toString());
        }
    }

    @Test
    void theDryRunDoesNotListEntriesInsideMounts() throws IOException {
        Path src = Files.createDirectories(mount.dir().resolve("dry-src"));
        Path dst = Files.createDirectories(mount.dir().resolve("dry-dst"));
        Path tmpfs = Files.createDirectories(dst.resolve("scratch"));
        Commands.run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", tmpfs.toString());
        try {
            Files.writeString(tmpfs.resolve("job-output"), "on tmpfs");
            SyncPreview preview = DryRuns.onThreads(LocalCopy.syncDefaults().jobOptions(src, dst), true, true);
            assertEquals(List.of(), preview.delete());
            // On the executors too (--walk distributed on Spark), where DST's walk lists the tmpfs' entries.
            JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("spark-dcp-test").setMaster("local[2]")
                    .set("spark.ui.enabled", "false").set("spark.speculation", "false"));
            try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
                SyncPreview onExecutors = DryRuns.onExecutors(LocalCopy.syncDefaults().jobOptions(src, dst), runner, true, true);
                assertEquals(List.of(), onExecutors.delete());
                assertEquals(SyncPreview.NotShown.NONE, onExecutors.notShown());
                assertEquals(preview.fixMetadata().size(), onExecutors.fixMetadata().size());
            } finally {
                sc.stop();
            }
        } finally {
            Commands.run("umount", tmpfs.toString());
        }
    }
}
