package io.sparkdcp.cli;

import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress as the copy's own JVM prints it, on its real stderr: on a terminal (a pty, through util-linux's
 * script) one line redrawn in place; in a log (a file, as Airflow, Slurm and cron keep it) a line each
 * interval, by default every 60 s. The copies last by --bwlimit, which costs no CPU while they wait.
 */
class ProgressWhereUsersLookTest {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path tmp;

    /** A tree of one file of {@code mebibytes} MiB of zeros, written a MiB at a time. */
    private Path source(int mebibytes) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        byte[] mebibyte = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(src.resolve("f"))) {
            for (int i = 0; i < mebibytes; i++) out.write(mebibyte);
        }
        return src;
    }

    private List<String> copy(String... options) {
        List<String> command = new java.util.ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "copy"));
        command.addAll(List.of(options));
        command.addAll(List.of(tmp.resolve("src") + "/", tmp.resolve("dst").toString()));
        return command;
    }

    @Test
    void onATerminalProgressIsOneLineRedrawnInPlace() throws Exception {
        source(3);
        // The copy's stdout and stderr are the pty script makes; script writes what it shows to its stdout, our file.
        String shell = String.join(" ", copy("--bwlimit", "1M").stream().map(w -> "'" + w + "'").toList());
        TimedProcess.Finished run = TimedProcess.run(new ProcessBuilder("script", "-qefc", shell, "/dev/null"), tmp.resolve("pty.log"), 120);
        assertEquals(0, run.exitCode(), run.output());
        String shown = run.output();
        long redraws = shown.split("\rprogress: ", -1).length - 1;
        assertTrue(redraws >= 2, "about one redraw a second in a copy of 3 s:\n" + shown);
        assertTrue(shown.contains(StatusLines.CLEAR_TO_END), shown);
        assertFalse(shown.contains("\nprogress: ") || shown.contains("spark-dcp: progress: "), "no line of its own per update:\n" + shown);
        int last = shown.lastIndexOf("\rprogress: ");
        int summary = shown.indexOf("spark-dcp copy ");
        assertTrue(summary > last && shown.substring(last, summary).contains("\n"), "the line ends before the summary:\n" + shown);
    }

    /** The only long test of the progress: a copy of about 72 s, in a log, prints the default's line a minute. */
    @Test
    void offATerminalACopyOfMoreThanAMinutePrintsProgressLines() throws Exception {
        source(72);
        long start = System.nanoTime();
        TimedProcess.Finished run = TimedProcess.run(new ProcessBuilder(copy("--bwlimit", "1M")), tmp.resolve("log"), 300);
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(seconds > 60, "the copy must outlast the interval; it took " + seconds + " s");
        List<String> lines = run.output().lines().toList();
        List<String> progress = lines.stream().filter(l -> l.startsWith("spark-dcp: progress: ")).toList();
        assertTrue(progress.size() >= 1, run.output());
        assertTrue(progress.size() <= seconds / 60 + 1, "a line a minute, not more, and the last when the copy ends:\n" + run.output());
        assertTrue(progress.get(0).matches("spark-dcp: progress: [0-2]/2 entries, [^,]*/72\\.0 MiB, .*, ETA .*"), progress.get(0));
        assertTrue(lines.indexOf(progress.get(0)) < lines.indexOf(lines.stream().filter(l -> l.startsWith("spark-dcp copy ")).findFirst().orElseThrow()),
                "progress comes while copying, before the summary:\n" + run.output());
        assertFalse(run.output().contains("\r"), "no redrawing in a log");
    }
}
