package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20 on XFS, through the CLI as users type it: rsync's trailing-slash rule, several sources,
 * a missing DST parent, same-name sources, and sync --delete against rsync -a --delete. Every form
 * that copies is run twice: the second run copies, fixes and deletes nothing, and makes nothing new.
 */
class SourceFormsTest {
    private static final AtomicInteger RUNS = new AtomicInteger();
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("sourceforms", 300);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void aTrailingSlashCopiesTheContentsIntoDst() throws IOException {
        Path a = tree("slash/A");
        Path b = mount.dir().resolve("slash/B");
        twice("copy", a + "/", b.toString());
        TreeComparator.assertSameTree(a, b);
    }

    @Test
    void withoutTheSlashTheDirectoryItselfGoesToDstSlashName() throws IOException {
        Path a = tree("noslash/A");
        Path b = mount.dir().resolve("noslash/B");
        twice("copy", a.toString(), b.toString()); // B missing on the first run, there on the second: same result
        TreeComparator.assertSameTree(a, b.resolve("A"));
        assertEquals(List.of("A"), TreeFiles.names(b));
        assertFalse(Files.exists(b.resolve("A/A")));
    }

    @Test
    void severalDirectoriesAreOneJobWithOneReport() throws IOException {
        Path a = tree("several/A");
        Path c = tree("several/C");
        Path b = Files.createDirectories(mount.dir().resolve("several/B"));
        JsonNode first = twice("copy", a.toString(), c.toString(), b.toString());
        TreeComparator.assertSameTree(a, b.resolve("A"));
        TreeComparator.assertSameTree(c, b.resolve("C"));
        assertEquals(List.of("A", "C"), TreeFiles.names(b));
        assertEquals(2 * TreeFiles.everything(a).size(), first.get("copied").asLong(), first.toString());
        assertEquals(b.toString(), first.get("destination").asText());
    }

    @Test
    void failuresOfSeveralSourcesAreShownByTheirPathInDst() throws IOException {
        Path a = tree("fail/A");
        Path c = tree("fail/C");
        Path b = Files.createDirectories(mount.dir().resolve("fail/B"));
        Files.createDirectories(b.resolve("C"));
        Files.writeString(b.resolve("C/sub"), "a file where C has a directory");
        Path report = mount.dir().resolve("fail/report.json");
        CommandLineRun run = CommandLineRun.of("copy", "--report", report.toString(), a.toString(), c.toString(), b.toString());
        assertEquals(1, run.exitCode(), run.err());
        JsonNode failures = new ObjectMapper().readTree(report.toFile()).get("failures");
        assertTrue(failures.size() > 0, failures.toString());
        failures.forEach(f -> assertTrue(f.get("path").asText().startsWith("C/sub"), failures.toString()));
        assertTrue(run.err().contains("spark-dcp: failed: C/sub: "), run.err());
        TreeComparator.assertSameTree(a, b.resolve("A"));
    }

    @Test
    void aDeviceNamedAsTheDestinationOfAFileIsRefusedNotReplaced() throws IOException {
        Path dir = Files.createDirectories(mount.dir().resolve("device"));
        Path file = Files.writeString(dir.resolve("f"), "data");
        Path device = dir.resolve("null");
        Commands.run("mknod", "-m", "666", device.toString(), "c", "1", "3"); // /dev/null's numbers
        for (String command : List.of("copy", "sync")) {
            CommandLineRun refused = CommandLineRun.of(command, file.toString(), device.toString());
            assertEquals(2, refused.exitCode(), refused.err());
            assertTrue(refused.err().contains("destination " + device + " is a character device"), refused.err());
            assertEquals("c", Commands.run("stat", "-c", "%F", device.toString()).substring(0, 1), "still the device");
        }
    }

