package io.sparkdcp.bench;

import io.sparkdcp.copy.steps.StepStats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/** An external copy command, timed from start to exit. */
public record CommandContender(String name, BiFunction<Path, Path, List<String>> argv) implements Contender {

    public static CommandContender cpArchive() {
        return new CommandContender("cp -a", (src, dst) -> List.of("cp", "-a", src + "/.", dst.toString()));
    }

    public static CommandContender rsyncArchive() {
        return new CommandContender("rsync -aAX", (src, dst) -> List.of("rsync", "-aAX", src + "/", dst + "/"));
    }

    /**
     * mpifileutils' dcp -p on 2 MPI ranks, as the issue measured it, or empty when dcp or mpirun is not
     * found. dcp is built from source, seldom on PATH: {@code SPARK_DCP_DCP} and {@code MPIRUN} name the
     * programs, else PATH is searched. Open MPI wants consent to run as root and leave to start more
     * ranks than cores; the environment gives both, and other MPIs ignore it.
     */
    public static Optional<CommandContender> dcp(Map<String, String> env) {
        Optional<Path> dcp = program(env, "SPARK_DCP_DCP", "dcp");
        Optional<Path> mpirun = program(env, "MPIRUN", "mpirun");
        if (dcp.isEmpty() || mpirun.isEmpty()) return Optional.empty();
        return Optional.of(new CommandContender("dcp -p, 2 ranks", (src, dst) -> List.of("env", "OMPI_ALLOW_RUN_AS_ROOT=1",
                "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "OMPI_MCA_rmaps_base_oversubscribe=1", mpirun.get().toString(), "-np", "2",
                dcp.get().toString(), "-p", src.toString(), dst.toString())));
    }

    /**
     * The whole {@code spark-dcp copy} command as a user runs it, a process of its own: launcher,
     * JVM start, walk, copy and report.
     */
    public static CommandContender sparkDcp(String name, Path launcher, List<String> options) {
        return new CommandContender(name, (src, dst) -> {
            List<String> argv = new ArrayList<>(List.of(launcher.toString(), "copy"));
            argv.addAll(options);
            argv.addAll(List.of(src + "/", dst.toString())); // the tree's contents into dst
            return argv;
        });
    }

    /** The same command copying an empty directory instead of the tree: its fixed cost, the floor of every copy. */
    public static CommandContender sparkDcpEmpty(String name, Path launcher, Path emptyDirectory) {
        return new CommandContender(name, (src, dst) -> List.of(launcher.toString(), "copy", emptyDirectory + "/", dst.toString()));
    }

    /**
     * A JVM that starts and exits ({@code java -version}, C1 and the parallel collector as the launcher runs a local
     * copy, the JDK's own class archive): the floor under any command written in Java, beside cp -a's whole copy.
     * The java a local copy runs on: JAVA_HOME's, else PATH's.
     */
    public static CommandContender jvmStart(Map<String, String> env) {
        String java = env.get("JAVA_HOME") == null || env.get("JAVA_HOME").isEmpty() ? "java" : env.get("JAVA_HOME") + "/bin/java";
        return new CommandContender("java -version (JVM floor)",
                (src, dst) -> List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC", "-Xshare:auto", "-version"));
    }

    /** submit-scripts/spark-dcp of the checkout these classes came from (bench/target/classes or bench/target/*.jar). */
    public static Path launcher() {
        try {
            Path classes = Path.of(CommandContender.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.getParent().getParent().getParent().resolve("submit-scripts/spark-dcp");
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot locate the launcher from " + CommandContender.class, e);
        }
    }

    @Override
    public List<String> commandLine(Path source, Path destination) {
        return argv.apply(source, destination);
    }

    @Override
    public RoundResult copy(Path source, Path destination) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(argv.apply(source, destination));
        long start = System.nanoTime();
        int exit = Processes.run(command);
        long wall = System.nanoTime() - start;
        return new RoundResult(wall, exit == 0 ? 0 : 1, new StepStats());
    }

    /** True when the command's program is on PATH. */
    public static boolean installed(String program) {
        return onPath(System.getenv(), program).isPresent();
    }

    /** The program the environment variable names (it must be an executable file), else the first one on PATH. */
    static Optional<Path> program(Map<String, String> env, String variable, String program) {
        String named = env.getOrDefault(variable, "");
        if (named.isEmpty()) return onPath(env, program);
        Path path = Path.of(named).toAbsolutePath();
        if (!Files.isRegularFile(path) || !Files.isExecutable(path))
            throw new IllegalArgumentException(variable + "=" + named + " is not an executable file");
        return Optional.of(path);
    }

    private static Optional<Path> onPath(Map<String, String> env, String program) {
        for (String dir : env.getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Path.of(dir, program).toFile().canExecute()) return Optional.of(Path.of(dir, program).toAbsolutePath());
        }
        return Optional.empty();
    }
}
