package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/bench-startup on a tiny generated tree (XFS, for its project IDs): it runs the whole
 * command as a process beside cp -a, mpifileutils' dcp (a stand-in named by SPARK_DCP_DCP and MPIRUN, as
 * a dcp built outside PATH is) and the engine, and prints a row with a ratio for each. Not how fast.
 */
class BenchStartupScriptTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().resolve("submit-scripts/bench-startup");

    @Test
    void runsTheWholeCommandBesideCpAndTheEngineAndPrintsRatios() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("bench-startup", 300)) {
            Path output = Files.createTempFile("bench-startup", ".txt");
            Path mpi = Files.createTempDirectory("bench-startup-mpi");
            try {
                Path mpirun = Commands.executable(mpi.resolve("mpirun"), "echo \"$@\" >> \"$0.args\"\nshift 2\nexec \"$@\"\n");
                Path dcp = Commands.executable(mpi.resolve("dcp"), "[ \"$1\" = -p ] || exit 2\nexec cp -a \"$2\" \"$3\"\n");
                ProcessBuilder script = new ProcessBuilder(List.of(SCRIPT.toString(), "--rounds", "1", "--warmup", "0",
                        "--contenders", "cp,command,command-empty,jvm,dcp,fd", "--dirs", "3", "--files-per-dir", "4",
                        mount.dir().toString()));
                script.environment().put("SPARK_DCP_DCP", dcp.toString());
                script.environment().put("MPIRUN", mpirun.toString());
                TimedProcess.Finished run = TimedProcess.run(script, output, 300);
                String out = run.output();
                assertEquals(0, run.exitCode(), out);
                assertTrue(out.contains("bench-startup: " + Runtime.getRuntime().availableProcessors() + " cores, load average "), out);
                assertTrue(out.contains("(12 files, 4 directories"), out);
                assertEquals(1.0, ratio(out, "cp -a"), out);
                for (String row : List.of("spark-dcp copy", "spark-dcp, empty dir", "java -version (JVM floor)", "dcp -p, 2 ranks", "project IDs, single fd"))
                    assertTrue(ratio(out, row) > 0, row + ":\n" + out);
                assertTrue(Files.readString(mpi.resolve("mpirun.args")).startsWith("-np 2 " + dcp + " -p " + mount.dir() + "/"), out);
                // A JVM costs CPU time: the command's, counted as the bench's child, is in its row.
                assertTrue(cpuSeconds(out, "spark-dcp, empty dir") > 0, out);
                try (var left = Files.list(mount.dir())) {
                    assertFalse(left.findAny().isPresent(), "the generated tree, the copies and the empty source are removed");
                }
            } finally {
                Files.deleteIfExists(output);
                new ProcessBuilder("rm", "-rf", "--", mpi.toString()).start().waitFor();
            }
        }
    }


    /** The ratio column of a contender's row in the bench's table (median, min, max, cpu, files/s, MB/s, ratio, failed: 0). */
    private static double ratio(String table, String contender) {
        return column(table, contender, 6);
    }

    private static double cpuSeconds(String table, String contender) {
        return column(table, contender, 3);
    }

    /** The numeric column {@code index} (0: median s) of a contender's row that shows no failure. */
    private static double column(String table, String contender, int index) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(contender) + " +((?:[\\d.,]+ +){7})0$").matcher(table);
        assertTrue(m.find(), "no row with no failure for " + contender);
        return Double.parseDouble(m.group(1).trim().split(" +")[index].replace(",", ""));
    }
}
