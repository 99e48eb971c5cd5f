package io.sparkdcp.job;

import io.sparkdcp.copy.RootCheck;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeComparator;
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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 rows C and I: the roots are resolved once and known by identity. A DST (or a parent of it)
 * swapped after the walk stops every task before it writes; DST inside SRC is found through bind mounts.
 */
class RootIdentityTest {
    private static LoopMount mount;
    private static Path src;

    @BeforeAll
    static void build() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("roots", 300);
        src = mount.dir().resolve("src");
        Files.createDirectories(src.resolve("data/sub"));
        for (int i = 0; i < 10; i++) Files.writeString(src.resolve("data/f" + i), "data " + i);
        Files.setPosixFilePermissions(src, PosixFilePermissions.fromString("rwxr-x---"));
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

    private static Runnable swapForSymlink(Path dir, Path target) {
        return () -> {
            try {
                Files.move(dir, dir.resolveSibling(dir.getFileName() + ".real"));
                Files.createSymbolicLink(dir, target);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static void assertUntouched(Path outside, List<Path> before) throws IOException {
        assertEquals(before, TreeFiles.everything(outside), "nothing created outside DST");
        assertEquals("outside, must stay", Files.readString(outside.resolve("f0")));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(outside)), "its mode untouched");
    }

    @Test
    void aDestinationRootSwappedForASymlinkAfterTheWalkStopsTheRunAndWritesNothingThere() throws IOException {
        Path outside = outside("outside-root");
        List<Path> before = TreeFiles.everything(outside);
        Path dst = Files.createDirectory(mount.dir().resolve("dst-root"));
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "make directories", swapForSymlink(dst, outside));

        RuntimeException stopped = assertThrows(RuntimeException.class, () -> LocalCopy.defaults().run(src, dst, runner));

        assertTrue(runner.swapped());
        assertInstanceOf(RootCheck.RootChangedException.class, stopped.getCause(), stopped.toString());
        assertTrue(stopped.getCause().getMessage().contains("destination " + dst), stopped.getCause().getMessage());
        assertTrue(stopped.getCause().getMessage().contains("symlink"), stopped.getCause().getMessage());
        assertUntouched(outside, before);
    }

    @Test
    void aParentOfTheDestinationSwappedForASymlinkStopsTheRunToo() throws IOException {
        Path outside = outside("outside-parent");
        Files.createDirectory(outside.resolve("dst"));
        List<Path> before = TreeFiles.everything(outside);
        Path parent = Files.createDirectory(mount.dir().resolve("parent"));
        Path dst = Files.createDirectory(parent.resolve("dst"));
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "copy files", swapForSymlink(parent, outside));

        RuntimeException stopped = assertThrows(RuntimeException.class, () -> LocalCopy.defaults().run(src, dst, runner));

        assertInstanceOf(RootCheck.RootChangedException.class, stopped.getCause(), stopped.toString());
        assertUntouched(outside, before);
    }

    @Test
    void aDestinationReplacedByAnotherDirectoryOfTheSameNameIsNotWrittenInto() throws IOException {
        Path dst = Files.createDirectory(mount.dir().resolve("dst-replaced"));
        Runnable replace = () -> {
            try {
                Files.move(dst, dst.resolveSibling("dst-replaced.real"));
                Files.createDirectory(dst);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(3), "make directories", replace);

        RuntimeException stopped = assertThrows(RuntimeException.class, () -> LocalCopy.defaults().run(src, dst, runner));

        assertTrue(stopped.getCause().getMessage().contains("no longer the directory the run started with"), stopped.getCause().getMessage());
        assertEquals(List.of(dst), TreeFiles.everything(dst), "the newcomer is left empty");
    }

    @Test
    void aDestinationInsideTheSourceThroughABindMountIsRefused() throws IOException {
        Path view = Files.createDirectory(mount.dir().resolve("view-of-data"));
        Commands.run("mount", "--bind", src.resolve("data").toString(), view.toString());
        try {
            UsageException refused = assertThrows(UsageException.class, () -> Roots.check(src.toString(), view.resolve("dst").toString()));
            assertTrue(refused.getMessage().contains("inside the source") && refused.getMessage().contains("bind mount"), refused.getMessage());
            assertThrows(UsageException.class, () -> Roots.check(src.toString(), view.resolve("sub").toString()), "an existing DST too");
        } finally {
            Commands.run("umount", view.toString());
        }
        assertTrue(Files.notExists(src.resolve("data/dst")), "nothing created");
    }

    @Test
    void aDestinationInsideABindMountOfTheSourceItselfIsRefused() throws IOException {
        Path view = Files.createDirectory(mount.dir().resolve("view-of-src"));
        Commands.run("mount", "--bind", src.toString(), view.toString());
        try {
            assertThrows(UsageException.class, () -> Roots.check(src.toString(), view.resolve("data/new").toString()));
            UsageException same = assertThrows(UsageException.class, () -> Roots.check(src.toString(), view.toString()));
            assertTrue(same.getMessage().contains("the source itself"), same.getMessage());
        } finally {
            Commands.run("umount", view.toString());
        }
    }

    @Test
    void aDestinationShownInsideTheSourceByAMountBelowTheSourceIsRefused() throws IOException {
        Path tree = Files.createDirectories(mount.dir().resolve("tree-with-mount/m"));
        Path elsewhere = Files.createDirectories(mount.dir().resolve("elsewhere"));
        Commands.run("mount", "--bind", elsewhere.toString(), tree.toString());
        try {
            UsageException refused = assertThrows(UsageException.class,
                    () -> Roots.check(tree.getParent().toString(), elsewhere.resolve("dst").toString()));
            assertTrue(refused.getMessage().contains("through the mount at " + tree), refused.getMessage());
            Files.createDirectories(elsewhere.resolve("src"));
            UsageException reverse = assertThrows(UsageException.class,
                    () -> Roots.check(elsewhere.resolve("src").toString(), tree.getParent().toString()));
            assertTrue(reverse.getMessage().contains("inside the destination"), reverse.getMessage());
        } finally {
            Commands.run("umount", tree.toString());
        }
    }

    @Test
    void aSourceInsideTheDestinationIsRefusedEvenWithoutDelete() {
        UsageException refused = assertThrows(UsageException.class, () -> Roots.check(src.resolve("data").toString(), src.toString()));
        assertTrue(refused.getMessage().contains("source") && refused.getMessage().contains("inside the destination"), refused.getMessage());
    }

    @Test
    void unrelatedRootsStillCopy() throws IOException {
        Roots roots = Roots.check(src.toString(), mount.dir().resolve("fresh/dst").toString());
        roots.createDestination();
        Path dst = Path.of(new String(roots.destination(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(0, LocalCopy.defaults().run(src, dst).exitCode());
        TreeComparator.assertSameTree(src, dst);
    }
}
