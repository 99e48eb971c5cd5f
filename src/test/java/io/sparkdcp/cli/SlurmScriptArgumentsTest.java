package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What submit-scripts/slurm/spark-dcp.sbatch passes on, without a Slurm: it runs as Slurm runs it (a
 * copy in a spool directory, in an allocation of two 4-core nodes of 16 GiB), with scontrol, srun,
 * squeue and scancel and a SPARK_HOME's spark-class and spark-submit that record their arguments. It
 * must find spark-dcp beside the script as sbatch was given it (the job's Command), and hand the
 * cluster scripts' SPARK_DCP_* variables to spark-submit and the allocation's cores and memory to the
 * workers. SlurmBatchScriptTest runs the script on a real Slurm.
 */
class SlurmScriptArgumentsTest {
    private static final Path SCRIPT = AppJars.PROJECT.resolve("submit-scripts/slurm/spark-dcp.sbatch");
    private static final String JOB = "42";

    @TempDir
    Path tmp;

    @Test
    void theVariablesReachSparkSubmitAndTheAllocationTheWorkers() throws Exception {
        Commands.Result run = runJob(Map.of());
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        Path calls = tmp.resolve("calls");
        Path scratch = tmp.resolve("scratch");
        List<String> submit = Files.readAllLines(calls.resolve("spark-submit"));
        String jobScratch = scratch.resolve("spark-dcp-" + JOB).toString();
        assertInOrder(submit, "--master", "spark://node1:7077", "--deploy-mode", "client");
        assertInOrder(submit, "--name", "migration-" + JOB);
        Path properties = tmp.resolve("submit/spark-dcp-" + JOB + "/private/spark-dcp.properties");
        assertInOrder(submit, "--properties-file", properties.toString());
        assertInOrder(submit, "--driver-memory", "2g");
        assertInOrder(submit, "--executor-cores", "2", "--executor-memory", "3g");
        assertInOrder(submit, "--conf", "spark.local.dir=" + jobScratch, "--conf", "spark.task.maxFailures=8");
        assertEquals(List.of(AppJars.PROJECT.resolve("target/spark-dcp-app.jar").toString(), "copy", "/lustre/old/", "/lustre/new"),
                submit.subList(submit.size() - 4, submit.size()));

        // One worker per node with all its cores and its memory less the driver's 2 GiB and 1 GiB.
        List<String> srun = Files.readAllLines(calls.resolve("srun"));
        assertInOrder(srun, "--nodes=2", "--ntasks=2", "--ntasks-per-node=1", "--cpus-per-task=4");
        assertInOrder(srun, tmp.resolve("spark/bin/spark-class").toString(), "org.apache.spark.deploy.worker.Worker",
                "--cores", "4", "--memory", "13312m", "--work-dir", jobScratch + "/work");
        List<String> master = Files.readAllLines(calls.resolve("spark-class-master"));
        assertInOrder(master, "org.apache.spark.deploy.master.Master", "--host", "node1");

        // The job's own authenticated settings, on top of spark-defaults.conf, where only its user may read them, and gone after it.
        assertInOrder(master, "--properties-file", properties.toString());
        assertInOrder(srun, "--work-dir", jobScratch + "/work", "--properties-file", properties.toString(), "spark://node1:7077");
        String written = Files.readString(calls.resolve("properties"));
        assertTrue(written.startsWith(Files.readString(AppJars.PROJECT.resolve("spark-conf/spark-defaults.conf"))), written);
        for (String line : List.of("spark.authenticate true", "spark.network.crypto.enabled true", "spark.master.rest.enabled false",
                "spark.ui.enabled false", "spark.ui.killEnabled false")) {
            assertTrue(written.lines().anyMatch(line::equals), line + " in\n" + written);
        }
        String secret = written.lines().filter(l -> l.startsWith("spark.authenticate.secret ")).findFirst().orElseThrow().substring(26);
        assertTrue(secret.matches("[0-9a-f]{64}"), secret);
        assertEquals(List.of("600", "700"), Files.readAllLines(calls.resolve("properties-modes")));
        for (List<String> arguments : List.of(submit, srun, master)) assertTrue(arguments.stream().noneMatch(a -> a.contains(secret)), "" + arguments);
        assertTrue(Files.notExists(properties.getParent()), "the job's private directory left behind");
    }

    /** SPARK_DCP_UI=on: the driver's UI, with ACLs naming the job's user alone; SPARK_DCP_ENCRYPTION=off leaves encryption out. */
    @Test
    void theUiOnlyForTheJobsUserAndEncryptionOff() throws Exception {
        Commands.Result run = runJob(Map.of("SPARK_DCP_UI", "on", "SPARK_DCP_ENCRYPTION", "off"));
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        List<String> written = Files.readAllLines(tmp.resolve("calls/properties"));
        String user = Commands.run("id", "-un").strip();
        for (String line : List.of("spark.authenticate true", "spark.ui.enabled true", "spark.acls.enable true", "spark.ui.view.acls " + user,
                "spark.modify.acls " + user, "spark.admin.acls " + user, "spark.master.rest.enabled false")) {
            assertTrue(written.contains(line), line + " in " + written);
        }
        assertTrue(written.stream().noneMatch(line -> line.startsWith("spark.network.crypto") || line.equals("spark.ui.enabled false")), "" + written);
    }

    @Test
    void aBadUiOrEncryptionValueIsOneLine() throws Exception {
        Commands.Result run = runJob(Map.of("SPARK_DCP_UI", "yes"));
        assertEquals(2, run.exitCode(), run.stdout() + run.stderr());
        assertEquals("spark-dcp: SPARK_DCP_UI is on or off, not 'yes'\n", run.stderr());
        run = runJob(Map.of("SPARK_DCP_ENCRYPTION", "aes"));
        assertEquals(2, run.exitCode(), run.stdout() + run.stderr());
        assertEquals("spark-dcp: SPARK_DCP_ENCRYPTION is on or off, not 'aes'\n", run.stderr());
        assertTrue(Files.notExists(tmp.resolve("calls/spark-class-master")), "a master started");
    }

    /** The script as Slurm runs it, with stand-ins for Slurm's commands and Spark's that record their arguments. */
    private Commands.Result runJob(Map<String, String> variables) throws Exception {
        AppJars.fromLauncherBuild(); // the jar common.sh checks for
        Path spooled = Files.copy(SCRIPT, Files.createDirectories(tmp.resolve("spool/job" + JOB)).resolve("slurm_script"), StandardCopyOption.REPLACE_EXISTING);
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path sparkBin = Files.createDirectories(tmp.resolve("spark/bin"));
        Path calls = Files.createDirectories(tmp.resolve("calls"));
        Commands.executable(bin.resolve("scontrol"), """
                case "$1 $2" in
                  "show hostnames") echo node1; echo node2 ;;
                  "show job") printf 'JobId=%s JobName=migration\\n   Command=%s\\n   WorkDir=/elsewhere\\n' "$3" "$ORIGINAL_SCRIPT" ;;
                esac""");
        Commands.executable(bin.resolve("srun"), "printf '%s\\n' \"$@\" > \"$CALLS/srun\"\nexec sleep 60");
        Commands.executable(bin.resolve("squeue"), "exit 0");
        Commands.executable(bin.resolve("scancel"), "exit 0");
        Commands.executable(sparkBin.resolve("spark-class"), """
                printf '%s\\n' "$@" > "$CALLS/spark-class-master"
                echo "Registering worker node1:1"; echo "Registering worker node2:1"
                exec sleep 60""");
        // It keeps the properties file the job passes, and its mode and its directory's: the job removes them as it ends.
        Commands.executable(sparkBin.resolve("spark-submit"), """
                printf '%s\\n' "$@" > "$CALLS/spark-submit"
                while [ "$1" != --properties-file ]; do shift; done
                cp "$2" "$CALLS/properties"
                stat -c %a "$2" "$(dirname "$2")" > "$CALLS/properties-modes\"""");

        Path scratch = Files.createDirectories(tmp.resolve("scratch"));
        ProcessBuilder job = new ProcessBuilder("bash", spooled.toString(), "copy", "/lustre/old/", "/lustre/new")
                .directory(Files.createDirectories(tmp.resolve("submit")).toFile());
        Map<String, String> env = job.environment();
        env.remove("SPARK_DCP_HOME");
        env.putAll(Map.of("PATH", bin + ":" + env.get("PATH"), "SPARK_HOME", tmp.resolve("spark").toString(),
                "ORIGINAL_SCRIPT", SCRIPT.toString(), "CALLS", calls.toString(), "TMPDIR", scratch.toString(),
                "SLURM_JOB_ID", JOB, "SLURM_JOB_NAME", "migration", "SLURM_JOB_NODELIST", "node[1-2]",
                "SLURM_SUBMIT_DIR", tmp.resolve("submit").toString()));
        env.putAll(Map.of("SLURM_CPUS_ON_NODE", "4", "SLURM_MEM_PER_NODE", "16384",
                "SPARK_DCP_EXECUTOR_CORES", "2", "SPARK_DCP_EXECUTOR_MEMORY", "3g", "SPARK_DCP_DRIVER_MEMORY", "2g",
                "SPARK_DCP_SUBMIT_OPTIONS", "--conf spark.task.maxFailures=8"));
        env.putAll(variables);
        return Commands.tryRun(job);
    }

    private static void assertInOrder(List<String> arguments, String... sequence) {
        assertTrue(Collections.indexOfSubList(arguments, List.of(sequence)) >= 0, String.join(" ", sequence) + " in " + arguments);
    }

}
