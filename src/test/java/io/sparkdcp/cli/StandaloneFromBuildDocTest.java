package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.DocBlocks;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.RichTree;
import io.sparkdcp.testing.TimedProcess;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/cluster.md's authenticated standalone cluster started from the build, without a Spark
 * installation, run as the doc shows it on one host: its commands in order (the secret, the
 * master and worker in the background, the copy, their stop), with 127.0.0.1 for MASTER and
 * WORKER, a free port, one worker of one core, an XFS mount for the shared paths.
 */
class StandaloneFromBuildDocTest {
    private static final Path CLUSTER_DOC = AppJars.PROJECT.resolve("docs/cluster.md");
    private static final long TIMEOUT_SECONDS = 400;

    @TempDir
    Path tmp;

    @Test
    void theDocsStandaloneSequenceCopiesATree() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars.fromLauncherBuild();
        DocBlocks.Block block = DocBlocks.read(CLUSTER_DOC).stream()
                .filter(b -> b.text().contains("org.apache.spark.deploy.master.Master --host MASTER")).findFirst().orElseThrow();
        try (LoopMount mount = LoopMount.create("standalone-doc", 1024)) {
            RichTree tree = RichTree.build(Files.createDirectories(mount.dir().resolve("old")));
            String port = "" + freePort();
            Path local = Files.createDirectory(tmp.resolve("local"));
            Map<String, String> site = Map.of("/shared/spark-dcp", AppJars.PROJECT.toString(), "MASTER", "127.0.0.1", "WORKER", "127.0.0.1",
                    "7077", port, "--cores 16 --memory 64g", "--cores 1 --memory 1g", "/local/scratch", local.toString(),
                    "$HOME/.spark-dcp", tmp.resolve("dot-spark-dcp").toString(),
                    "SPARK_DCP_EXECUTOR_CORES=8 SPARK_DCP_EXECUTOR_MEMORY=16g", "SPARK_DCP_EXECUTOR_CORES=1 SPARK_DCP_EXECUTOR_MEMORY=512m",
                    "/lustre/old/ /lustre/new", mount.dir().resolve("old") + "/ " + mount.dir().resolve("new"));
            List<String> script = new ArrayList<>(List.of("set -eu", "export SPARK_LOCAL_IP=127.0.0.1 SPARK_DCP_DRIVER_MEMORY=1g",
                    "trap 'kill $(jobs -p) 2>/dev/null || true; wait' EXIT"));
            for (DocBlocks.Command command : DocBlocks.commands(block)) {
                String line = command.text();
                for (Map.Entry<String, String> s : site.entrySet()) line = line.replace(s.getKey(), s.getValue());
                script.add(line);
                if (line.contains("deploy.worker.Worker")) {
                    script.add("for i in $(seq 300); do grep -q 'Successfully registered with master' " + workerLog()
                            + " && break; sleep 1; done");
                }
            }
            script.add("wait"); // the doc's kills stop the master and the worker, or this times out
            Path run = Files.writeString(tmp.resolve("standalone.sh"), String.join("\n", script) + "\n");
            TimedProcess.Finished finished = TimedProcess.run(new ProcessBuilder("bash", run.toString()), tmp.resolve("out.txt"), TIMEOUT_SECONDS);
            assertEquals(0, finished.exitCode(), String.join("\n", script) + "\n" + finished.output() + logs());
            TreeComparator.assertSameTree(tree.root(), mount.dir().resolve("new"));
            String master = Files.readString(masterLog());
            assertTrue(master.contains("SecurityManager: authentication enabled") && master.contains("RECEIVED SIGNAL TERM"), master);
            assertTrue(Files.readString(workerLog()).contains("RECEIVED SIGNAL TERM"), Files.readString(workerLog()));
        }
    }

    private Path masterLog() { return tmp.resolve("dot-spark-dcp/master.log"); }

    private Path workerLog() { return tmp.resolve("local/spark-worker.log"); }

    private String logs() throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path file : List.of(masterLog(), workerLog())) {
            if (Files.exists(file)) all.append("\n--- ").append(file).append(":\n").append(Files.readString(file));
        }
        return all.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
