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
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Where --log and --report may go, on the machine's temporary directory: outside every SRC and DST (by identity,
 * and by name for a DST not made yet), through symlinks whose targets exist, and a report that is no directory.
 */
@Tag("fast")
class OutputPlacesUnitTest {
    private Path top;
    private Path src;
    private Path dst;
    private List<Roots> pairs;

    @BeforeEach
    void tree() throws IOException {
        top = Files.createTempDirectory("output-places").toRealPath();
        src = Files.createDirectory(top.resolve("src"));
        dst = Files.createDirectory(top.resolve("dst"));
        Files.writeString(src.resolve("f"), "data");
        pairs = List.of(Roots.check(src.toString(), dst.toString()));
    }

    @AfterEach
    void remove() throws IOException {
        try (Stream<Path> all = Files.walk(top)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    private static byte[] bytes(Path p) {
        return PathBytes.of(p.toString());
    }

    private String logRefusal(Path log, List<Roots> pairs) {
        return assertThrows(UsageException.class, () -> OutputPlaces.checkDirectory("--log", bytes(log), pairs)).getMessage();
    }

    private String reportRefusal(Path report) {
        return assertThrows(UsageException.class, () -> OutputPlaces.checkFile("--report", bytes(report), pairs)).getMessage();
    }

    private List<String> names() throws IOException {
        try (Stream<Path> all = Files.walk(top)) {
            return all.map(p -> top.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void aLogBesideTheTreesIsTakenAndItsProbeLeavesNothing() throws IOException {
        List<String> before = names();
        OutputPlaces.checkDirectory("--log", bytes(top.resolve("srcx/logs")), pairs);
        OutputPlaces.checkDirectory("--log", bytes(top.resolve("dst-logs")), pairs);
        OutputPlaces.checkDirectory("--log", bytes(top), pairs);
        OutputPlaces.checkFile("--report", bytes(top.resolve("dstx.json")), pairs);
        assertEquals(before, names());
    }

    @Test
    void aLogInsideSrcOrDstIsRefusedNamingTheTree() throws IOException {
        assertEquals("--log " + src.resolve("logs") + " is inside the source " + src + ": refused, the walk would list it; put it outside SRC and DST",
                logRefusal(src.resolve("logs"), pairs));
        assertEquals("--log " + src + " is inside the source " + src + ": refused, the walk would list it; put it outside SRC and DST",
                logRefusal(src, pairs));
        assertEquals("--log " + dst.resolve("a/b") + " is inside the destination " + dst
                + ": refused, the copy and --delete would meet it; put it outside SRC and DST", logRefusal(dst.resolve("a/b"), pairs));
        Path link = Files.createSymbolicLink(top.resolve("link"), src);
        assertEquals("--log " + link + " is inside the source " + src + ": refused, the walk would list it; put it outside SRC and DST",
                logRefusal(link, pairs), "by identity, not by name");
        assertEquals("--report " + dst.resolve("r.json") + " is inside the destination " + dst
                + ": refused, the copy and --delete would meet it; put it outside SRC and DST", reportRefusal(dst.resolve("r.json")));
    }

    @Test
    void aLogInsideADestinationNotMadeYetIsRefusedByName() {
        Path later = top.resolve("later");
        List<Roots> missing = List.of(Roots.check(src.toString(), later.toString()));
        assertEquals("--log " + later.resolve("logs") + " is inside the destination " + later
                + ": refused, the copy and --delete would meet it; put it outside SRC and DST", logRefusal(later.resolve("logs"), missing));
        OutputPlaces.checkDirectory("--log", bytes(top.resolve("laterx")), missing);
    }

    @Test
    void aFileAsSourceLeavesItsDirectoryFreeForTheLog() {
        List<Roots> file = List.of(Roots.checkFile(bytes(src.resolve("f")), bytes(dst.resolve("g"))));
        OutputPlaces.checkDirectory("--log", bytes(src.resolve("logs")), file);
    }

    @Test
    void whatIsNotADirectoryOnTheWayIsNamed() {
        Path f = src.resolve("f");
        assertEquals("--log " + f + " is not a directory", logRefusal(f, List.of()));
        assertEquals("--log " + f.resolve("logs") + ": " + f + " is not a directory", logRefusal(f.resolve("logs"), List.of()));
        assertEquals("--report " + top.resolve("src") + " is a directory", reportRefusal(top.resolve("src")));
    }

    @Test
    void aSymlinkWhoseTargetIsMissingIsRefusedBeforeAnythingIsWritten() throws IOException {
        Path dangling = Files.createSymbolicLink(top.resolve("dangling"), top.resolve("nowhere"));
        String why = " a symlink whose target does not exist: refused before anything is written; make its target, or name another path";
        assertEquals("--log " + dangling + " is" + why, logRefusal(dangling, List.of()));
        assertEquals("--log " + dangling.resolve("logs") + ": " + dangling + " is" + why, logRefusal(dangling.resolve("logs"), List.of()));
        assertEquals("--report " + dangling + " is" + why, reportRefusal(dangling));
        Path toDirectory = Files.createSymbolicLink(top.resolve("to-dir"), top);
        assertEquals("--report " + toDirectory + " is a directory", reportRefusal(toDirectory));
        OutputPlaces.checkDirectory("--log", bytes(toDirectory.resolve("logs")), List.of());
    }

    @Test
    void aPathThatCannotBeLookedAtIsNamedWithTheReason() throws IOException {
        Path loop = Files.createSymbolicLink(top.resolve("loop"), top.resolve("loop"));
        assertEquals("--log " + loop.resolve("x") + ": cannot use " + loop.resolve("x") + ": Too many levels of symbolic links",
                logRefusal(loop.resolve("x"), List.of()));
    }
}
