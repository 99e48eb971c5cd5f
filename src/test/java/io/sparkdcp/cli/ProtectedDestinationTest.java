package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An entry immutable or append-only at DST (chattr on real XFS) is neither deleted, replaced, given
 * other metadata nor unlocked, and no name is made or removed in such a directory, unless the source's
 * entry carries the same lock: the run fails it as {@code protected at DST (...)}, exit 1, and leaves it
 * as it was. The dry run says so; the executors' runs do as the threads' do.
 */
class ProtectedDestinationTest {
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("protected", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void syncDeleteLeavesAnImmutableFileTheSourceLacks() throws IOException {
        Pair p = pair("delete");
        Files.writeString(p.src.resolve("a"), "a");
        lock(write(p.dst.resolve("extra"), "the admin's"), "+i");

        CommandLineRun run = sync(p, "--delete");
        assertRefused(run, "extra", "protected at DST (immutable)");
        assertEquals("the admin's", Files.readString(p.dst.resolve("extra")));
        assertEquals("i", locks(p.dst.resolve("extra")));
        assertEquals("a", Files.readString(p.dst.resolve("a")), "the rest is synced");
    }

    @Test
    void aDirectoryHoldingAnAppendOnlyFileStays() throws IOException {
        Pair p = pair("holder");
        Path old = Files.createDirectories(p.dst.resolve("old/deeper"));
        lock(write(old.resolve("log"), "appended"), "+a");
        write(p.dst.resolve("old/plain"), "deleted");

        CommandLineRun run = sync(p, "--delete");
        assertRefused(run, "old/deeper/log", "protected at DST (append-only)");
        assertTrue(Files.isDirectory(p.dst.resolve("old/deeper")));
        assertEquals("appended", Files.readString(old.resolve("log")));
        assertFalse(Files.exists(p.dst.resolve("old/plain")), "what is not protected is deleted");
        assertTrue(run.out().contains("old/deeper: unlinkat ENOTEMPTY: not empty") || run.err().contains("old/deeper: unlinkat ENOTEMPTY: not empty"),
                run.out() + run.err());
    }

    @Test
    void copyDoesNotReplaceAnImmutableFileWhoseSourceIsNot() throws IOException {
        Pair p = pair("replace");
        write(p.src.resolve("f"), "new data");
        lock(write(p.dst.resolve("f"), "old"), "+i");

        CommandLineRun run = CommandLineRun.of("copy", p.src + "/", p.dst.toString());
        assertRefused(run, "f", "protected at DST (immutable)");
        assertEquals("old", Files.readString(p.dst.resolve("f")));
        assertEquals("i", locks(p.dst.resolve("f")));
        try (Stream<Path> names = Files.list(p.dst)) {
            assertEquals(List.of(p.dst.resolve("f")), names.toList(), "no temporary left");
        }
    }

    @Test
    void syncDoesNotFixTheMetadataOfAnAppendOnlyFile() throws IOException {
        Pair p = pair("fix");
        write(p.src.resolve("f"), "same");
        assertEquals(0, sync(p).exitCode());
        Files.setPosixFilePermissions(p.src.resolve("f"), PosixFilePermissions.fromString("rw-------"));
        lock(p.dst.resolve("f"), "+a");
        String before = Files.getPosixFilePermissions(p.dst.resolve("f")).toString();

        CommandLineRun run = sync(p);
        assertRefused(run, "f", "protected at DST (append-only)");
        assertEquals(before, Files.getPosixFilePermissions(p.dst.resolve("f")).toString());
        assertEquals("a", locks(p.dst.resolve("f")));
    }

    @Test
    void syncDoesNotReplaceAnImmutableFileWithAnotherType() throws IOException {
        Pair p = pair("type");
        Files.createSymbolicLink(p.src.resolve("link"), Path.of("target"));
        lock(write(p.dst.resolve("link"), "a file"), "+i");
        Files.createDirectory(p.src.resolve("dir"));
        lock(write(p.dst.resolve("dir"), "a file where SRC has a directory"), "+i");

        CommandLineRun run = sync(p, "--delete");
        assertRefused(run, "link", "protected at DST (immutable)");
        assertRefused(run, "dir", "protected at DST (immutable)");
        assertTrue(Files.isRegularFile(p.dst.resolve("link"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isRegularFile(p.dst.resolve("dir"), LinkOption.NOFOLLOW_LINKS));
        assertEquals("i", locks(p.dst.resolve("link")));
    }

    @Test
    void nothingIsMadeOrRemovedInADirectoryLockedOnlyAtTheDestination() throws IOException {
        Pair p = pair("parent");
        Path srcDir = Files.createDirectory(p.src.resolve("dir"));
        write(srcDir.resolve("keep"), "keep");
        assertEquals(0, sync(p).exitCode());
        write(srcDir.resolve("new"), "new");
        write(p.dst.resolve("dir/extra"), "extra");
        lock(p.dst.resolve("dir"), "+i");

        CommandLineRun run = sync(p, "--delete");
        assertRefused(run, "dir/new", "in a directory protected at DST (immutable)");
        assertRefused(run, "dir/extra", "in a directory protected at DST (immutable)");
        assertRefused(run, "dir", "protected at DST (immutable)");
        assertFalse(Files.exists(p.dst.resolve("dir/new")));
        assertTrue(Files.exists(p.dst.resolve("dir/extra")));
        assertEquals("i", locks(p.dst.resolve("dir")), "never unlocked");
    }

    @Test
    void entriesWhoseSourceCarriesTheSameLockAreStillSynced() throws IOException {
        Pair p = pair("same");
        Path srcDir = Files.createDirectory(p.src.resolve("dir"));
        write(srcDir.resolve("gone"), "to be deleted");
        write(p.src.resolve("f"), "first");
        lock(srcDir, "+i");
        lock(p.src.resolve("f"), "+i");
        assertEquals(0, sync(p).exitCode());
        lock(srcDir, "-i");
        Files.delete(srcDir.resolve("gone"));
        lock(srcDir, "+i");
        lock(p.src.resolve("f"), "-i");
        write(p.src.resolve("f"), "second, longer");
        lock(p.src.resolve("f"), "+i");

        CommandLineRun run = sync(p, "--delete");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals("second, longer", Files.readString(p.dst.resolve("f")));
        assertFalse(Files.exists(p.dst.resolve("dir/gone")));
        assertEquals("i", locks(p.dst.resolve("f")));
        assertEquals("i", locks(p.dst.resolve("dir")));
    }

    /** The dry run names what the run refuses; on Spark, the driver's plan and the executors' do as the threads do. */
    @Test
    void theDryRunAndTheSparkRunsRefuseAsTheThreadsDo() throws IOException {
        Pair threads = protectedTree("threads");
        CommandLineRun dry = sync(threads, "--delete", "--dry-run");
        assertTrue(dry.out().contains("refuse: extra: protected at DST (immutable)\n"), dry.out());
        assertTrue(dry.out().contains("refuse: dir/new: in a directory protected at DST (append-only)\n"), dry.out());
        assertTrue(dry.out().contains("refuse: holder: not empty"), dry.out());
        assertFalse(dry.out().contains("delete: extra"), dry.out());
        CommandLineRun dryOnExecutors = sync(threads, "--delete", "--dry-run", "--master", "local[2]", "--walk", "distributed");
        assertEquals(dry.out(), dryOnExecutors.out(), dryOnExecutors.err());

        CommandLineRun run = sync(threads, "--delete");
        List<String> expected = refusedPaths(run);
        assertEquals(List.of("dir", "dir/extra", "dir/new", "extra", "holder", "holder/log"), expected, run.out() + run.err());
        for (String[] spark : List.of(new String[]{"--master", "local[2]"}, new String[]{"--master", "local[2]", "--walk", "distributed"})) {
            Pair p = protectedTree("spark" + spark.length);
            List<String> args = new ArrayList<>(List.of("--delete"));
            args.addAll(List.of(spark));
            assertEquals(expected, refusedPaths(sync(p, args.toArray(String[]::new))), String.join(" ", spark));
            assertEquals("i", locks(p.dst.resolve("extra")));
            assertEquals("a", locks(p.dst.resolve("holder/log")));
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private record Pair(Path src, Path dst) {}

    private static Pair pair(String name) throws IOException {
        return new Pair(Files.createDirectories(mount.dir().resolve(name + "/src")), Files.createDirectories(mount.dir().resolve(name + "/dst")));
    }

    /** A DST-only immutable file, a DST-only directory holding an append-only one, and an append-only directory only DST locks. */
    private static Pair protectedTree(String name) throws IOException {
        Pair p = pair(name);
        write(p.src.resolve("a"), "a");
        Path dir = Files.createDirectory(p.src.resolve("dir"));
        write(dir.resolve("keep"), "keep");
        assertEquals(0, sync(p).exitCode());
        write(dir.resolve("new"), "new");
        write(p.dst.resolve("dir/extra"), "extra");
        lock(p.dst.resolve("dir"), "+a");
        lock(write(p.dst.resolve("extra"), "the admin's"), "+i");
        Files.createDirectory(p.dst.resolve("holder"));
        lock(write(p.dst.resolve("holder/log"), "log"), "+a");
        return p;
    }

    private static CommandLineRun sync(Pair p, String... options) {
        List<String> args = new ArrayList<>(List.of("sync"));
        args.addAll(List.of(options));
        args.addAll(List.of(p.src + "/", p.dst.toString()));
        return CommandLineRun.of(args.toArray(String[]::new));
    }

    private static void assertRefused(CommandLineRun run, String path, String reason) {
        String all = run.out() + run.err();
        assertEquals(1, run.exitCode(), all);
        assertTrue(all.lines().anyMatch(l -> l.contains(path + ": ") && l.contains(reason)), path + " refused as " + reason + ":\n" + all);
    }

    /** The paths the run names as protected or not emptied, sorted. */
    private static List<String> refusedPaths(CommandLineRun run) {
        return (run.out() + run.err()).lines()
                .filter(l -> l.contains("protected at DST") || l.contains("not empty"))
                .filter(l -> !l.startsWith("refuse: "))
                .map(l -> l.replaceFirst("^.*failed: ", "").replaceFirst(": .*", ""))
                .distinct().sorted().toList();
    }

    private static Path write(Path p, String data) throws IOException {
        return Files.writeString(p, data);
    }

    /** chattr through xfs_io (read-only open: an append-only file opens only so). */
    private static Path lock(Path p, String change) {
        Commands.run("xfs_io", "-r", "-c", "chattr " + change, p.toString());
        return p;
    }

    /** The locks lsattr shows: "i", "a", "ia" or "". */
    private static String locks(Path p) {
        String attrs = Commands.run("lsattr", "-d", p.toString()).trim().split("\\s+")[0];
        return (attrs.contains("i") ? "i" : "") + (attrs.contains("a") ? "a" : "");
    }
}
