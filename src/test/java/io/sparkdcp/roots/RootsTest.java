package io.sparkdcp.roots;

import io.sparkdcp.posix.PathBytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The roots of a copy, resolved and checked before anything is written: two directories, or for a source
 * that is not a directory the directories holding it and its copy. On the machine's temporary directory,
 * no mount of its own.
 */
@Tag("fast")
class RootsTest {
    private Path top;
    private Path src;
    private Path dst;

    @BeforeEach
    void tree() throws IOException {
        top = Files.createTempDirectory("roots-test").toRealPath();
        src = Files.createDirectory(top.resolve("src"));
        dst = Files.createDirectory(top.resolve("dst"));
        Files.writeString(src.resolve("f"), "data");
    }

    @AfterEach
    void remove() throws IOException {
        try (Stream<Path> all = Files.walk(top)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @Test
    void theRootsAreTheDirectoriesHoldingTheFileAndItsCopy() {
        Roots roots = Roots.checkFile(bytes(src.resolve("f")), bytes(dst.resolve("g")));
        assertAll(
                () -> assertArrayEquals(bytes(src), roots.source()),
                () -> assertArrayEquals(bytes(dst), roots.destination()),
                () -> assertTrue(roots.destinationExists()),
                () -> assertNotNull(roots.sourceId()),
                () -> assertNotNull(roots.destinationId()),
                () -> assertFalse(roots.sourceId().sameInode(roots.destinationId())),
                () -> assertEquals("f", PathBytes.display(roots.file().sourceName())),
                () -> assertEquals("g", PathBytes.display(roots.file().destinationName())),
                () -> assertArrayEquals(bytes(src.resolve("f")), roots.named()),
                () -> assertArrayEquals(bytes(dst.resolve("g")), roots.target()));
    }

    @Test
    void symlinksOnTheWayAreResolved() throws IOException {
        Path link = Files.createSymbolicLink(top.resolve("link"), src);
        Roots roots = Roots.checkFile(bytes(link.resolve("f")), bytes(top.resolve("dst/./g")));
        assertArrayEquals(bytes(src), roots.source());
        assertArrayEquals(bytes(dst), roots.destination());
    }

    @Test
    void aMissingDestinationDirectoryIsPinnedLater() {
        Roots roots = Roots.checkFile(bytes(src.resolve("f")), bytes(dst.resolve("new/deeper/g")));
        assertFalse(roots.destinationExists());
        assertNull(roots.destinationId());
        assertArrayEquals(bytes(dst.resolve("new/deeper")), roots.destination());
        assertEquals("g", PathBytes.display(roots.file().destinationName()));
    }

    @Test
    void eachRefusalNamesThePathAndTheReason() throws IOException {
        Files.createDirectory(src.resolve("d"));
        Files.writeString(dst.resolve("plain"), "a file");
        assertAll(
                () -> assertRefused("destination / cannot become the file " + src.resolve("f"), src.resolve("f").toString(), "/"),
                () -> assertRefused("destination " + dst.resolve("plain") + " exists and is not a directory",
                        src.resolve("f").toString(), dst.resolve("plain/g").toString()),
                () -> assertRefused("source " + src.resolve("gone") + " does not exist", src.resolve("gone").toString(), dst.resolve("g").toString()),
                () -> assertRefused("source " + src.resolve("d") + " became a directory; run again", src.resolve("d").toString(), dst.resolve("g").toString()),
                () -> assertRefused("destination " + src.resolve("f") + " is the source " + src.resolve("f") + " itself",
                        src.resolve("f").toString(), src.resolve("f").toString()));
    }

    @Test
    void aDeviceNamedAsTheDestinationIsNotReplacedByAFile() {
        UsageException e = assertThrows(UsageException.class, () -> Roots.checkFile(bytes(src.resolve("f")), PathBytes.of("/dev/null")));
        assertTrue(e.getMessage().startsWith("destination /dev/null is a character device: a copy does not replace a device"), e.getMessage());
        Roots deviceOntoDevice = Roots.checkFile(PathBytes.of("/dev/zero"), PathBytes.of("/dev/null"));
        assertTrue(deviceOntoDevice.destinationExists(), "a device copied onto a device of its kind is a copy like any other");
    }

    @Test
    void aHardLinkOfTheSourceAsTheDestinationIsTheSourceItself() throws IOException {
        Files.createLink(dst.resolve("same"), src.resolve("f"));
        UsageException e = assertThrows(UsageException.class, () -> Roots.checkFile(bytes(src.resolve("f")), bytes(dst.resolve("same"))));
        assertTrue(e.getMessage().endsWith("itself"), e.getMessage());
    }

    /** The directory form, Roots.check: the trees themselves are the roots. */
    @Test
    void twoDirectoriesAreTheRootsAndNeitherMayHoldTheOther() throws IOException {
        Roots roots = Roots.check(src.toString(), dst.toString());
        assertAll(
                () -> assertArrayEquals(bytes(src), roots.source()),
                () -> assertArrayEquals(bytes(dst), roots.destination()),
                () -> assertTrue(roots.destinationExists()),
                () -> assertNotNull(roots.destinationId()),
                () -> assertNull(roots.file()));
        Roots missing = Roots.check(src.toString(), dst.resolve("new/deeper").toString());
        assertFalse(missing.destinationExists());
        assertNull(missing.destinationId());
        assertArrayEquals(bytes(dst.resolve("new/deeper")), missing.destination());
        assertEquals("deeper", PathBytes.display(missing.destinationName()));
        assertArrayEquals(bytes(src), missing.named());
        assertArrayEquals(bytes(dst.resolve("new/deeper")), missing.target());
        missing.createDestination();
        assertTrue(Files.isDirectory(dst.resolve("new/deeper")), "made with its missing parents");
        Files.createDirectory(src.resolve("sub"));
        assertAll(
                () -> assertCheckRefused("source must not be empty (an empty SRC is not the current directory)", "", dst.toString()),
                () -> assertCheckRefused("destination must not be empty (an empty DST is not the current directory)", src.toString(), ""),
                () -> assertCheckRefused("source " + top.resolve("gone") + " does not exist", top.resolve("gone").toString(), dst.toString()),
                () -> assertCheckRefused("source " + src.resolve("f") + " is not a directory", src.resolve("f").toString(), dst.toString()),
                () -> assertCheckRefused("destination " + src.resolve("f") + " exists and is not a directory", src.resolve("sub").toString(),
                        src.resolve("f").toString()),
                () -> assertCheckRefused("destination " + src + " is the source itself", src.toString(), src.toString()),
                () -> assertCheckRefused("destination " + src.resolve("sub") + " is inside the source " + src, src.toString(),
                        src.resolve("sub").toString()),
                () -> assertCheckRefused("destination " + src.resolve("sub/new") + " is inside the source " + src, src.toString(),
                        src.resolve("sub/new").toString()),
                () -> assertTrue(assertThrows(UsageException.class, () -> Roots.check(src.resolve("sub").toString(), src.toString()))
                        .getMessage().startsWith("source " + src.resolve("sub") + " is inside the destination " + src + ": refused")),
                () -> assertTrue(assertThrows(UsageException.class, () -> Roots.check(src.toString(), src.resolve("f/x").toString()))
                        .getMessage().contains("is not a directory")));
    }

    private static void assertCheckRefused(String message, String source, String destination) {
        UsageException e = assertThrows(UsageException.class, () -> Roots.check(source, destination));
        assertEquals(message, e.getMessage());
    }

    private static void assertRefused(String message, String source, String target) {
        UsageException e = assertThrows(UsageException.class, () -> Roots.checkFile(PathBytes.of(source), PathBytes.of(target)));
        assertEquals(message, e.getMessage());
    }

    private static byte[] bytes(Path p) {
        return PathBytes.of(p.toString());
    }
}
