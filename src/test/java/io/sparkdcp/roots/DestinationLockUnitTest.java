package io.sparkdcp.roots;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The destination lock's rules within one process (flock conflicts between two open descriptions of a directory,
 * whoever holds them): DST, inside it and above it are refused while held, with the holder named; siblings share;
 * closing releases; a missing DST is refused before it is made; and containment is by identity, not by name.
 */
@Tag("fast")
class DestinationLockUnitTest {
    @TempDir
    Path tmp;

    private static Fd open(Path dir) {
        return Posix.openNoSymlinks(PathBytes.of(dir.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY);
    }

    /** A lock whose DST descriptor closes with it. */
    private record Held(Fd dst, DestinationLock lock) implements AutoCloseable {
        @Override
        public void close() {
            lock.close();
            dst.close();
        }
    }

    private static Held take(Path dir) {
        Fd dst = open(dir);
        try {
            return new Held(dst, DestinationLock.take(dst, PathBytes.of(dir.toString())));
        } catch (RuntimeException e) {
            dst.close();
            throw e;
        }
    }

    private static String holder() throws IOException {
        return "pid " + Files.readSymbolicLink(Path.of("/proc/self")) + ", host " + Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    }

    @Test
    void theSameDestinationIsRefusedWhileHeldAndFreeOnceReleased() throws Exception {
        Path dst = Files.createDirectory(tmp.resolve("dst"));
        try (Held first = take(dst)) {
            UsageException refused = assertThrows(UsageException.class, () -> take(dst));
            assertEquals("another spark-dcp run holds DST " + dst + " (" + holder() + "); wait for it to end, or stop it", refused.getMessage());
        }
        take(dst).close();
    }

    @Test
    void aDestinationInsideAHeldOneIsRefused() throws Exception {
        Path dst = Files.createDirectory(tmp.resolve("outer"));
        Path inside = Files.createDirectories(dst.resolve("a/b"));
        try (Held outer = take(dst)) {
            UsageException refused = assertThrows(UsageException.class, () -> take(inside));
            assertEquals("another spark-dcp run holds DST " + dst + ", and DST " + inside + " is inside it (" + holder()
                    + "); wait for it to end, or stop it", refused.getMessage());
            Path link = Files.createSymbolicLink(tmp.resolve("link"), inside); // the name does not matter, the identity does
            try (Fd named = open(link.toRealPath())) {
                assertThrows(UsageException.class, () -> DestinationLock.take(named, PathBytes.of(link.toString())).close());
            }
        }
        take(inside).close();
        take(inside.getParent()).close(); // the refusals kept no shared lock on the directories between
    }

    @Test
    void aDestinationAboveAHeldOneIsRefused() throws Exception {
        Path above = Files.createDirectories(tmp.resolve("above/middle"));
        Path dst = Files.createDirectory(above.resolve("dst"));
        try (Held inner = take(dst)) {
            for (Path outer : new Path[]{above, above.getParent()}) {
                UsageException refused = assertThrows(UsageException.class, () -> take(outer));
                assertEquals("another spark-dcp run holds a DST inside DST " + outer + " (" + holder() + "); wait for it to end, or stop it",
                        refused.getMessage());
            }
        }
        take(above.getParent()).close();
    }

    @Test
    void siblingDestinationsAreHeldTogether() throws Exception {
        Path one = Files.createDirectories(tmp.resolve("parent/one"));
        Path two = Files.createDirectories(tmp.resolve("parent/two"));
        try (Held first = take(one); Held second = take(two)) {
            assertThrows(UsageException.class, () -> take(one.getParent()));
        }
    }

    @Test
    void aMissingDestinationUnderAHeldOneIsRefusedBeforeItIsMade() throws Exception {
        Path dst = Files.createDirectory(tmp.resolve("held"));
        try (Held held = take(dst)) {
            UsageException refused = assertThrows(UsageException.class,
                    () -> DestinationLock.checkBeforeCreating(PathBytes.of(dst.toString()), PathBytes.of(dst + "/new/deeper")));
            assertTrue(refused.getMessage().contains("holds DST " + dst + ", and DST " + dst + "/new/deeper is inside it"), refused.getMessage());
        }
        DestinationLock.checkBeforeCreating(PathBytes.of(dst.toString()), PathBytes.of(dst + "/new/deeper"));
        assertFalse(Files.exists(dst.resolve("new")), "the check makes nothing");
        take(dst).close(); // and keeps no shared lock on the directories it looked at
    }

    @Test
    void containmentIsByIdentity() throws Exception {
        Path outer = Files.createDirectories(tmp.resolve("o/i/deep"));
        Path sibling = Files.createDirectory(tmp.resolve("s"));
        MountTable mounts = MountTable.read();
        try (Fd o = open(tmp.resolve("o")); Fd deep = open(outer); Fd s = open(sibling)) {
            assertTrue(Containment.inside(deep, Posix.identity(o), mounts));
            assertTrue(Containment.inside(o, Posix.identity(o), mounts), "a directory is inside itself");
            assertFalse(Containment.inside(o, Posix.identity(deep), mounts));
            assertFalse(Containment.inside(s, Posix.identity(o), mounts));
        }
    }
}
