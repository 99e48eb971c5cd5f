package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A name made or removed in an immutable destination directory: the engine unlocks the directory and
 * calls again. Several threads of a task can be refused at once in one such directory; the first
 * unlocks it, and the others must call again too, not fail because they find it unlocked already
 * (seen as an unpredicted `unlinkat EPERM` in SyncDryRunMatchesRunTest with 3 files in flight).
 */
class UnlockingParentTest {
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("unlocking", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aCallRefusedBeforeAnotherThreadUnlockedTheDirectoryRunsAgain() throws Exception {
        Path src = Files.createDirectories(mount.dir().resolve("race/src"));
        Path locked = Files.createDirectories(mount.dir().resolve("race/dst/locked"));
        try (TaskTrees trees = new TaskTrees(options(src, locked.getParent()));
             CopyContext ctx = new CopyContext(trees, (step, nanos) -> {});
             Fd dir = Posix.open(PathBytes.of(locked.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            FsXattr plain = Posix.getFsXattr(dir);
            Posix.setFsXattr(dir, new FsXattr(plain.xflags() | Linux.FS_XFLAG_IMMUTABLE, plain.extsize(), plain.nextents(),
                    plain.projid(), plain.cowextsize()));
            AtomicInteger calls = new AtomicInteger();
            ctx.unlocker.unlockingParent(dir, () -> {
                if (calls.incrementAndGet() == 1) {
                    // refused while locked; then, before this thread looks, another one unlocks the directory
                    Posix.setFsXattr(dir, Posix.getFsXattr(dir).unlocked());
                    throw new PosixException("mkdirat", Errno.EPERM, PathBytes.of("made"), "Operation not permitted");
                }
                Posix.mkdirat(dir, PathBytes.of("made"), 0755);
            });
            assertEquals(2, calls.get());
            assertTrue(Files.isDirectory(locked.resolve("made")));
        }
    }

    @Test
    void aRefusalThatUnlockingDoesNotCureIsThrownAfterOneMoreCall() throws Exception {
        Path src = Files.createDirectories(mount.dir().resolve("plain/src"));
        Path dst = Files.createDirectories(mount.dir().resolve("plain/dst/dir"));
        try (TaskTrees trees = new TaskTrees(options(src, dst.getParent()));
             CopyContext ctx = new CopyContext(trees, (step, nanos) -> {});
             Fd dir = Posix.open(PathBytes.of(dst.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            AtomicInteger calls = new AtomicInteger();
            PosixException refused = assertThrows(PosixException.class, () -> ctx.unlocker.unlockingParent(dir, (Runnable) () -> {
                calls.incrementAndGet();
                throw new PosixException("unlinkat", Errno.EPERM, PathBytes.of("x"), "Operation not permitted");
            }));
            assertEquals(Errno.EPERM, refused.errno());
            assertEquals(2, calls.get());
        }
    }

    /** The rule of protected entries: a directory locked at DST is unlocked only when its source directory carries the same lock. */
    @Test
    void aDirectoryIsUnlockedOnlyWhenItsSourceCarriesTheSameLock() throws Exception {
        Path src = Files.createDirectories(mount.dir().resolve("rule/src/both"));
        Files.createDirectories(src.resolveSibling("dst-only"));
        Path dst = Files.createDirectories(mount.dir().resolve("rule/dst/both"));
        Files.createDirectories(dst.resolveSibling("dst-only"));
        lock(src);
        lock(dst);
        lock(dst.resolveSibling("dst-only"));
        try (TaskTrees trees = new TaskTrees(options(src.getParent(), dst.getParent()));
             CopyContext ctx = new CopyContext(trees, (step, nanos) -> {})) {
            Fd both = ctx.destination.get(PathBytes.of("both"));
            ctx.unlocker.unlockingParent(both, () -> Posix.mkdirat(both, PathBytes.of("made"), 0755));
            assertTrue(Files.isDirectory(dst.resolve("made")), "unlocked: SRC's directory is immutable too");

            Fd dstOnly = ctx.destination.get(PathBytes.of("dst-only"));
            PosixException refused = assertThrows(PosixException.class,
                    () -> ctx.unlocker.unlockingParent(dstOnly, () -> Posix.mkdirat(dstOnly, PathBytes.of("made"), 0755)));
            assertEquals("in a directory protected at DST (immutable)", refused.reason());
            assertEquals(Linux.FS_XFLAG_IMMUTABLE, Posix.getFsXattr(dstOnly).locks(), "still locked");
            Posix.setFsXattr(dstOnly, Posix.getFsXattr(dstOnly).unlocked()); // for the loop image's removal
        }
    }

    private static void lock(Path dir) {
        try (Fd fd = Posix.open(PathBytes.of(dir.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            FsXattr plain = Posix.getFsXattr(fd);
            Posix.setFsXattr(fd, new FsXattr(plain.xflags() | Linux.FS_XFLAG_IMMUTABLE, plain.extsize(), plain.nextents(),
                    plain.projid(), plain.cowextsize()));
        }
    }

    private static CopyOptions options(Path src, Path dst) {
        return CopyOptions.between(PathBytes.of(src.toString()), PathBytes.of(dst.toString()), LocalCopy.EVERYTHING, CopyModes.COPY,
                256L << 20);
    }
}
