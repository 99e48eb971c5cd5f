package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A word known elsewhere gets one line that names what to type: another command's option, a misspelt command, rsync's letters. */
@Tag("fast")
class UsageHintsTest {
    /** The line of a usage error (exit 2, nothing on stdout), as Main.main parses the arguments: one command's model alone. */
    private static String refused(String... args) {
        CommandLineRun run = CommandLineRun.asMainRunsIt(args);
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("", run.out());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), run.err());
        return lines.get(0);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "copy|--delete|spark-dcp: --delete is an option of sync, not of copy; see 'spark-dcp sync --help'",
            "copy|--delete-excluded|spark-dcp: --delete-excluded is an option of sync, not of copy; see 'spark-dcp sync --help'",
            "copy|--contents|spark-dcp: --contents is an option of sync and compare, not of copy; see 'spark-dcp sync --help'",
            "sync|--time-window=1s|spark-dcp: --time-window is an option of compare, not of sync; see 'spark-dcp compare --help'",
            "compare|--bwlimit=1M|spark-dcp: --bwlimit is an option of copy and sync, not of compare; see 'spark-dcp copy --help'",
            "compare|-n|spark-dcp: -n is an option of copy and sync, not of compare; see 'spark-dcp copy --help'"})
    void anOptionOfAnotherCommandNamesThatCommand(String command, String option, String line) {
        assertEquals(line, refused(command, option, "/src/", "/dst"));
    }

    @Test
    void anOptionOfACommandBeforeAnyCommandNamesIt() {
        assertEquals("spark-dcp: --delete is an option of sync; see 'spark-dcp sync --help'", refused("--delete", "/src/", "/dst"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"cpoy, copy", "snyc, sync", "comapre, compare", "cop, copy", "synk, sync", "hepl, help"})
    void aMisspeltCommandGetsTheNearestOne(String typed, String meant) {
        assertEquals("spark-dcp: unknown command '" + typed + "': did you mean " + meant + "?", refused(typed, "/src/", "/dst"));
    }

    @Test
    void aWordNearNoCommandGetsTheList() {
        assertEquals("spark-dcp: unknown command '/data/src': the command is copy, sync, compare or help; see 'spark-dcp --help'",
                refused("/data/src", "/data/dst"));
    }

    @Test
    void anUnknownOptionKnownNowhereKeepsPicocliLine() {
        assertEquals("spark-dcp: Unknown option: '--frobnicate'; see 'spark-dcp copy --help'", refused("copy", "--frobnicate", "/src/", "/dst"));
    }

    /** rsync's options that spark-dcp refuses, each with its line in copy. */
    private static final Map<String, String> RSYNC_LINES = new LinkedHashMap<>();

    static {
        String whole = ": a file gets its name only once it is complete (unless --inplace), and running the same command again resumes the copy";
        String kept = " is not taken: hard links are always kept, and ACLs and xattrs unless --xattrs says otherwise (-a here is rsync's -aAXH)";
        String noTransfer = " is not taken: each task reads SRC and writes DST through their mounts, so there is no transfer to compress";
        RSYNC_LINES.put("-P", "rsync's -P is --progress here" + whole);
        RSYNC_LINES.put("--partial", "rsync's --partial is not taken" + whole);
        RSYNC_LINES.put("-z", "rsync's -z" + noTransfer);
        RSYNC_LINES.put("--compress", "rsync's --compress" + noTransfer);
        RSYNC_LINES.put("-A", "rsync's -A" + kept);
        RSYNC_LINES.put("--acls", "rsync's --acls" + kept);
        RSYNC_LINES.put("-X", "rsync's -X" + kept);
        RSYNC_LINES.put("-H", "rsync's -H" + kept);
        RSYNC_LINES.put("--hard-links", "rsync's --hard-links" + kept);
        RSYNC_LINES.put("-u", "rsync's -u is --update here");
        RSYNC_LINES.put("-c", "rsync's -c is --contents here, an option of sync and compare");
        RSYNC_LINES.put("--checksum", "rsync's --checksum is --contents here, an option of sync and compare");
        RSYNC_LINES.put("--modify-window", "rsync's --modify-window is --time-window here, an option of compare");
        RSYNC_LINES.put("--remove-source-files", "rsync's --remove-source-files is not taken: SRC is never modified");
    }

    @Test
    void rsyncsOptionsThatAreNotTakenSayWhatToUse() {
        assertEquals(UsageHints.RSYNC.keySet(), RSYNC_LINES.keySet(), "a line pinned for each");
        List<String> wrong = new ArrayList<>();
        RSYNC_LINES.forEach((option, line) -> {
            String expected = "spark-dcp: " + line + "; see 'spark-dcp copy --help'";
            String shown = refused("copy", option, "/src/", "/dst");
            if (!shown.equals(expected)) wrong.add(option + ": " + shown);
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void aLetterInACluster() {
        assertEquals("spark-dcp: " + RSYNC_LINES.get("-P") + "; see 'spark-dcp copy --help'", refused("copy", "-avP", "/src/", "/dst"));
        assertEquals("spark-dcp: " + RSYNC_LINES.get("-A") + "; see 'spark-dcp sync --help'", refused("sync", "-aAXH", "/src/", "/dst"));
    }

    @Test
    void theOptionToUseInsteadIsNamedWhereThisCommandLacksIt() {
        assertEquals("spark-dcp: rsync's -u is --update here, an option of copy and sync; see 'spark-dcp compare --help'",
                refused("compare", "-u", "/src/", "/dst"));
        assertEquals("spark-dcp: rsync's -c is --contents here; see 'spark-dcp sync --help'", refused("sync", "-c", "/src/", "/dst"));
    }

    /** A hint for an option some command takes would never be shown, and would be wrong if it were. */
    @Test
    void noCommandTakesTheRsyncOptionsRefused() {
        picocli.CommandLine every = Main.withEverySubcommand();
        for (String option : UsageHints.RSYNC.keySet())
            assertEquals(List.of(), UsageHints.commandsTaking(every, option, null), option);
    }

    @Test
    void distanceCountsASwapAsOneEdit() {
        assertEquals(1, UsageHints.distance("cpoy", "copy"));
        assertEquals(1, UsageHints.distance("cop", "copy"));
        assertEquals(2, UsageHints.distance("cp", "copy"));
        assertEquals(0, UsageHints.distance("sync", "sync"));
    }
}
