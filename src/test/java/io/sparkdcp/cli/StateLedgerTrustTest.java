package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkdcp.job.ledger.Ledgers;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The state ledger is a cache, never an authority, on XFS with real processes: a damaged ledger of any kind is
 * one notice and rebuilt, never a failure and never after deletions; one run at a time holds DIR; what a run
 * could not fix is never recorded; --state, --log and --report through a dangling symlink are refused up front.
 */
class StateLedgerTrustTest {
    /** nobody: a user with a passwd entry, which Hadoop's local file system (the ledger's storage) wants. */
    private static final int USER = 65534;
    private LoopMount mount;
    private Path src, dst, state;

    @BeforeEach
    void tree() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("ledgertrust", 1200);
        src = Files.createDirectories(mount.dir().resolve("src"));
        dst = mount.dir().resolve("dst");
        state = mount.dir().resolve("state");
        for (int d = 0; d < 3; d++) {
            Path dir = Files.createDirectories(src.resolve("d" + d));
            for (int f = 0; f < 4; f++) Files.writeString(dir.resolve("f" + f), "data " + d + f);
        }
    }

    @AfterEach
    void unmount() {
        if (mount != null) mount.close();
    }

    private long entries() throws IOException {
        try (Stream<Path> all = Files.walk(src)) {
            return all.count();
        }
    }

    private JsonNode syncDelete() throws IOException {
        return CommandLineRun.succeeded(mount.dir().resolve("r-" + System.nanoTime() + ".json"),
                "sync", "--delete", "--state", state.toString(), src + "/", dst.toString());
    }

    /** Ways a ledger is found that no run of this version put in force as it is. */
    enum Damage {
        PART_EMPTIED, PART_TRUNCATED, PART_BYTE_CHANGED, HEADER_REMOVED, HEADER_BYTE_CHANGED, HEADER_TRUNCATED,
        PART_OF_ANOTHER_WRITER, PART_MISSING, OLDER_FORMAT
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void aDamagedLedgerIsOneNoticeAndRebuiltAndTheSyncDeleteStillCopies(Damage damage) throws IOException {
        syncDelete();
        assertEquals(entries(), syncDelete().at("/ledger_unchanged").asLong(), "the ledger works before it is damaged");
        damage(damage);
        Files.writeString(src.resolve("d1/new"), "new at SRC");
        Files.writeString(dst.resolve("d2/extra"), "only at DST");

        Path report = mount.dir().resolve("damaged.json");
        CommandLineRun run = CommandLineRun.of("sync", "--delete", "--report", report.toString(), "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, run.exitCode(), damage + ": " + run.out() + run.err());
        assertEquals(1, run.err().lines().filter(l -> l.contains("notice: the state ledger")).count(), damage + ": " + run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        if (damage == Damage.OLDER_FORMAT)
            assertTrue(run.err().contains("is of format version 2, and this spark-dcp reads version 3: not used; this run writes a new one"), run.err());
        TreeComparator.assertSameTree(src, dst);
        assertEquals("new at SRC", Files.readString(dst.resolve("d1/new")));
        assertFalse(Files.exists(dst.resolve("d2/extra")));
        // That run wrote a whole new ledger, which the next run uses.
        assertEquals(entries(), syncDelete().at("/ledger_unchanged").asLong(), damage + ": rebuilt");
    }

    private void damage(Damage damage) throws IOException {
        Path part = Ledgers.firstPart(state);
        Path generation = part.getParent();
        Path header = generation.resolve("HEADER");
        switch (damage) {
            case PART_EMPTIED -> Files.write(part, new byte[0]);
            case PART_TRUNCATED -> truncate(part, Files.size(part) / 2);
            case PART_BYTE_CHANGED -> flipByte(part, Files.size(part) / 2);
            case HEADER_REMOVED -> Files.delete(header);
            case HEADER_BYTE_CHANGED -> flipByte(header, Files.size(header) / 2);
            case HEADER_TRUNCATED -> truncate(header, Files.size(header) - 10);
            case PART_OF_ANOTHER_WRITER -> Files.copy(part, generation.resolve("part-0123456789abcdef01234567"));
            case PART_MISSING -> Files.delete(part);
            case OLDER_FORMAT -> { // as the previous format's HEADER begins, sealed as it was
                String text = Files.readString(header).replaceFirst("spark-dcp state ledger 3\n", "spark-dcp state ledger 2\n");
                String body = text.substring(0, text.lastIndexOf("sha256 "));
                Files.writeString(header, body + "sha256 " + sha256(body) + "\n");
            }
        }
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void truncate(Path file, long length) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
    }

    private static void flipByte(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x01);
        }
    }

    @Test
    void aLedgerOfTheEarlierFormatIsOneNoticeAndReplaced() throws IOException {
        Path old = Files.createDirectories(state.resolve("state-0000000001"));
        Files.writeString(old.resolve("HEADER"), "spark-dcp-state-1\nsource x\n");
        Files.write(old.resolve("part-000000000000000000000000"), "SEQ\u0006garbage".getBytes(StandardCharsets.ISO_8859_1));
        CommandLineRun run = CommandLineRun.of("sync", "--delete", "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains("another version of spark-dcp"), run.err());
        assertEquals(entries(), syncDelete().at("/ledger_unchanged").asLong());
    }

    @Test
    void aSecondRunOnTheSameStateDirIsRefusedAtOnceWhateverItsDestination() throws Exception {
        Path paused = mount.dir().resolve("paused");
        Process first = java("-Dsparkdcp.test.state.pauseBeforeSwap=" + paused, "sync", "--state", state.toString(), src + "/", dst.toString());
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.exists(paused) && first.isAlive() && System.nanoTime() < deadline) Thread.sleep(50);
            assertTrue(Files.exists(paused), "the first run never reached its ledger's swap");
            Path sibling = mount.dir().resolve("dst-sibling");
            Process second = java(null, "sync", "--state", state.toString(), src + "/", sibling.toString());
            assertTrue(second.waitFor(2, TimeUnit.MINUTES), "the second run was not refused at once");
            String err = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, second.exitValue(), err);
            assertTrue(err.contains("another spark-dcp run holds --state") && err.contains("pid " + first.pid()), err);
            assertFalse(Files.exists(sibling), "nothing written by the refused run");
            Files.delete(paused);
            assertTrue(first.waitFor(2, TimeUnit.MINUTES));
            assertEquals(0, first.exitValue(), new String(first.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            first.destroyForcibly();
            first.waitFor();
        }
        assertEquals(entries(), CommandLineRun.succeeded(mount.dir().resolve("after.json"),
                "sync", "--state", state.toString(), src + "/", dst.toString()).at("/ledger_unchanged").asLong());
    }

    private static Process java(String property, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path")));
        if (property != null) command.add(property);
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    @Test
    void whatANonRootRunCouldNotFixIsNeverRecordedAndARootRunFixesIt() throws Exception {
        Commands.bash("set -e; cd '" + src + "'; echo theirs > theirs; chmod 644 theirs; mknod dev c 1 3"
                + "; chown -R " + USER + ":" + USER + " . ; chown 4242:4242 theirs");
        assertEquals(0, CommandLineRun.of("sync", src + "/", dst.toString()).exitCode(), "root makes DST as SRC is");
        // SRC changes what only root can give DST: an owner, a device's numbers.
        Commands.bash("set -e; cd '" + src + "'; chown 4343:4343 theirs; rm dev; mknod dev c 1 5; chown " + USER + ":" + USER + " dev");
        Files.createDirectories(state);
        Commands.run("chown", "-R", USER + ":" + USER, state.toString());
        String classpath = ReadableClasspath.copyTo(mount.dir().resolve("classpath"));
        ProcessBuilder asUser = new ProcessBuilder("setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath, Main.class.getName(),
                "sync", "--state", state.toString(), src + "/", dst.toString()).redirectErrorStream(true);
        Process user = asUser.start();
        assertTrue(user.waitFor(3, TimeUnit.MINUTES), "sync as user timed out");
        String out = new String(user.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, user.exitValue(), out);
        assertTrue(out.contains("wrote the state ledger") || Files.exists(Ledgers.firstPart(state)), out);
        assertEquals(4242, stat(dst.resolve("theirs")).uid(), "a user cannot give a file its owner");

        CommandLineRun root = CommandLineRun.of("sync", "--state", state.toString(), src + "/", dst.toString());
        assertEquals(0, root.exitCode(), root.err());
        assertEquals(4343, stat(dst.resolve("theirs")).uid(), "root fixes the owner the user's run could not");
        assertEquals(stat(src.resolve("dev")).rdev(), stat(dst.resolve("dev")).rdev(), "root fixes the device numbers");
        TreeComparator.assertSameTree(src, dst);
    }

    private static Stat stat(Path p) {
        return Posix.lstat(PathBytes.of(p.toString()));
    }

    @Test
    void onADestinationOfWholeSecondsTheLedgerProvesWhatItRecordedAndSeesAChangeMadeJustAfter() throws IOException {
        LoopMount ext4 = LoopMount.createExt4("ledgersecond", 300, "-I", "128");
        try {
            Path coarse = ext4.dir().resolve("dst");
            String[] sync = {"sync", "--state", state.toString(), src + "/", coarse.toString()};
            CommandLineRun.succeeded(mount.dir().resolve("s1.json"), sync);
            assertEquals(0, Files.getLastModifiedTime(coarse.resolve("d0/f0")).toInstant().getNano(), "this ext4 keeps whole seconds");
            // Each task waited for its DST ctimes' second to be over, so every entry was recorded.
            assertEquals(entries(), CommandLineRun.succeeded(mount.dir().resolve("s2.json"), sync).at("/ledger_unchanged").asLong());
            Commands.run("chmod", "600", coarse.resolve("d1/f1").toString());
            JsonNode third = CommandLineRun.succeeded(mount.dir().resolve("s3.json"), sync);
            assertEquals(entries() - 2, third.at("/ledger_unchanged").asLong(), "the file and its directory looked at again: " + third);
            assertEquals(stat(src.resolve("d1/f1")).permissions(), stat(coarse.resolve("d1/f1")).permissions(), "its mode fixed");
        } finally {
            ext4.close();
        }
    }

    @Test
    void aDanglingSymlinkAsStateLogOrReportIsRefusedBeforeTheWalk() throws IOException {
        Path dangling = Files.createSymbolicLink(mount.dir().resolve("dangling"), mount.dir().resolve("missing/target"));
        for (List<String> option : List.of(List.of("--state", dangling.toString()), List.of("--log", dangling.toString()),
                List.of("--report", dangling.toString()), List.of("--state", dangling.resolve("below").toString()))) {
            List<String> args = new ArrayList<>(List.of("sync"));
            args.addAll(option);
            args.addAll(List.of(src + "/", dst.toString()));
            CommandLineRun run = CommandLineRun.asLaunched(args.toArray(String[]::new));
            assertEquals(2, run.exitCode(), option + ": " + run.out() + run.err());
            assertTrue(run.err().contains(option.get(0)) && run.err().contains("symlink whose target does not exist"), option + ": " + run.err());
            assertFalse(Files.exists(dst), option + ": nothing copied");
            assertFalse(Files.exists(mount.dir().resolve("missing")), option + ": nothing made through the link");
        }
    }
}
