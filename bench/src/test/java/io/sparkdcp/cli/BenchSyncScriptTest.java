package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * submit-scripts/bench-sync on a tiny generated tree, one round: every contender (dsync a stand-in named
 * by SPARK_DCP_DSYNC and MPIRUN) gets its row of medians and ratios to rsync. Not how fast.
 */
class BenchSyncScriptTest {
    private static final Path SCRIPT = Path.of("").toAbsolutePath().resolve("submit-scripts/bench-sync");

    @Test
    void aTinyBenchPrintsEveryContendersMediansAndRatios() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("bench-sync", 300)) {
            Path output = Files.createTempFile("bench-sync", ".txt");
            Path mpi = Files.createTempDirectory("bench-sync-mpi");
            try {
                Path mpirun = Commands.executable(mpi.resolve("mpirun"), "echo \"$@\" >> \"$0.args\"\nwhile [ \"$1\" != -np ]; do shift; done\nshift 2\nexec \"$@\"\n");
                Path dsync = Commands.executable(mpi.resolve("dsync"), "exec rsync -aAXH --delete \"$3\" \"$4/\"\n");
                ProcessBuilder script = new ProcessBuilder(List.of(SCRIPT.toString(), "--files", "200", "--dirs", "10", "--rounds", "1",
                        mount.dir().resolve("bench").toString()));
                script.environment().put("SPARK_DCP_DSYNC", dsync.toString());
                script.environment().put("MPIRUN", mpirun.toString());
                TimedProcess.Finished run = TimedProcess.run(script, output, 900);
                String out = run.output();
                assertEquals(0, run.exitCode(), out);
                for (String contender : List.of("threads", "spark", "state", "rsync", "dsync", "spark, report's wall"))
                    assertTrue(Pattern.compile("(?m)^" + Pattern.quote(contender) + " +(\\d+\\.\\d\\d +){3}\\d+\\.\\d\\d$").matcher(out).find(), contender + ":\n" + out);
                assertTrue(Pattern.compile("(?m)^rsync +\\S+ +1\\.00 +\\S+ +1\\.00$").matcher(out).find(), "ratios to rsync:\n" + out);
                assertTrue(out.contains("spark's report wall / threads: no-change "), out);
                assertTrue(Files.readString(mpi.resolve("mpirun.args")).contains("-np 2 " + dsync + " --quiet --delete "), out);
            } finally {
                Files.deleteIfExists(output);
                new ProcessBuilder("rm", "-rf", "--", mpi.toString()).start().waitFor();
            }
        }
    }

}
