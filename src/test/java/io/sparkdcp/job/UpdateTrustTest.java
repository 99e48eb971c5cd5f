package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.CopyTreeMain;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.testing.TreeFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What --update keeps: only a file newer at DST than at SRC, which is always a complete copy a user
 * changed since, never one a run left half-written, whatever read it meanwhile and whatever times SRC
 * carries (an atime of 1970-01-01T00:00:01 included); and newer by its nanoseconds too.
 */
class UpdateTrustTest {
    private static final int MIB = 1 << 20;
    private static final long CHUNK = 4L * MIB;
    private static final LocalCopy UPDATE = LocalCopy.defaults().withChunkSize(CHUNK).withModes(CopyModes.of(CopyModes.Mode.UPDATE));
    private static final FileTime SRC_MTIME = FileTime.from(Instant.parse("2024-03-01T10:00:00.500000000Z"));
    private static LoopMount mount;
    private static LoopMount wholeSeconds;
    private static final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("update-trust", 700);
        wholeSeconds = LoopMount.createExt4("update-seconds", 300, "-I", "128");
    }

    @AfterAll
    static void unmount() {
        if (wholeSeconds != null) wholeSeconds.close();
        if (mount != null) mount.close();
    }

    /** SRC's atimes are kept exactly, the old mark's value included, and a file a user then edits at DST stays. */
    @Test
    void aSourceAtimeOfTheOldMarkIsCopiedAndAFileEditedAtDstIsKeptByUpdate() throws Exception {
        Path src = newDirectory("src");
        Path dst = newDirectory("dst");
        write(src.resolve("small"), 100);
        write(src.resolve("mib"), 2 * MIB);
        write(src.resolve("chunked"), 9 * MIB);
        for (String name : List.of("small", "mib", "chunked"))
            Commands.run("touch", "-a", "-d", "@1", src.resolve(name).toString()); // 1970-01-01T00:00:01Z

        CopyReport first = LocalCopy.defaults().withChunkSize(CHUNK).run(src, dst);
        assertEquals(List.of(), first.counts().failures());
        assertEquals(3, first.counts().copied(FileType.FILE));
        for (String name : List.of("small", "mib", "chunked")) { // by stat alone: a read would move DST's atime
            Stat copy = stat(dst.resolve(name));
            assertEquals(1, copy.atimeSec(), name + " has SRC's atime");
            assertEquals(0, copy.atimeNsec(), name + " has SRC's atime");
        }

        // The user edits each copy at DST: a write moves the mtime, never the atime.
        for (String name : List.of("small", "mib", "chunked"))
            Files.writeString(dst.resolve(name), "edited by a user", StandardOpenOption.APPEND);
        CopyReport update = UPDATE.run(src, dst);

        assertEquals(List.of(), update.counts().failures());
        assertEquals(3, update.counts().keptNewer(), "the user's edits are kept");
        assertEquals(0, update.counts().copied(FileType.FILE));
        for (String name : List.of("small", "mib", "chunked"))
            assertTrue(Files.readString(dst.resolve(name), java.nio.charset.StandardCharsets.ISO_8859_1).endsWith("edited by a user"), name);
    }

    /**
     * A copy killed while it wrote files (small, of a MiB or more, in chunks): every file under its final
     * name is complete. Something then reads every file at DST (as a backup scan would; relatime moves
     * their atimes), and the retry with --update copies what is missing, keeps nothing as newer, and
     * leaves no temporary.
     */
    @Test
    void aKilledCopyReadAtDstIsCompletedByItsUpdateRetry() throws Exception {
        killReadAndRetry(names -> names.stream().filter(n -> !n.startsWith(".spark-dcp.")).count() >= 60, 0);
    }

    /** The same killed while the large files' chunks are written (the kill comes once their copy has begun). */
    @Test
    void aCopyKilledInItsChunksReadAtDstIsCompletedByItsUpdateRetry() throws Exception {
        killReadAndRetry(names -> names.stream().anyMatch(n -> n.contains("large")), 50);
    }

    private void killReadAndRetry(Predicate<List<String>> killWhen, long thenMillis) throws Exception {
        Path src = newDirectory("src");
        Path dst = newDirectory("dst");
        for (int i = 0; i < 80; i++) write(src.resolve(String.format("small-%03d", i)), 3000 + i);
        for (int i = 0; i < 24; i++) write(src.resolve(String.format("mib-%02d", i)), 2 * MIB + i);
        for (int i = 0; i < 2; i++) write(src.resolve("large-" + i), 32 * MIB + i);

        killCopy(src, dst, killWhen, thenMillis);
        List<String> left = TreeFiles.names(dst);
        List<String> inPlace = left.stream().filter(n -> !n.startsWith(".spark-dcp.")).toList();
        long complete = 0;
        for (String name : inPlace) if (complete(src.resolve(name), dst.resolve(name))) complete++;
        assertTrue(complete < TreeFiles.names(src).size(), "killed before the end: " + left);
        for (String name : inPlace) {
            assertArrayEquals(Files.readAllBytes(src.resolve(name)), Files.readAllBytes(dst.resolve(name)), name + " has all its data");
            assertEquals(Files.getLastModifiedTime(src.resolve(name)), Files.getLastModifiedTime(dst.resolve(name)), name + " has its times");
        }
        Commands.bash("find '" + dst + "' -type f -exec cat {} + > /dev/null"); // every file read, temporaries too

        CopyReport retry = UPDATE.run(src, dst);

        assertEquals(List.of(), retry.counts().failures());
        assertEquals(0, retry.counts().keptNewer(), "nothing a killed run wrote is kept as newer");
        TreeComparator.assertSameTree(src, dst); // lists any temporary left behind too
    }

    /** Starts `copy --update --fsync` of src to dst in its own JVM and SIGKILLs it thenMillis after killWhen holds of dst's names. */
    private static void killCopy(Path src, Path dst, Predicate<List<String>> killWhen, long thenMillis) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CopyTreeMain.class.getName(), src.toString(), dst.toString(), "fd",
                "fsync", "update", "chunk=" + CHUNK));
        Process copy = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (copy.isAlive() && System.nanoTime() < deadline && !killWhen.test(TreeFiles.names(dst))) Thread.sleep(5);
            Thread.sleep(thenMillis);
            assertTrue(copy.isAlive(), "the copy runs until it is killed");
        } finally {
            copy.destroyForcibly(); // SIGKILL
            assertTrue(copy.waitFor(1, TimeUnit.MINUTES));
        }
    }

    /**
     * --update judges by the nanosecond where DST keeps them: a DST file newer by 1 ns is kept, one older
     * by 1 ns is replaced; where DST keeps whole seconds, the fraction SRC has beyond them counts as the same time.
     */
    @Test
    void updateJudgesNanosecondsWithinAndOutsideDstsGranularity() throws Exception {
        Path src = newDirectory("src");
        Files.writeString(src.resolve("newer"), "source");
        Files.writeString(src.resolve("older"), "source");
        Files.setLastModifiedTime(src.resolve("newer"), SRC_MTIME);
        Files.setLastModifiedTime(src.resolve("older"), SRC_MTIME);

        Path dst = newDirectory("dst");
        Files.writeString(dst.resolve("newer"), "dst's!");
        Files.writeString(dst.resolve("older"), "dst's!");
        Files.setLastModifiedTime(dst.resolve("newer"), FileTime.from(SRC_MTIME.toInstant().plusNanos(1)));
        Files.setLastModifiedTime(dst.resolve("older"), FileTime.from(SRC_MTIME.toInstant().minusNanos(1)));
        CopyReport update = UPDATE.run(src, dst);
        assertEquals(List.of(), update.counts().failures());
        assertEquals(1, update.counts().keptNewer());
        assertEquals("dst's!", Files.readString(dst.resolve("newer")), "newer by 1 ns: kept");
        assertEquals("source", Files.readString(dst.resolve("older")), "older by 1 ns: replaced");

        // DST with whole seconds: its T.0 is SRC's T.5, neither newer nor older; two seconds later is newer.
        Path coarse = Files.createDirectory(wholeSeconds.dir().resolve("dst-" + cases.incrementAndGet()));
        Files.writeString(coarse.resolve("newer"), "dst's!");
        Files.writeString(coarse.resolve("older"), "dst's!");
        Files.setLastModifiedTime(coarse.resolve("newer"), FileTime.from(SRC_MTIME.toInstant().plusSeconds(2)));
        Files.setLastModifiedTime(coarse.resolve("older"), FileTime.from(SRC_MTIME.toInstant().minusNanos(500_000_000)));
        CopyReport coarseUpdate = UPDATE.withoutProjectIds().run(src, coarse);
        assertEquals(List.of(), coarseUpdate.counts().failures());
        assertEquals(1, coarseUpdate.counts().keptNewer());
        assertEquals("dst's!", Files.readString(coarse.resolve("newer")));
        assertEquals("dst's!", Files.readString(coarse.resolve("older")), "the same size at the same second: the same file");
    }

    private static Path newDirectory(String name) throws IOException {
        return Files.createDirectories(mount.dir().resolve("case-" + cases.incrementAndGet()).resolve(name));
    }

    private static void write(Path file, int size) throws IOException {
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        Files.write(file, data);
        Files.setLastModifiedTime(file, SRC_MTIME);
    }

    /** The same bytes and mtime: a copy that was finished. */
    private static boolean complete(Path src, Path dst) throws IOException {
        return Arrays.equals(Files.readAllBytes(src), Files.readAllBytes(dst))
                && Files.getLastModifiedTime(src).equals(Files.getLastModifiedTime(dst));
    }

    private static Stat stat(Path file) {
        return Posix.lstat(PathBytes.of(file.toString()));
    }
}
