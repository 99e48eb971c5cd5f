package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example Airflow DAG's copies as Airflow and the apache-spark provider run them; Airflow itself
 * cannot be installed here. src/test/python/airflow_dag_tasks.py imports the DAG with stand-ins for
 * Airflow's modules, builds each SparkSubmitOperator's command line by the provider's rules, and runs
 * it with spark-submit-from-build as {@code spark-submit} on PATH. Airflow's default connection
 * spark_default (host yarn, extra queue root.default) has its host pointed at local[2]; the DAG's
 * site paths are replaced by the test's.
 */
class AirflowDagCommandTest {
    private static final Path DAG = AppJars.PROJECT.resolve("submit-scripts/airflow/spark_dcp_migration.py");
    private static final Path TASKS = AppJars.PROJECT.resolve("src/test/python/airflow_dag_tasks.py");
    private static final String RUN_ID = "manual__2026-12-02T05:00:00+00:00";
    private static final Map<String, String> APP_NAMES = Map.of("copy", "spark-dcp-migration", "copy_yarn_cluster", "spark-dcp-home");
    private static final Map<String, String> DEPLOY_MODES = Map.of("copy", "client", "copy_yarn_cluster", "cluster");
    private static final Map<String, String> CHECKS = Map.of("copy", "check_report", "copy_yarn_cluster", "check_home_report");
    private static final Pattern APP_NAME = Pattern.compile("\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"([^\"]*)\"");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    private static LoopMount xfs;

    @BeforeAll
    static void build() throws Exception {
        LoopMount.requireRootAndXfs();
        Commands.requireTool("python3", "python3");
        AppJars.fromLauncherBuild(); // target/spark-dcp-app.jar and target/classpath.txt
        xfs = LoopMount.create("airflow", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (xfs != null) xfs.close();
    }

    /** Both copies exit 0 with their names, write their reports, and the checks pass on them. */
    @Test
    void eachCopyRunsAsTheProviderBuildsItAndItsCheckPasses() throws Exception {
        Path lustre = xfs.dir().resolve("lustre");
        Path projects = tree(lustre.resolve("old/projects"), 3);
        Path home = tree(lustre.resolve("old/home"), 2);
        Files.createDirectories(lustre.resolve("new"));
        Path reports = Files.createDirectories(tmp.resolve("reports"));
        // An earlier attempt's reports: each attempt removes them before it starts.
        Files.writeString(reports.resolve("migration-" + RUN_ID + ".json"), "{\"exit_code\": 0, \"copied\": 123456}");
        Files.writeString(reports.resolve("home-" + RUN_ID + ".json"), "{\"exit_code\": 0, \"copied\": 123456}");
        Path events = Files.createDirectories(tmp.resolve("events"));

        JsonNode tasks = runTasks("3", lustre, reports, true, events);

        for (String copy : List.of("copy", "copy_yarn_cluster")) {
            JsonNode task = tasks.get(copy);
            List<String> command = strings(task.get("command"));
            assertEquals("spark-submit", command.get(0), command.toString());
            assertOption(command, "--master", "local[2]");
            assertOption(command, "--deploy-mode", DEPLOY_MODES.get(copy));
            assertOption(command, "--name", APP_NAMES.get(copy));
            assertEquals(0, task.get("exit_code").asInt(), command + "\n" + task.get("log").asText());
            JsonNode check = tasks.get(CHECKS.get(copy));
            assertEquals(List.of(copy), strings(check.get("upstream")));
            assertFalse(check.has("error"), check.toString());
            JsonNode report = JSON.readTree(Path.of(check.get("op_kwargs").get("report_path").asText()).toFile());
            assertEquals(0, report.get("exit_code").asInt(), report.toString());
            assertEquals(report.get("copied").asLong(), check.get("result").get("copied").asLong(), check.toString());
        }
        TreeComparator.assertSameTree(projects, lustre.resolve("new/projects"));
        TreeComparator.assertSameTree(home, lustre.resolve("new/home"));

        // The client-mode copy's driver runs in the task: its log carries spark-dcp's lines, not Spark's INFO ones.
        String clientLog = tasks.get("copy").get("log").asText();
        List<String> info = clientLog.lines().filter(line -> line.matches(".*\\bINFO\\b.*")).toList();
        assertEquals(List.of(), info, clientLog);
        assertEquals(new TreeSet<>(APP_NAMES.values()), appNames(events));
    }

    /**
     * An attempt that stops before it writes a report (Spark failing to start, say) leaves none, not
     * the earlier attempt's: the checks fail. The DAG imports on Airflow 2's module paths as on 3's,
     * with the same commands.
     */
    @Test
    void aCheckAfterAnAttemptThatWroteNoReportFails() throws Exception {
        Path reports = Files.createDirectories(tmp.resolve("stale-reports"));
        Path stale = reports.resolve("migration-" + RUN_ID + ".json");
        Files.writeString(stale, "{\"exit_code\": 0, \"copied\": 1}");

        JsonNode airflow2 = runTasks("2", tmp.resolve("no-lustre"), reports, false, tmp);
        assertFalse(Files.exists(stale), "the attempt kept the earlier attempt's report");
        for (String check : CHECKS.values()) {
            assertTrue(airflow2.get(check).path("error").asText().contains("the last copy attempt wrote no report"), airflow2.get(check).toString());
        }
        JsonNode airflow3 = runTasks("3", tmp.resolve("no-lustre"), reports, false, tmp);
        for (String copy : CHECKS.keySet()) assertEquals(airflow3.get(copy).get("command"), airflow2.get(copy).get("command"));
    }

    /**
     * Runs the DAG's tasks (python3 airflow_dag_tasks.py) with spark-submit-from-build as spark-submit.
     * submit false: each copy attempt stops before spark-submit.
     */
    private static JsonNode runTasks(String layout, Path lustre, Path reports, boolean submit, Path events) throws IOException {
        ObjectNode spec = JSON.createObjectNode().put("dag", DAG.toString()).put("layout", layout).put("submit", submit)
                .put("work_dir", tmp.resolve("work-" + layout).toString());
        spec.putObject("connections").putObject("spark_default").put("conn_type", "spark").put("host", "local[2]")
                .putObject("extra").put("queue", "root.default");
        spec.putObject("context").put("run_id", RUN_ID);
        spec.putObject("replace").put("/shared/spark-dcp", AppJars.PROJECT.toString()).put("/shared/spark-dcp-reports", reports.toString())
                .put("/lustre", lustre.toString());
        Path specFile = Files.writeString(Files.createTempFile(tmp, "spec", ".json"), spec.toString());
        Path resultFile = Files.createTempFile(tmp, "result", ".json");

        Path bin = Files.createDirectories(tmp.resolve("bin"));
        if (!Files.exists(bin.resolve("spark-submit"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
            Files.createSymbolicLink(bin.resolve("spark-submit"), AppJars.PROJECT.resolve("submit-scripts/cluster/spark-submit-from-build"));
        ProcessBuilder python = new ProcessBuilder("python3", TASKS.toString(), specFile.toString(), resultFile.toString());
        Map<String, String> env = python.environment();
        env.remove("SPARK_HOME");
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        // Outside the command line (as a site's environment would be): the event logs tell each application's name.
        env.put("SPARK_SUBMIT_OPTS", String.join(" ", "-Dspark.eventLog.enabled=true", "-Dspark.eventLog.dir=file:" + events,
                "-Dspark.eventLog.compress=false", "-Dspark.eventLog.rolling.enabled=false", ChildJvm.flags()));
        Commands.Result run = Commands.tryRun(python);
        assertEquals(0, run.exitCode(), run.stdout() + run.stderr());
        return JSON.readTree(resultFile.toFile());
    }

    /** A directory of a few small files and a subdirectory: files + 1 entries. */
    private static Path tree(Path root, int files) throws IOException {
        Files.createDirectories(root.resolve("sub"));
        for (int i = 0; i < files; i++) Files.writeString(root.resolve(i == 0 ? "sub/f0" : "f" + i), "file " + i + "\n");
        return root;
    }

    private static Set<String> appNames(Path events) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> logs = Files.list(events)) {
            for (Path log : logs.filter(Files::isRegularFile).toList()) {
                Matcher m = APP_NAME.matcher(Files.readString(log));
                while (m.find()) names.add(m.group(1));
            }
        }
        return names;
    }

    private static void assertOption(List<String> command, String option, String value) {
        int at = command.indexOf(option);
        assertTrue(at >= 0 && at + 1 < command.size() && command.get(at + 1).equals(value), option + " " + value + " in " + command);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
