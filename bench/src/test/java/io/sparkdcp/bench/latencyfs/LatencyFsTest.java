package io.sparkdcp.bench.latencyfs;

import io.sparkdcp.bench.Workload;
import io.sparkdcp.bench.WorkloadGenerator;
import io.sparkdcp.copy.CopyEngine;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.NativeBuffer;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latency file system mounted over a directory of an XFS loop mount: requests wait as the
 * profile says, xattrs and project IDs reach the XFS below, and a copy through it is exact.
 */
class LatencyFsTest {
    private static final long LATENCY_NANOS = 2_000_000;
    private static LoopMount xfs;
    private static LatencyMount fuse;
    private static Path backing;

    @BeforeAll
    static void mount() throws IOException {
        LoopMount.requireRootAndXfs();
        boolean fuseReady = Files.exists(Path.of("/dev/fuse")) && Commands.available("fusermount")
                && (Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libfuse.so.2")) || Files.exists(Path.of("/usr/lib/aarch64-linux-gnu/libfuse.so.2")));
        if ("true".equals(System.getenv("CI"))) assertTrue(fuseReady, "needs /dev/fuse and libfuse2 (apt-get install libfuse2 fuse)");
        else Assumptions.assumeTrue(fuseReady, "needs /dev/fuse and libfuse2");
        xfs = LoopMount.create("latencyfs", 400);
        backing = Files.createDirectory(xfs.dir().resolve("backing"));
        Commands.run("xfs_io", "-c", "chproj 4242", "-c", "chattr +P", backing.toString());
        Path mountPoint = Files.createDirectory(xfs.dir().resolve("fuse"));
        fuse = LatencyMount.mount(backing, mountPoint, LatencyProfile.all(LATENCY_NANOS));
    }

    @AfterAll
    static void unmount() {
        // The FUSE mount sits on the XFS one: it goes first.
        if (fuse != null) fuse.close();
        if (xfs != null) xfs.close();
    }

    @Test
    void aDelayedRequestTakesAtLeastTheLatency() throws IOException {
        long before = fuse.fs().count(MetadataOp.MKDIR);
        long start = System.nanoTime();
        Files.createDirectory(fuse.dir().resolve("timed"));
        long elapsed = System.nanoTime() - start;
        assertTrue(elapsed >= LATENCY_NANOS, "mkdir took " + elapsed + " ns");
        assertEquals(before + 1, fuse.fs().count(MetadataOp.MKDIR));
    }

    @Test
    void theLustreProfileLeavesTheProjectGetAndTheKernelsOwnOpenFree() {
        LatencyProfile lustre = LatencyProfile.lustre(200_000);
        assertEquals(0, lustre.delayOf(MetadataOp.IOCTL_GET));
        assertEquals(0, lustre.delayOf(MetadataOp.OPEN_INTERNAL));
        assertEquals(0, lustre.delayOf(MetadataOp.RELEASE_INTERNAL));
        assertEquals(200_000, lustre.delayOf(MetadataOp.IOCTL_SET));
        assertEquals(200_000, lustre.delayOf(MetadataOp.OPEN));
        assertEquals(1.0, lustre.entryTimeoutSeconds());
    }

    @Test
    void theGetattrThatFillsTheReplyOfACreateOrSetattrIsPartOfThatRoundTrip() throws IOException {
        long creates = fuse.fs().count(MetadataOp.CREATE);
        long chmods = fuse.fs().count(MetadataOp.CHMOD);
        long replies = fuse.fs().count(MetadataOp.GETATTR_REPLY);
        Path file = Files.createFile(fuse.dir().resolve("replied"));
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        assertEquals(creates + 1, fuse.fs().count(MetadataOp.CREATE));
        assertEquals(chmods + 1, fuse.fs().count(MetadataOp.CHMOD));
        assertEquals(replies + 2, fuse.fs().count(MetadataOp.GETATTR_REPLY), "one reply getattr each, not a request of their own");
        assertEquals(0, LatencyProfile.all(200_000).delayOf(MetadataOp.GETATTR_REPLY));
        assertEquals(0, LatencyProfile.lustre(200_000).delayOf(MetadataOp.GETATTR_REPLY));
        assertEquals(200_000, LatencyProfile.lustre(200_000).delayOf(MetadataOp.GETATTR));
    }

    @Test
    void xattrsAndProjectIdsSetThroughTheMountReachTheXfsBelow() throws IOException {
        Path dir = Files.createDirectory(fuse.dir().resolve("projects"));
        Files.writeString(dir.resolve("file"), "data");
        byte[] name = "user.color".getBytes(StandardCharsets.UTF_8);
        byte[] value = "blue".getBytes(StandardCharsets.UTF_8);
        try (Fd d = Posix.open(PathBytes.of(dir.toString()), Linux.O_RDONLY);
             Fd f = Posix.open(PathBytes.of(dir.resolve("file").toString()), Linux.O_RDONLY)) {
            Posix.setFsXattr(d, Posix.getFsXattr(d).withProject(31, true));
            Posix.setFsXattr(f, Posix.getFsXattr(f).withProject(32, false));
            Posix.fsetxattr(f, name, value);
            assertEquals(32, Posix.getFsXattr(f).projid(), "read back through the mount");
        }
        Path below = backing.resolve("projects");
        try (Fd d = Posix.open(PathBytes.of(below.toString()), Linux.O_RDONLY);
             Fd f = Posix.open(PathBytes.of(below.resolve("file").toString()), Linux.O_RDONLY)) {
            FsXattr dirProject = Posix.getFsXattr(d);
            assertEquals(31, dirProject.projid());
            assertTrue(dirProject.projInherit());
            assertEquals(32, Posix.getFsXattr(f).projid());
            assertArrayEquals(value, Posix.fgetxattr(f, name, new NativeBuffer(64)));
        }
        assertTrue(fuse.fs().count(MetadataOp.IOCTL_SET) >= 2);
        assertTrue(fuse.fs().count(MetadataOp.OPEN_INTERNAL) >= 2, "the kernel opens the file itself for each project ioctl");
    }

    @Test
    void theKernelsOwnOpenOfADirectoryForAProjectIoctlIsInternalToo() throws IOException {
        Path dir = Files.createDirectory(fuse.dir().resolve("internal-dir"));
        try (Fd d = Posix.open(PathBytes.of(dir.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            long opendirs = fuse.fs().count(MetadataOp.OPENDIR);
            long releasedirs = fuse.fs().count(MetadataOp.RELEASEDIR);
            long internalOpens = fuse.fs().count(MetadataOp.OPEN_INTERNAL);
            long internalReleases = fuse.fs().count(MetadataOp.RELEASE_INTERNAL);
            Posix.getFsXattr(d);
            assertEquals(internalOpens + 1, fuse.fs().count(MetadataOp.OPEN_INTERNAL));
            // The kernel sends a release without waiting for it: it may arrive after the ioctl returned.
            awaitCount(MetadataOp.RELEASE_INTERNAL, internalReleases + 1);
            assertEquals(opendirs, fuse.fs().count(MetadataOp.OPENDIR), "no opendir of the user's");
            assertEquals(releasedirs, fuse.fs().count(MetadataOp.RELEASEDIR));
        }
    }

    /** Waits (up to a minute, so only a real miss fails) until requests of that kind reach the count. */
    private static void awaitCount(MetadataOp op, long count) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (fuse.fs().count(op) < count && System.nanoTime() < deadline) java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        assertEquals(count, fuse.fs().count(op), op + " requests");
    }

    @Test
    void aCopyThroughTheMountIsExactHardLinksAndSymlinksIncluded() throws IOException {
        Path src = backing.resolve("src");
        WorkloadGenerator.generate(Workload.standard().withSize(3, 4).withLargeFiles(1, 300_000), src);
        Files.createSymbolicLink(src.resolve("d0000/link"), Path.of("f00000.dat"));
        Files.createLink(src.resolve("d0001/hard"), src.resolve("d0001/f00004.dat"));
        Files.createDirectory(backing.resolve("dst"));

        LocalCopy how = LocalCopy.defaults();
        CopyReport report = new CopyJob(how.withThreadsPerTask(3).jobOptions(fuse.dir().resolve("src"), fuse.dir().resolve("dst")),
                new LocalPhaseRunner(2), line -> {}).run();

        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(src, backing.resolve("dst"));
    }

    /**
     * Where O_TMPFILE and renameat2's RENAME_NOREPLACE are refused, as here and on Lustre, a new file is a named
     * temporary linked at its name, then its temporary name removed: a file with a project of its own in a
     * PROJINHERIT directory (f00019 of the workload) takes the directory's for the link and gets its own back.
     */
    @Test
    void aFileWithAProjectOfItsOwnIsLinkedIntoPlaceThroughTheMount() throws IOException {
        Path src = backing.resolve("own-project-src");
        WorkloadGenerator.generate(Workload.standard().withSize(1, 20).withLargeFiles(0, 0), src);
        Files.createDirectory(backing.resolve("own-project-dst"));

        CopyReport report = new CopyJob(LocalCopy.defaults().jobOptions(fuse.dir().resolve("own-project-src"),
                fuse.dir().resolve("own-project-dst")), new LocalPhaseRunner(2), line -> {}).run();

        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(src, backing.resolve("own-project-dst")); // no temporary left either
    }

    /** The same way of naming never links over a file made at the name after the copy found it free. */
    @Test
    void aFileMadeAtTheNameMeanwhileStaysAndTheEntryFails() throws IOException {
        Path src = Files.createDirectory(fuse.dir().resolve("taken-src"));
        Path dst = Files.createDirectory(fuse.dir().resolve("taken-dst"));
        Files.write(src.resolve("f"), new byte[100_000]);
        byte[] intruder = "made at DST while the copy ran".getBytes(StandardCharsets.UTF_8);
        CopyOptions options = CopyOptions.between(PathBytes.of(src.toString()), PathBytes.of(dst.toString()), LocalCopy.EVERYTHING,
                CopyModes.COPY, 1L << 30);
        Entry f = new Entry(PathBytes.of("f"), Posix.lstat(PathBytes.of(src.resolve("f").toString())), null);
        StepRecorder writesBeforeTheRename = new StepRecorder() {
            @Override
            public void record(Step step, long nanos) {}

            @Override
            public long start(Step step) {
                if (step == Step.RENAME) {
                    try {
                        Files.write(dst.resolve("f"), intruder);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return 0;
            }
        };
        List<Failure> failures;
        try (CopyEngine engine = new CopyEngine(options, writesBeforeTheRename)) {
            failures = engine.copyFiles(List.of(f), List.of()).counts().failures();
        }

        assertArrayEquals(intruder, Files.readAllBytes(dst.resolve("f")));
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).message().contains("created at DST during the copy"), failures.toString());
        try (var names = Files.list(dst)) {
            assertEquals(List.of("f"), names.map(p -> p.getFileName().toString()).toList(), "no temporary left");
        }
    }
}

