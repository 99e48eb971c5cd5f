package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.SwappingPhaseRunner;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20: a file, a symlink or a special file named as SRC, on XFS, through the CLI as users type
 * it (and the Java API). Each goes through the same engine as a tree's entries: every piece of
 * metadata (compared by the compare command's rules, project IDs, xattrs, ACLs and bytes included),
 * chunks for a large file. Every form that copies runs twice: the second run copies and fixes nothing,
 * and leaves every inode and ctime of DST as the first run left them.
 */
class FileSourcesTest {
    private static final AtomicInteger RUNS = new AtomicInteger();
    /** Entries of the rich tree that are not directories: files of every kind of metadata, a FIFO, a device, symlinks. */
    private static final List<String> FILES = List.of(RichTree.SMALL_FILE, RichTree.XATTR_FILE, RichTree.ACL_FILE,
            RichTree.OWNED_1001, RichTree.SETUID_FILE, RichTree.SETGID_FILE, RichTree.MODE_0000, RichTree.PROJECT_99_FILE,
            RichTree.PROJECT_77_FILE, RichTree.SPARSE_FILE, RichTree.HARD_LINK_PAIR.get(0), RichTree.FIFO,
            RichTree.CHAR_DEVICE, RichTree.SYMLINK_RELATIVE, RichTree.SYMLINK_TO_DIR, RichTree.SYMLINK_OWNED);
    private static LoopMount mount;
    private static RichTree rich;

    @BeforeAll
    static void mount() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("filesources", 400);
        rich = RichTree.build(Files.createDirectory(mount.dir().resolve("rich")));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void eachKindOfFileGoesIntoAnExistingDirectoryWithAllItsMetadata() throws IOException {
        for (String file : FILES) {
            Path src = rich.resolve(file);
            Path dst = Files.createDirectories(mount.dir().resolve("into/" + RUNS.incrementAndGet()));
            JsonNode first = twice("copy", src.toString(), dst.toString());
            assertEquals(1, first.get("copied").asLong(), file + ": " + first);
            assertEquals(List.of(src.getFileName().toString()), TreeFiles.names(dst), file);
            TreeComparator.assertSameEntry(src, dst.resolve(src.getFileName()));
        }
    }

    @Test
    void eachKindOfFileBecomesAMissingDestinationWithSyncToo() throws IOException {
        for (String file : FILES) {
            Path src = rich.resolve(file);
            Path base = Files.createDirectories(mount.dir().resolve("onto/" + RUNS.incrementAndGet()));
            Path dst = base.resolve("B");
            twice("sync", src.toString(), dst.toString()); // B missing, then B the file: the same result
            assertEquals(List.of("B"), TreeFiles.names(base), file);
            TreeComparator.assertSameEntry(src, dst);
            assertEquals(0, CommandLineRun.of("compare", src.toString(), dst.toString()).exitCode(), file);
        }
    }

    @Test
    void aSymlinkIsCopiedAsTheLinkAndWithTheSlashFollowed() throws IOException {
        Path target = rich.resolve("deep");
        Path link = Files.createSymbolicLink(mount.dir().resolve("link-to-deep"), target);
        Path b = Files.createDirectories(mount.dir().resolve("links/B"));
        twice("copy", link.toString(), b.toString());
        assertTrue(Files.isSymbolicLink(b.resolve("link-to-deep")), "the link itself, as rsync -a copies it");
        assertEquals(target, Files.readSymbolicLink(b.resolve("link-to-deep")));
        Path c = mount.dir().resolve("links/C");
        twice("copy", link + "/", c.toString());
        TreeComparator.assertSameTree(target, c);
    }

    @Test
    void filesAndDirectoriesMixedGoSideBySideInDst() throws IOException {
        assertMixed("mixed", RichTree.SMALL_FILE, "copy");
    }

    @Test
    void onSparkAFileBesideADirectoryListedByTheExecutorsIsCopiedOnTheDriversPlan() throws IOException {
        assertMixed("spark", RichTree.XATTR_FILE, "sync", "--master", "local[2]", "--walk", "distributed");
    }

    /** {@code COMMAND... deep FILE B}, twice: B holds deep and the file side by side, each an exact copy. */
    private static void assertMixed(String place, String file, String... command) throws IOException {
        Path a = rich.resolve("deep");
        Path f = rich.resolve(file);
        Path b = Files.createDirectories(mount.dir().resolve(place)).resolve("B");
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of(a.toString(), f.toString(), b.toString()));
        JsonNode first = twice(args.toArray(String[]::new));
        assertEquals(List.of("deep", f.getFileName().toString()), TreeFiles.names(b));
        TreeComparator.assertSameTree(a, b.resolve("deep"));
        TreeComparator.assertSameEntry(f, b.resolve(f.getFileName()));
        assertEquals(TreeFiles.everything(a).size() + 1, first.get("copied").asLong(), first.toString());
    }

    @Test
    void theEntryComparisonSeesWhatDiffers() throws IOException {
        Path f = rich.resolve(RichTree.PROJECT_99_FILE);
        Path b = Files.createDirectories(mount.dir().resolve("differs"));
        twice("copy", f.toString(), b.toString());
        Path copy = b.resolve(f.getFileName());
        Commands.run("xfs_io", "-c", "chproj 5", copy.toString());
        Commands.run("chmod", "0601", copy.toString());
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> TreeComparator.assertSameEntry(f, copy));
        assertTrue(e.getMessage().contains("project_id") && e.getMessage().contains("mode"), e.getMessage());
    }

    @Test
    void aLargeFileIsCopiedInChunksByTasks() throws IOException {
        Path big = rich.resolve(RichTree.BIG_FILE);
        Path b = Files.createDirectories(mount.dir().resolve("large/B"));
        JsonNode report = run("copy", "--chunk-size", "1M", "--batch-bytes", "1M", big.toString(), b.toString());
        // 3 MiB and 123 bytes in chunks of 1 MiB: four data steps, each a task's chunk, for one file copied.
        assertEquals(1, report.get("copied").asLong(), report.toString());
        assertEquals(4, report.at("/steps/data/count").asLong(), report.toString());
        TreeComparator.assertSameEntry(big, b.resolve("big.bin"));
        twice("sync", "--chunk-size", "1M", big.toString(), mount.dir().resolve("large/as-file").toString());
        TreeComparator.assertSameEntry(big, mount.dir().resolve("large/as-file"));
    }

    @Test
    void aMissingParentIsRefusedUnlessMkpath() throws IOException {
        Path f = rich.resolve(RichTree.SMALL_FILE);
        Path x = mount.dir().resolve("mkpath/X");
        for (String command : List.of("copy", "sync")) {
            CommandLineRun refused = CommandLineRun.of(command, f.toString(), x.resolve("Y/B").toString());
            assertEquals(2, refused.exitCode(), refused.err());
            assertTrue(refused.err().contains("does not exist") && refused.err().contains("--mkpath"), refused.err());
            assertFalse(Files.exists(x), "nothing created");
        }
        twice("copy", "--mkpath", f.toString(), x.resolve("Y/B").toString());
        TreeComparator.assertSameEntry(f, x.resolve("Y/B"));
        twice("copy", "--mkpath", f.toString(), x.resolve("Z/C/").toString() + "/"); // DST written as a directory
        TreeComparator.assertSameEntry(f, x.resolve("Z/C/" + RichTree.SMALL_FILE));
    }

    @Test
    void aFileWithATrailingSlashOrOntoItselfIsRefusedAndNothingChanges() throws IOException {
        Path dir = Files.createDirectories(mount.dir().resolve("refused"));
        Path f = Files.writeString(dir.resolve("f"), "precious");
        Files.createLink(dir.resolve("f-too"), f);
        List<Path> before = TreeFiles.everything(dir);
        for (String command : List.of("copy", "sync")) {
            CommandLineRun slash = CommandLineRun.asLaunched(command, f + "/", dir.resolve("out").toString());
            assertEquals(2, slash.exitCode(), slash.err());
            assertTrue(slash.err().contains("is not a directory"), slash.err());
            for (String dst : List.of(dir.toString(), f.toString(), dir.resolve("f-too").toString())) {
                CommandLineRun itself = CommandLineRun.asLaunched(command, f.toString(), dst);
                assertEquals(2, itself.exitCode(), itself.err());
                assertTrue(itself.err().contains("itself"), itself.err());
            }
        }
        assertEquals(before, TreeFiles.everything(dir));
        assertEquals("precious", Files.readString(f));
    }

    @Test
    void theDryRunOfAFileSaysWhatTheRunDoesAndChangesNothing() throws IOException {
        Path f = rich.resolve(RichTree.SMALL_FILE);
        Path b = Files.createDirectories(mount.dir().resolve("dry/B"));
        Files.writeString(b.resolve("beside.txt"), "stays");
        CommandLineRun dry = CommandLineRun.of("sync", "--delete", "--dry-run", f.toString(), b.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("copy: " + RichTree.SMALL_FILE + "\n"), dry.out());
        assertTrue(dry.out().contains("would copy 1, fix metadata of 0, delete 0;"), dry.out());
        assertEquals(List.of("beside.txt"), TreeFiles.names(b), "a dry run changes nothing");
        CommandLineRun onto = CommandLineRun.of("copy", "--dry-run", f.toString(), b.resolve("new").toString());
        assertTrue(onto.out().contains("copy: new\n"), onto.out());
        twice("sync", f.toString(), b.toString());
        CommandLineRun after = CommandLineRun.of("sync", "--dry-run", f.toString(), b.toString());
        assertTrue(after.out().contains("would copy 0, fix metadata of 0, delete 0; 1 unchanged"), after.out());
    }

    @Test
    void syncDeleteWithAFileDeletesNothingBesideIt() throws IOException {
        Path f = rich.resolve(RichTree.SMALL_FILE);
        Path b = Files.createDirectories(mount.dir().resolve("delete/B"));
        Files.writeString(b.resolve("beside.txt"), "not the file's");
        Files.createDirectories(b.resolve("dir"));
        JsonNode first = twice("sync", "--delete", f.toString(), b.toString());
        assertEquals(0, first.get("deleted").asLong(), first.toString());
        assertEquals(List.of("beside.txt", "dir", RichTree.SMALL_FILE), TreeFiles.names(b));
        assertEquals("not the file's", Files.readString(b.resolve("beside.txt")));
    }

    @Test
    void theJavaApiTakesFilesAndAFileChangedOrSwappedDuringTheCopyIsNotReportedCopied() throws IOException {
        Path dir = Files.createDirectories(mount.dir().resolve("api/src"));
        Path grows = Files.write(dir.resolve("grows"), new byte[100_000]);
        Path swapped = Files.writeString(dir.resolve("swapped"), "a file at the walk");
        Path secret = Files.writeString(mount.dir().resolve("api/secret"), "outside SRC");
        Path b = Files.createDirectories(mount.dir().resolve("api/B"));
        // Each source is listed when its turn comes: the change comes after the listing of that source.
        Failure grew = failsAfterChange(grows, b, () -> Files.write(grows, new byte[3], StandardOpenOption.APPEND));
        assertTrue(grew.message().contains("source changed during copy"), grew.toString());
        assertFalse(Files.exists(b.resolve("grows")), "no partial copy under the final name");
        Failure followed = failsAfterChange(swapped, b, () -> {
            Files.delete(swapped);
            Files.createSymbolicLink(swapped, secret);
        });
        assertEquals("ELOOP", followed.errno(), followed.toString());
        assertFalse(Files.exists(b.resolve("swapped"), LinkOption.NOFOLLOW_LINKS), "nothing read through the symlink");
        // The next run copies what SRC holds now: the grown file, and the symlink as a symlink.
        CopyResult again = SparkDcp.prepare(List.of(grows.toString(), swapped.toString()), b.toString(),
                CopyRequest.builder().build()).runInProcess();
        assertEquals(0, again.exitCode(), again.failures().toString());
        assertEquals(2, again.report().counts().copied(), again.toString());
        TreeComparator.assertSameEntry(grows, b.resolve("grows"));
        assertEquals(secret, Files.readSymbolicLink(b.resolve("swapped")));
    }

    private interface Change {
        void run() throws IOException;
    }

    /** Copies the file into b through the Java API, changing it after its listing; returns its one failure. */
    private static Failure failsAfterChange(Path file, Path b, Change change) {
        SwappingPhaseRunner runner = new SwappingPhaseRunner(new LocalPhaseRunner(2), "copy files", () -> {
            try {
                change.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        CopyResult result = SparkDcp.prepare(List.of(file.toString()), b.toString(), CopyRequest.builder().build()).runOn(runner);
        assertTrue(runner.swapped());
        assertEquals(1, result.exitCode(), result.toString());
        assertEquals(0, result.report().counts().copied(), result.toString());
        assertEquals(1, result.failures().size(), result.failures().toString());
        assertEquals(file.getFileName().toString(), result.failures().get(0).path());
        return result.failures().get(0);
    }

    /**
     * Runs the command twice with a JSON report: both succeed, and the second copies, fixes and deletes
     * nothing, makes nothing new and rewrites nothing (every inode and ctime of DST's entries unchanged).
     * Returns the first report.
     */
    private static JsonNode twice(String... args) throws IOException {
        Path dst = Path.of(args[args.length - 1]);
        Path top = Files.isDirectory(dst, LinkOption.NOFOLLOW_LINKS) || args[args.length - 1].endsWith("/") ? dst : dst.getParent();
        JsonNode first = run(args);
        Map<Path, List<Object>> after = inodesAndCtimes(top);
        JsonNode second = run(args);
        for (String count : List.of("copied", "metadata_fixed", "deleted", "failed"))
            assertEquals(0, second.get(count).asLong(), count + " on the second run: " + second);
        assertEquals(after, inodesAndCtimes(top), "the second run rewrote or made something");
        return first;
    }

    private static Map<Path, List<Object>> inodesAndCtimes(Path dir) throws IOException {
        Map<Path, List<Object>> out = new LinkedHashMap<>();
        for (Path p : TreeFiles.everything(dir))
            out.put(p, List.of(Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS),
                    Files.getAttribute(p, "unix:ctime", LinkOption.NOFOLLOW_LINKS)));
        return out;
    }

    private static JsonNode run(String... args) throws IOException {
        return CommandLineRun.succeeded(mount.dir().resolve("report-" + RUNS.incrementAndGet() + ".json"), args);
    }

}
