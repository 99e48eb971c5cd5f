package io.sparkdcp.job;

import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user swaps a directory of DST for a symlink to a directory outside DST between the phases of a
 * run (as root, the copy could write anywhere): nothing is created, changed or deleted outside DST,
 * and the entries below the swapped directory fail instead.
 */
class SymlinkSwapTest {
    private static LoopMount mount;
    private static Path src;

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("swap", 400);
        src = mount.dir().resolve("src");
        Files.createDirectories(src.resolve("data/sub"));
        for (int i = 0; i < 10; i++) Files.writeString(src.resolve("data/f" + i), "data " + i);
        Files.writeString(src.resolve("data/sub/g"), "g");
        Files.createDirectory(src.resolve("other"));
        Files.writeString(src.resolve("other/h"), "h");
        Files.setPosixFilePermissions(src.resolve("data"), PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    private static Path outside(String name) throws IOException {
        Path dir = Files.createDirectory(mount.dir().resolve(name));
        Files.writeString(dir.resolve("f0"), "outside, must stay");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private static Runnable swap(Path dir, Path target) {
        return () -> {
            try {
                Files.move(dir, dir.resolveSibling(dir.getFileName() + ".moved"));
                Files.createSymbolicLink(dir, target);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Test
    void aDestinationDirectorySwappedBeforeTheFilesAreCopiedWritesNothingOutside() throws IOException {
        Path outside = outside("outside-copy");
        List<Path> before = TreeFiles.everything(outside);
        Path dst = Files.createDirectory(mount.dir().resolve("dst-copy"));
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "copy files", swap(dst.resolve("data"), outside));

        CopyReport report = LocalCopy.defaults().run(src, dst, runner);

        assertTrue(runner.swapped());
        assertEquals(before, TreeFiles.everything(outside), "nothing created outside DST");
        assertEquals("outside, must stay", Files.readString(outside.resolve("f0")));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(outside)), "its mode untouched");
        assertEquals(1, report.exitCode());
        List<String> failed = report.counts().failures().stream().map(Failure::path).toList();
        assertTrue(failed.contains("data/f0") && failed.contains("data/sub/g"), failed.toString());
        assertEquals("h", Files.readString(dst.resolve("other/h")), "the rest is copied");
    }

    @Test
    void aSourceDirectorySwappedBeforeTheFilesAreCopiedIsNotFollowed() throws IOException {
        Path secrets = outside("outside-source");
        Files.writeString(secrets.resolve("f1"), "secret");
        Path source = mount.dir().resolve("src-swapped");
        Files.createDirectories(source.resolve("data"));
        Files.writeString(source.resolve("data/f1"), "public");
        Path dst = Files.createDirectory(mount.dir().resolve("dst-source-swap"));
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "copy files", swap(source.resolve("data"), secrets));

        CopyReport report = LocalCopy.defaults().run(source, dst, runner);

        assertTrue(runner.swapped());
        assertEquals(1, report.exitCode());
        assertTrue(report.counts().failures().stream().anyMatch(f -> f.path().equals("data/f1")), report.counts().failures().toString());
        assertTrue(Files.notExists(dst.resolve("data/f1")), "nothing read through the symlink");
    }

    @Test
    void aDestinationDirectorySwappedBeforeDeletionDeletesNothingOutside() throws IOException {
        Path outside = outside("outside-delete");
        Files.writeString(outside.resolve("stray"), "outside, must stay");
        List<Path> before = TreeFiles.everything(outside);
        Path dst = Files.createDirectory(mount.dir().resolve("dst-delete"));
        LocalCopy sync = LocalCopy.syncDefaults();
        sync.sync(src, dst, false);
        Files.writeString(dst.resolve("data/stray"), "extra at DST");
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "delete", swap(dst.resolve("data"), outside));

        CopyReport report = sync.sync(src, dst, true, runner);

        assertTrue(runner.swapped());
        assertEquals(before, TreeFiles.everything(outside), "nothing deleted or created outside DST");
        assertEquals("outside, must stay", Files.readString(outside.resolve("stray")));
        assertEquals(1, report.exitCode());
        assertTrue(report.counts().failures().stream().anyMatch(f -> f.path().equals("data/stray")), report.counts().failures().toString());
    }
}