    @Test
    void aMissingDestinationParentIsRefusedUnlessMkpath() throws IOException {
        Path a = tree("mkpath/A");
        Path x = mount.dir().resolve("mkpath/X");
        for (String command : List.of("copy", "sync")) {
            CommandLineRun refused = CommandLineRun.of(command, a.toString(), x.resolve("Y/B").toString());
            assertEquals(2, refused.exitCode(), refused.err());
            assertTrue(refused.err().contains("does not exist") && refused.err().contains("--mkpath"), refused.err());
            assertFalse(Files.exists(x), "nothing created");
        }
        twice("copy", "--mkpath", a.toString(), x.resolve("Y/B").toString());
        TreeComparator.assertSameTree(a, x.resolve("Y/B/A"));
    }

    @Test
    void sourcesWithTheSameNameOrOntoDstItselfAreRefusedBeforeAnythingIsWritten() throws IOException {
        Path a1 = tree("same/one/A");
        Path a2 = tree("same/two/A");
        Path b = mount.dir().resolve("same/B");
        CommandLineRun same = CommandLineRun.of("copy", a1.toString(), a2.toString(), b.toString());
        assertEquals(2, same.exitCode(), same.err());
        assertTrue(same.err().contains("both map to " + b.resolve("A")), same.err());
        CommandLineRun contents = CommandLineRun.of("sync", "--delete", a1 + "/", a2.getParent().toString(), b.toString());
        assertEquals(2, contents.exitCode(), contents.err());
        assertTrue(contents.err().contains("onto DST itself"), contents.err());
        // One source fine, the other containing DST: the whole run is refused.
        CommandLineRun containing = CommandLineRun.of("copy", a1.toString(), a2.getParent().toString(), a2.resolve("out").toString());
        assertEquals(2, containing.exitCode(), containing.err());
        assertTrue(containing.err().contains("inside the source"), containing.err());
        assertFalse(Files.exists(b));
        assertFalse(Files.exists(a2.resolve("out")));
    }

    @Test
    void syncDeleteDeletesWhatRsyncDeletesWithAndWithoutTheSlash() throws IOException {
        for (String form : List.of("A", "A/")) {
            Path base = Files.createDirectories(mount.dir().resolve("delete" + RUNS.incrementAndGet()));
            Path a = tree(base.getFileName() + "/A");
            Path b = Files.createDirectories(base.resolve("rsync/B"));
            Files.writeString(b.resolve("beside.txt"), "not A's"); // outside B/A: only A/ may delete it
            Files.createDirectories(b.resolve("A/gone/deeper"));
            Files.writeString(b.resolve("A/gone/deeper/x"), "A lacks this");
            Files.writeString(b.resolve("A/top.txt"), "old");
            Files.createDirectories(b.resolve("gone-too"));
            Files.createDirectories(base.resolve("spark-dcp"));
            Commands.run("cp", "-a", b.toString(), base.resolve("spark-dcp/B").toString()); // the same tree, times and all
            List<Path> destinations = List.of(b, base.resolve("spark-dcp/B"));
            String source = base.resolve(form).toString() + (form.endsWith("/") ? "/" : "");
            Commands.run("rsync", "-a", "--delete", source, destinations.get(0).toString());
            JsonNode first = twice("sync", "--delete", source, destinations.get(1).toString());
            assertTrue(first.get("deleted").asLong() > 0, first.toString());
            TreeComparator.assertSameTree(destinations.get(0), destinations.get(1));
            assertEquals(form.equals("A"), Files.exists(destinations.get(1).resolve("beside.txt")), form);
        }
    }

