package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
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

    /** Under CI=true a missing tool fails the test; elsewhere it skips it, saying why. */
}
