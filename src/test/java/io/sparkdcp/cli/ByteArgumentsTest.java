package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arguments are bytes, as rsync and cp take them: SRC, DST, patterns, rule files and --report named
 * in Latin-1 (bytes that are not UTF-8), given by bash's $'\xe9' to submit-scripts/spark-dcp as a
 * process, on XFS. The names in the output, the item log and the JSON report are shown with \xNN.
 * The Latin-1 roots are renamed in their directories after a run (which leaves their mtimes as
 * they are) so that the trees can be compared from Java, whose paths are UTF-8.
 */
class ByteArgumentsTest {
    private static final Path LAUNCHER = Path.of("").toAbsolutePath().resolve("submit-scripts/spark-dcp");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LoopMount mount;

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("bytesargs", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    /**
     * A fresh directory holding src/caf\xe9 (a Latin-1 directory): f\xe9, keep.txt, g\xe9.tmp, sub\xe9/inner.
     */
    private static Path tree(String name) {
        Path dir = mount.dir().resolve(name);
        Commands.bash("set -e; mkdir -p '" + dir + "' && cd '" + dir + "' && mkdir -p src/caf$'\\xe9'/sub$'\\xe9' && cd src/caf$'\\xe9' "
                + "&& echo data > f$'\\xe9' && echo keep > keep.txt && echo tmp > g$'\\xe9'.tmp && echo in > sub$'\\xe9'/inner "
                + "&& touch -d '2020-01-02 03:04:05.123456789' f$'\\xe9'");
        return dir;
    }

    /** The launcher run by bash in dir: {@code args} is bash text, so $'\xe9' gives the byte itself. */
    private static Commands.Result spark(Path dir, String args) {
        return Commands.tryRun("bash", "-c", "cd '" + dir + "' && exec '" + LAUNCHER + "' " + args);
    }

    private static String describe(Commands.Result run) {
        return "exit " + run.exitCode() + "\nstdout:\n" + run.stdout() + "\nstderr:\n" + run.stderr();
    }

    /** The names in dir, as ls -b shows them (\351 for the byte 0xe9). */
    private static List<String> names(Path dir, String relative) {
        String out = Commands.bash("cd '" + dir + "' && ls -1b " + relative);
        return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
    }

    @Test
    void copyTakesALatin1SrcDstAndReportAndTheReportShowsThemEscaped() throws Exception {
        Path dir = tree("copy");
        Commands.Result run = spark(dir, "copy --report r$'\\xe9'.json src/caf$'\\xe9' dst$'\\xff'");
        assertEquals(0, run.exitCode(), describe(run));
        assertTrue(run.stdout().contains(dir + "/src/caf\\xe9 -> " + dir + "/dst\\xff/caf\\xe9"), describe(run));
        JsonNode report = JSON.readTree(Commands.bash("cat '" + dir + "'/r$'\\xe9'.json"));
        assertEquals(dir + "/src/caf\\xe9", report.get("source").asText());
        assertEquals(dir + "/dst\\xff/caf\\xe9", report.get("destination").asText());
        assertEquals(0, report.get("exit_code").asInt());
        assertSameTree(dir);
    }

    @Test
    void syncDeleteWithALatin1ExcludeKeepsTheExcludedNameOutAndLogsTheDeletionEscaped() throws Exception {
        Path dir = tree("sync");
        assertEquals(0, spark(dir, "copy src/caf$'\\xe9'/ dst$'\\xff'").exitCode());
        Commands.bash("cd '" + dir + "' && rm dst$'\\xff'/g$'\\xe9'.tmp && echo old > dst$'\\xff'/old$'\\xe9' && echo new > src/caf$'\\xe9'/n$'\\xe9'");

        Commands.Result run = spark(dir, "sync --delete --exclude '*'$'\\xe9'.tmp --log log src/caf$'\\xe9'/ dst$'\\xff'");

        assertEquals(0, run.exitCode(), describe(run));
        assertEquals(List.of("f\\351", "keep.txt", "n\\351", "sub\\351"), names(dir, "dst$'\\xff'"), "g\\xe9.tmp excluded, old\\xe9 deleted");
        String log = Commands.bash("cat '" + dir + "'/log/part-*");
        assertTrue(log.contains("deleted\tfile\told\\xe9\n"), log);
        assertTrue(log.contains("copied\tfile\tn\\xe9\n"), log);
        assertFalse(log.contains("g\\xe9.tmp"), log);
    }

    @Test
    void aDryRunNamesLatin1EntriesEscapedAndChangesNothing() {
        Path dir = tree("dryrun");
        assertEquals(0, spark(dir, "copy src/caf$'\\xe9'/ dst$'\\xff'").exitCode());
        Commands.bash("cd '" + dir + "' && echo old > dst$'\\xff'/old$'\\xe9' && echo new > src/caf$'\\xe9'/n$'\\xe9'");
        List<String> before = names(dir, "dst$'\\xff'");

        Commands.Result run = spark(dir, "sync --delete --dry-run src/caf$'\\xe9'/ dst$'\\xff'");

        assertEquals(0, run.exitCode(), describe(run));
        assertTrue(run.stdout().contains("copy: n\\xe9\n"), describe(run));
        assertTrue(run.stdout().contains("delete: old\\xe9\n"), describe(run));
        assertEquals(before, names(dir, "dst$'\\xff'"), "the dry run changed DST");
    }

    @Test
    void compareTakesLatin1RootsAndNamesTheDifferenceEscaped() throws Exception {
        Path dir = tree("compare");
        assertEquals(0, spark(dir, "copy src/caf$'\\xe9' dst$'\\xff'").exitCode());
        Commands.Result same = spark(dir, "compare src/caf$'\\xe9' dst$'\\xff'");
        assertEquals(0, same.exitCode(), describe(same));

        Commands.bash("cd '" + dir + "' && echo DATA > dst$'\\xff'/caf$'\\xe9'/f$'\\xe9'");
        Commands.Result differs = spark(dir, "compare --report c$'\\xe9'.json src/caf$'\\xe9' dst$'\\xff'");

        assertEquals(1, differs.exitCode(), describe(differs));
        JsonNode report = JSON.readTree(Commands.bash("cat '" + dir + "'/c$'\\xe9'.json"));
        assertEquals(dir + "/dst\\xff/caf\\xe9", report.get("destination").asText());
        assertTrue(report.toString().contains("\"path\":\"f\\\\xe9\""), report.toString());
    }

    @Test
    void ruleFilesNamedInLatin1AreRead() {
        Path dir = tree("rulefiles");
        Commands.bash("cd '" + dir + "' && printf '%s\\n' '*.tmp' > rules$'\\xe9' && printf '%s\\n' f$'\\xe9' g$'\\xe9'.tmp sub$'\\xe9' > list$'\\xe9'");

        Commands.Result run = spark(dir, "copy --exclude-from rules$'\\xe9' --files-from list$'\\xe9' src/caf$'\\xe9'/ dst");

        assertEquals(0, run.exitCode(), describe(run));
        assertEquals(List.of("f\\351", "sub\\351"), names(dir, "dst"));
    }

    @Test
    void onSparkLocal2TheBytesReachTheExecutors() throws Exception {
        Path dir = tree("spark");
        Commands.Result run = spark(dir, "copy --master 'local[2]' --walk distributed --log log --exclude '*'$'\\xe9'.tmp "
                + "src/caf$'\\xe9' dst$'\\xff'");

        assertEquals(0, run.exitCode(), describe(run));
        String log = Commands.bash("cat '" + dir + "'/log/part-*");
        assertTrue(log.contains("copied\tfile\tcaf\\xe9/sub\\xe9/inner\n") || log.contains("copied\tfile\tsub\\xe9/inner\n"), log);
        assertEquals(List.of("f\\351", "keep.txt", "sub\\351"), names(dir, "dst$'\\xff'/caf$'\\xe9'"));
        // The excluded file out of SRC too, SRC's mtime as it was: then the trees are the same.
        Commands.bash("cd '" + dir + "'/src && t=$(stat -c %y caf$'\\xe9') && rm caf$'\\xe9'/g$'\\xe9'.tmp && touch -m -d \"$t\" caf$'\\xe9'");
        assertSameTree(dir);
    }

    @Test
    void aLogDirectoryThatIsNotUtf8IsRefusedInOneLineBeforeDstIsMade() {
        Path dir = tree("hadooplog");
        Commands.Result run = spark(dir, "copy --log log$'\\xe9' src/caf$'\\xe9' dst");

        assertEquals(2, run.exitCode(), describe(run));
        assertEquals("spark-dcp: --log log\\xe9 is not UTF-8, which a Hadoop path cannot name (its file systems name files "
                + "by Java strings); give a directory whose name is UTF-8", lastLine(run.stderr()), describe(run));
        assertFalse(Files.exists(dir.resolve("dst")), "DST was created");
    }

    /** src/caf\xe9 and dst\xff/caf\xe9 are the same tree (renamed src/cafe and dst/cafe to be compared). */
    private static void assertSameTree(Path dir) {
        Commands.bash("cd '" + dir + "' && mv src/caf$'\\xe9' src/cafe && mv dst$'\\xff' dst && mv dst/caf$'\\xe9' dst/cafe");
        TreeComparator.assertSameTree(dir.resolve("src/cafe"), dir.resolve("dst/cafe"));
    }

    /** The last line of stderr (a first run of the launcher may print that it builds). */
    private static String lastLine(String err) {
        String[] lines = err.strip().split("\n");
        return lines[lines.length - 1];
    }
}
