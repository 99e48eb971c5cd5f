package io.sparkdcp.cli;

import io.sparkdcp.testing.AppJars;
import io.sparkdcp.testing.ChildJvm;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The application's name, as YARN, Slurm's Spark master and the event log show it, is the one given to
 * spark-submit ({@code --conf spark.app.name}, or the properties file's), and spark-dcp without one:
 * copies submitted with submit-scripts/cluster/spark-submit-from-build on a local master, their names
 * read from Spark's event logs. ({@code --name}, as Airflow's provider passes it, is python/tests/test_airflow.py's.)
 */
class AppNameSubmitTest {
    private static final Path SUBMIT = AppJars.PROJECT.resolve("submit-scripts/cluster/spark-submit-from-build");
    private static final Path DEFAULTS = AppJars.PROJECT.resolve("spark-conf/spark-defaults.conf");
    private static final Pattern APP_NAME = Pattern.compile("\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"([^\"]*)\"");

    @TempDir
    Path tmp;

    @Test
    void theSubmittedNameIsTheApplicationsAndSparkDcpWithoutOne() throws Exception {
        LoopMount.requireRootAndXfs();
        AppJars.fromLauncherBuild();
        Path defaultsWithName = Files.writeString(tmp.resolve("spark-defaults.conf"),
                Files.readString(DEFAULTS) + "\nspark.app.name                   from-properties-file\n");
        try (LoopMount xfs = LoopMount.create("app-name", LoopMount.MIN_SIZE_MIB)) {
            Path src = Files.createDirectories(xfs.dir().resolve("src/sub"));
            Files.writeString(src.resolve("f"), "data\n");
            Map<String, List<String>> submitOptions = Map.of(
                    "from-conf", List.of("--properties-file", DEFAULTS.toString(), "--conf", "spark.app.name=from-conf"),
                    "from-properties-file", List.of("--properties-file", defaultsWithName.toString()),
                    "spark-dcp", List.of("--properties-file", DEFAULTS.toString()));
            for (Map.Entry<String, List<String>> named : submitOptions.entrySet()) {
                Path events = Files.createDirectories(tmp.resolve("events-" + named.getKey()));
                Path dst = xfs.dir().resolve("dst-" + named.getKey());
                List<String> command = new ArrayList<>(List.of(SUBMIT.toString(), "--master", "local[1]", "--class", Main.class.getName()));
                command.addAll(named.getValue());
                command.addAll(List.of(AppJars.PROJECT.resolve("target/spark-dcp-app.jar").toString(), "copy", src.getParent() + "/", dst.toString()));
                ProcessBuilder submit = new ProcessBuilder(command);
                submit.environment().remove("SPARK_HOME");
                submit.environment().put("JAVA_HOME", System.getProperty("java.home"));
                submit.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
                submit.environment().put("SPARK_SUBMIT_OPTS", String.join(" ", "-Dspark.eventLog.enabled=true",
                        "-Dspark.eventLog.dir=file:" + events, "-Dspark.eventLog.compress=false", "-Dspark.eventLog.rolling.enabled=false",
                        ChildJvm.flags()));
                Commands.Result run = Commands.tryRun(submit);
                assertEquals(0, run.exitCode(), command + "\n" + run.stdout() + run.stderr());
                TreeComparator.assertSameTree(src.getParent(), dst);
                assertEquals(List.of(named.getKey()), appNames(events), String.join(" ", command));
            }
        }
    }

    private static List<String> appNames(Path events) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> logs = Files.list(events)) {
            for (Path log : logs.filter(Files::isRegularFile).toList()) {
                Matcher m = APP_NAME.matcher(Files.readString(log));
                while (m.find()) names.add(m.group(1));
            }
        }
        return names;
    }
}
