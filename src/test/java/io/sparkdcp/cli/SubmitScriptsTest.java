package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scripts users start spark-dcp with on clusters, Slurm and Airflow, checked as far as this
 * machine allows: bash syntax and shellcheck for the shell scripts, a compile for the DAG (a real
 * Airflow runs it in python/tests/test_airflow.py).
 */
class SubmitScriptsTest {
    private static final Path SCRIPTS = Path.of("submit-scripts").toAbsolutePath();
    private static final List<String> SHELL_SCRIPTS = List.of("spark-dcp", "cluster/common.sh", "cluster/standalone",
            "cluster/yarn", "cluster/spark-submit-from-build", "cluster/kubernetes", "slurm/spark-dcp.sbatch", "bench-startup", "bench-sync", "build-mpifileutils");

    @TempDir
    Path tmp;

    @Test
    void shellScriptsParse() {
        for (String script : SHELL_SCRIPTS) {
            Commands.Result r = Commands.tryRun("bash", "-n", SCRIPTS.resolve(script).toString());
            assertEquals(0, r.exitCode(), script + ": " + r.stderr());
        }
    }

    @Test
    void shellScriptsPassShellcheck() {
        Commands.requireTool("shellcheck", "shellcheck (Debian package shellcheck)");
        List<String> command = new ArrayList<>(List.of("shellcheck", "--external-sources"));
        for (String script : SHELL_SCRIPTS) command.add(SCRIPTS.resolve(script).toString());
        Commands.Result r = Commands.tryRun(command.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
    }

    @Test
    void airflowDagCompiles() {
        Commands.requireTool("python3", "python3");
        Path dag = SCRIPTS.resolve("airflow/spark_dcp_migration.py");
        // cfile: the compiled file goes to the temporary directory, not next to the DAG.
        Commands.Result r = Commands.tryRun("python3", "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                dag.toString(), tmp.resolve("dag.pyc").toString());
        assertEquals(0, r.exitCode(), r.stderr());
    }

    /**
     * The YARN script's options to spark-submit (a stand-in that prints them) in an unpacked
     * distribution's layout: authentication and encryption by default, neither only with --insecure,
     * and a spark.authenticate in SPARK_DCP_SUBMIT_OPTIONS refused.
     */
    @Test
    void yarnScriptAuthenticatesUnlessToldInsecure() throws Exception {
        Path install = tmp.resolve("install");
        Files.createDirectories(install.resolve("submit-scripts/cluster"));
        for (String file : List.of("yarn", "common.sh"))
            Files.copy(SCRIPTS.resolve("cluster").resolve(file), install.resolve("submit-scripts/cluster").resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
        Files.createDirectories(install.resolve("conf"));
        Files.writeString(install.resolve("conf/spark-defaults.conf"), "");
        Files.createDirectories(install.resolve("lib"));
        Files.writeString(install.resolve("lib/spark-dcp-app.jar"), "");
        Commands.executable(Files.createDirectories(tmp.resolve("spark/bin")).resolve("spark-submit"), "printf '%s\\n' \"$@\"");

        assertEquals(List.of("spark.authenticate=true", "spark.network.crypto.enabled=true"), securityConfs(yarnConfs(install, "", "copy", "a", "b")));
        assertEquals(List.of("spark.authenticate=true"), securityConfs(yarnConfs(install, "SPARK_DCP_ENCRYPTION=off", "copy", "a", "b")));
        Commands.Result insecure = yarnConfs(install, "", "--insecure", "copy", "a", "b");
        assertEquals(0, insecure.exitCode(), insecure.stderr());
        assertEquals(List.of(), securityConfs(insecure));
        List<String> insecureArgs = insecure.stdout().lines().toList();
        assertEquals(List.of("copy", "a", "b"), insecureArgs.subList(insecureArgs.size() - 3, insecureArgs.size()), insecure.stdout());
        Commands.Result optedOut = yarnConfs(install, "SPARK_DCP_SUBMIT_OPTIONS=--conf spark.authenticate=false", "copy", "a", "b");
        assertEquals(2, optedOut.exitCode(), optedOut.stdout());
        assertEquals("spark-dcp: usage: SPARK_DCP_SUBMIT_OPTIONS sets spark.authenticate=false: the script authenticates, and only --insecure turns that off\n",
                optedOut.stderr());
    }

    private static List<String> securityConfs(Commands.Result submit) {
        return submit.stdout().lines().filter(l -> l.startsWith("spark.authenticate") || l.startsWith("spark.network.crypto")).toList();
    }

    private Commands.Result yarnConfs(Path install, String setting, String... args) {
        List<String> command = new ArrayList<>(List.of(install.resolve("submit-scripts/cluster/yarn").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SPARK_HOME", tmp.resolve("spark").toString());
        builder.environment().put("HADOOP_CONF_DIR", tmp.toString());
        builder.environment().remove("SPARK_DCP_SUBMIT_OPTIONS");
        builder.environment().remove("SPARK_DCP_ENCRYPTION");
        if (!setting.isEmpty()) builder.environment().put(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
        return Commands.tryRun(builder);
    }

    /** Under CI=true a missing tool fails the test; elsewhere it skips it, saying why. */
}
