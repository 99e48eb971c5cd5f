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

/**
 * docs/cluster.md's standalone cluster started from the build, without a Spark installation, run as
 * the doc shows it on one host: its commands in order, with 127.0.0.1 for MASTER, a free port, one
 * worker of one core, an XFS mount for the shared paths, and the master and worker in the background.
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
            Map<String, String> site = Map.of("/shared/spark-dcp", AppJars.PROJECT.toString(), "MASTER", "127.0.0.1", "7077", port,
                    "--cores 16 --memory 64g", "--cores 1 --memory 1g", "/local/scratch/spark-work", tmp.resolve("work").toString(),
                    "SPARK_DCP_EXECUTOR_CORES=8 SPARK_DCP_EXECUTOR_MEMORY=16g", "SPARK_DCP_EXECUTOR_CORES=1 SPARK_DCP_EXECUTOR_MEMORY=512m",
                    "/lustre/old/ /lustre/new", mount.dir().resolve("old") + "/ " + mount.dir().resolve("new"));
            List<String> script = new ArrayList<>(List.of("set -eu", "export SPARK_LOCAL_IP=127.0.0.1 SPARK_DCP_DRIVER_MEMORY=1g",
                    "trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT"));
            for (DocBlocks.Command command : DocBlocks.commands(block)) {
                String line = command.text();
                for (Map.Entry<String, String> s : site.entrySet()) line = line.replace(s.getKey(), s.getValue());
                if (line.contains("deploy.master.Master")) {
                    script.add(line + " > " + tmp.resolve("master.log") + " 2>&1 &");
                } else if (line.contains("deploy.worker.Worker")) {
                    script.add(line + " > " + tmp.resolve("worker.log") + " 2>&1 &");
                    script.add("for i in $(seq 300); do grep -q 'Successfully registered with master' " + tmp.resolve("worker.log")
                            + " && break; sleep 1; done");
                } else {
                    script.add(line);
                }
            }
            Path run = Files.writeString(tmp.resolve("standalone.sh"), String.join("\n", script) + "\n");
            TimedProcess.Finished finished = TimedProcess.run(new ProcessBuilder("bash", run.toString()), tmp.resolve("out.txt"), TIMEOUT_SECONDS);
            assertEquals(0, finished.exitCode(), String.join("\n", script) + "\n" + finished.output() + logs());
            TreeComparator.assertSameTree(tree.root(), mount.dir().resolve("new"));
        }
    }

    private String logs() throws IOException {
        StringBuilder all = new StringBuilder();
        for (String log : List.of("master.log", "worker.log")) {
            Path file = tmp.resolve(log);
            if (Files.exists(file)) all.append("\n--- ").append(log).append(":\n").append(Files.readString(file));
        }
        return all.toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