    @Test
    void aSyncIntoANewDestinationCountsItsRootAsCopiedAndSaysSync() throws IOException {
        Path a = tree("syncroot/A");
        Path b = mount.dir().resolve("syncroot/B");
        Path report = mount.dir().resolve("syncroot/report.json");
        CommandLineRun run = CommandLineRun.of("sync", "--report", report.toString(), a + "/", b.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("spark-dcp sync "), run.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(0, json.get("metadata_fixed").asLong(), json.toString());
        assertEquals(TreeFiles.everything(a).size(), json.get("copied").asLong(), json.toString());
    }

    @Test
    void aSyncIntoANewDestinationOnTheExecutorsPlanCountsItsRootAsCopiedToo() throws IOException {
        Path a = tree("syncroot-executors/A");
        Path b = mount.dir().resolve("syncroot-executors/B");
        Path report = mount.dir().resolve("syncroot-executors/report.json");
        CommandLineRun run = CommandLineRun.of("sync", "--master", "local[2]", "--walk", "distributed", "--report",
                report.toString(), a + "/", b.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals("executors", json.at("/settings/listed_by").asText(), json.toString());
        assertEquals(0, json.get("metadata_fixed").asLong(), json.toString());
        assertEquals(TreeFiles.everything(a).size(), json.get("copied").asLong(), json.toString());
        TreeComparator.assertSameTree(a, b);
    }

    @Test
    void severalSourcesSaveOneListingEachThatALaterRunReadsBackInTheSameOrder() throws IOException {
        Path a = tree("listings/A");
        Path c = tree("listings/C");
        Path saved = mount.dir().resolve("listings/saved");
        JsonNode first = twice("copy", "--save-listing", saved.toString(), a.toString(), c.toString(),
                mount.dir().resolve("listings/B").toString());
        assertEquals(2 * TreeFiles.everything(a).size(), first.get("copied").asLong(), first.toString());
        assertTrue(Files.exists(saved.resolve("source-1/_SUCCESS")) && Files.exists(saved.resolve("source-2/_SUCCESS")));
        assertEquals(saved.toString(), first.at("/settings/listing_dir").asText(), "the report names DIR, not its last source-N");
        Path fromListing = mount.dir().resolve("listings/from-listing");
        JsonNode read = twice("sync", "--listing", saved.toString(), a.toString(), c.toString(), fromListing.toString());
        assertEquals("saved", read.at("/settings/listed_by").asText(), read.toString());
        assertEquals(saved.toString(), read.at("/settings/listing_dir").asText(), read.toString());
        TreeComparator.assertSameTree(a, fromListing.resolve("A"));
        TreeComparator.assertSameTree(c, fromListing.resolve("C"));
        CommandLineRun swapped = CommandLineRun.of("copy", "--listing", saved.toString(), c.toString(), a.toString(),
                mount.dir().resolve("listings/swapped").toString());
        assertEquals(2, swapped.exitCode(), swapped.err());
        assertTrue(swapped.err().contains("not of SRC"), swapped.err());
        assertFalse(Files.exists(mount.dir().resolve("listings/swapped")));
    }

    /**
     * Runs the command twice with a JSON report: both succeed, and the second copies, fixes and deletes
     * nothing and leaves DST's listing as the first left it. Returns the first report.
     */
    private static JsonNode twice(String... args) throws IOException {
        Path dst = Path.of(args[args.length - 1]);
        JsonNode first = run(args);
        List<Path> after = TreeFiles.everything(dst);
        JsonNode second = run(args);
        for (String count : List.of("copied", "metadata_fixed", "deleted", "failed"))
            assertEquals(0, second.get(count).asLong(), count + " on the second run: " + second);
        assertEquals(after, TreeFiles.everything(dst), "the second run made nothing new");
        return first;
    }

    private static JsonNode run(String... args) throws IOException {
        return CommandLineRun.succeeded(mount.dir().resolve("report-" + RUNS.incrementAndGet() + ".json"), args);
    }

    /** A small tree with files, a subdirectory, a symlink, modes and times of its own. */
    private static Path tree(String relative) throws IOException {
        Path root = Files.createDirectories(mount.dir().resolve(relative));
        Files.writeString(root.resolve("top.txt"), "top of " + relative);
        Path sub = Files.createDirectories(root.resolve("sub"));
        Files.write(sub.resolve("data.bin"), new byte[70_000]);
        Files.createSymbolicLink(sub.resolve("link"), Path.of("data.bin"));
        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwxr-x---"));
        // Times well in the past: rsync leaves a new entry's time alone when it is within the second of the source's.
        Commands.run("find", root.toString(), "-exec", "touch", "-h", "-d", "2020-01-01 00:00:00.123456789", "{}", "+");
        return root;
    }
}
