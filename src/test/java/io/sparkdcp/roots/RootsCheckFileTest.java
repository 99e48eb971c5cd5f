package io.sparkdcp.roots;

import io.sparkdcp.posix.PathBytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Roots#checkFile}: a source that is not a directory, and what it may and may not become. */
@Tag("fast")
class RootsCheckFileTest {
    @TempDir
    Path tmp;

    private static byte[] b(Path p) {
        return PathBytes.of(p.toString());
    }

    private static String refusal(Path source, Path target) {
        return assertThrows(UsageException.class, () -> Roots.checkFile(b(source), b(target))).getMessage();
    }

    @Test
    void aFileToANewNameInAnExistingDirectory() throws Exception {
        Path file = Files.writeString(Files.createDirectory(tmp.resolve("s")).resolve("f"), "x");
        Path dir = Files.createDirectory(tmp.resolve("d"));
        Roots roots = Roots.checkFile(b(file), b(dir.resolve("g")));
        assertArrayEquals(b(file.getParent().toRealPath()), roots.sourceBytes());
        assertArrayEquals(b(dir.toRealPath()), roots.destinationBytes());
        assertTrue(roots.destinationExists());
        assertNotNull(roots.destinationId());
        assertArrayEquals(b(Path.of("f")), roots.file().sourceName());
        assertArrayEquals(b(Path.of("g")), roots.file().destinationName());
        assertArrayEquals(b(dir.toRealPath().resolve("g")), roots.target());
        assertArrayEquals(b(file.toRealPath()), roots.named());
    }

    @Test
    void aMissingParentIsMadeLater() throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        Roots roots = Roots.checkFile(b(file), b(tmp.resolve("new/dir/g")));
        assertFalse(roots.destinationExists());
        assertNull(roots.destinationId());
        assertArrayEquals(b(tmp.toRealPath().resolve("new/dir")), roots.destinationBytes());
        assertFalse(Files.exists(tmp.resolve("new")), "nothing made yet");
    }

    @Test
    void theSourceItselfOrAHardLinkOfItIsRefused() throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        assertEquals("destination " + file + " is the source " + file + " itself", refusal(file, file));
        Path link = Files.createLink(tmp.resolve("same-inode"), file);
        assertEquals("destination " + link + " is the source " + file + " itself", refusal(file, link));
    }

    @Test
    void aDeviceNamedAsTheTargetIsNotReplaced() throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        String refused = refusal(file, Path.of("/dev/null"));
        assertTrue(refused.startsWith("destination /dev/null is a character device: a copy does not replace a device"), refused);
    }

    @Test
    void aMissingSourceADirectoryAndABadTargetAreRefused() throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        assertEquals("source " + tmp.resolve("missing") + " does not exist", refusal(tmp.resolve("missing"), tmp.resolve("t")));
        Path dir = Files.createDirectory(tmp.resolve("dir"));
        assertEquals("source " + dir + " became a directory; run again", refusal(dir, tmp.resolve("t")));
        assertEquals("destination / cannot become the file " + file, refusal(file, Path.of("/")));
        assertEquals("destination " + file + " exists and is not a directory", refusal(file, file.resolve("under-a-file")));
    }
}
