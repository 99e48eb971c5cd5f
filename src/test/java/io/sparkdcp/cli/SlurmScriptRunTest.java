package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.StandaloneCluster;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Slurm batch script run as Slurm would run it on a one-node allocation, with stand-ins for
 * Slurm's commands (scontrol, srun) and for a Spark installation (spark-class, spark-submit run
 * the build's classpath). Slurm itself is not installed here; what this checks is the script's
 * own work: the cluster it starts, the copy's exit code passed through, the cluster stopped.
 */
class SlurmScriptRunTest {
    private static final Path SCRIPT = AppJars.PROJECT.resolve("submit-scripts/slurm/spark-dcp.sbatch");
    private static final long TIMEOUT_SECONDS = 150;

    @TempDir
    Path tmp;

    @Test
    void aFailedEntryExitsOneThroughTheScriptAndTheClusterIsStopped() throws Exception {
        AppJars jars = AppJars.fromLauncherBuild();
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path sparkHome = Files.createDirectories(tmp.resolve("spark"));
        fakeSlurm(bin);
        fakeSpark(sparkHome, jars);

        Path src = Files.createDirectories(tmp.resolve("src/sub"));
        Files.writeString(src.resolve("b.txt"), "beta\n");
        Files.writeString(src.resolveSibling("a.txt"), "alpha\n");
        Path dst = Files.createDirectories(tmp.resolve("dst"));
        Files.writeString(dst.resolve("sub"), "not a directory\n"); // the engine fails that entry
        Path submitDir = Files.createDirectories(tmp.resolve("submit"));
        String masterPort = "" + freePort();

        ProcessBuilder sbatch = new ProcessBuilder("bash", SCRIPT.toString(), "copy", tmp.resolve("src").toString(), dst.toString())
                .directory(submitDir.toFile());
        Map<String, String> env = sbatch.environment();
        env.put("PATH", bin + ":" + env.get("PATH"));
        env.putAll(Map.of("SLURM_JOB_ID", "4242", "SLURM_JOB_NODELIST", "node0", "SLURM_CPUS_ON_NODE", "2",
                "SLURM_MEM_PER_NODE", "3072", "SLURM_SUBMIT_DIR", submitDir.toString(), "SPARK_HOME", sparkHome.toString(),
                "SPARK_DCP_HOME", AppJars.PROJECT.toString(), "SPARK_DCP_DRIVER_MEMORY", "1g",
                "SPARK_DCP_MASTER_PORT", masterPort, "SPARK_DCP_MASTER_WEBUI_PORT", "" + freePort()));
        env.put("TMPDIR", Files.createDirectories(tmp.resolve("node-local")).toString());
        TimedProcess.Finished job = TimedProcess.run(sbatch, tmp.resolve("job.out"), TIMEOUT_SECONDS);
        String output = job.output();

        assertEquals(1, job.exitCode(), output);
        assertTrue(output.contains("spark-dcp: failed: sub: mkdirat EEXIST"), output);
        assertEquals("alpha\n", Files.readString(dst.resolve("a.txt")));
        assertTrue(Files.readString(submitDir.resolve("spark-dcp-4242/master.log")).contains("Registering worker"));
        assertEquals("", survivors(masterPort), "cluster processes left running");
        assertTrue(Files.notExists(tmp.resolve("node-local/spark-dcp-4242")), "node-local scratch left behind");
    }

    /** scontrol names the one node; srun runs its command here, once, with its --output. */
    private static void fakeSlurm(Path bin) throws IOException {
        executable(bin.resolve("scontrol"), "[[ $1 == show && $2 == hostnames ]] && echo 127.0.0.1");
        executable(bin.resolve("srun"), String.join("\n",
                "out=/dev/stderr",
                "while [[ $1 == --* ]]; do [[ $1 == --output=* ]] && out=${1#--output=}; shift; done",
                "exec \"$@\" >\"${out//%N/node0}\" 2>&1"));
    }

    /** spark-class and spark-submit from the build's classpath; executors get it too. */
    private static void fakeSpark(Path sparkHome, AppJars jars) throws IOException {
        Path bin = Files.createDirectories(sparkHome.resolve("bin"));
        Files.createDirectories(sparkHome.resolve("jars"));
        String java = StandaloneCluster.javaBin();
        executable(bin.resolve("spark-class"), String.join("\n",
                "export SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1",
                "exec " + java + " -Xmx512m -cp '" + jars.classpath() + "' \"$@\""));
        executable(bin.resolve("spark-submit"), String.join("\n",
                "export SPARK_LOCAL_IP=127.0.0.1",
                "exec " + java + " -Xmx1g " + String.join(" ", AppJars.moduleFlags()) + " -cp '" + jars.classpath()
                        + "' org.apache.spark.deploy.SparkSubmit --conf 'spark.executor.extraClassPath=" + jars.classpath() + "' \"$@\""));
    }

    private static void executable(Path file, String body) throws IOException {
        Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Processes of this cluster still alive: the master's port and the worker's scratch name them. */
    private String survivors(String masterPort) {
        return Commands.bash("ps -eo pid=,args= | grep -e '--port " + masterPort + "' -e '" + tmp + "/node-local' | grep -v grep || true");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
