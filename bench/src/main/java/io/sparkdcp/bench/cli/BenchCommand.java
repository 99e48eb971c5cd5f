package io.sparkdcp.bench.cli;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.bench.Bench;
import io.sparkdcp.bench.BenchJson;
import io.sparkdcp.bench.BenchReport;
import io.sparkdcp.bench.BenchTable;
import io.sparkdcp.bench.CommandContender;
import io.sparkdcp.bench.Contender;
import io.sparkdcp.bench.EngineContender;
import io.sparkdcp.bench.RequestCounter;
import io.sparkdcp.bench.RoundResult;
import io.sparkdcp.bench.RoundsTable;
import io.sparkdcp.bench.SyscallAccounting;
import io.sparkdcp.bench.Workload;
import io.sparkdcp.bench.WorkloadGenerator;
import io.sparkdcp.bench.latencyfs.LatencyMount;
import io.sparkdcp.bench.latencyfs.LatencyProfile;
import io.sparkdcp.cli.DurationConverter;
import io.sparkdcp.cli.EngineOptions;
import io.sparkdcp.cli.Main;
import io.sparkdcp.cli.ModuleCommand;
import io.sparkdcp.cli.ShortErrors;
import io.sparkdcp.cli.SizeConverter;
import io.sparkdcp.cli.SparkContexts;
import io.sparkdcp.cli.VersionProvider;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code spark-dcp bench [SRC] SCRATCH}: copies a tree (SRC, or one generated in SCRATCH) with and
 * without project IDs, interleaved over several rounds, and prints where the time goes.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        defaultValueProvider = BenchCommand.Defaults.class,
        description = {"Time copies of one tree without project IDs, with them through the single fd (skipping IDs the "
                + "entry inherited, or setting every one: fd-always), and the path way (a second open per file), "
                + "interleaved over several rounds; cp -a and rsync -aAX too when installed.",
                "With one directory, a workload is generated in it (needs XFS for project IDs); with two, the first is copied. "
                        + "Copies go to fresh directories in SCRATCH and are deleted after each round."})
public final class BenchCommand implements ModuleCommand {
    static final String NONE = "none";
    static final String FD = "fd";
    static final String FD_ALWAYS = "fd-always";
    static final String FD_INPLACE = "fd-inplace";
    static final String PATH = "path";
    static final String CP = "cp";
    static final String RSYNC = "rsync";
    static final String DCP = "dcp";
    static final String COMMAND = "command";
    static final String COMMAND_SPARK = "command-spark";
    static final String COMMAND_EMPTY = "command-empty";
    static final String JVM = "jvm";
    private static final List<String> KNOWN_CONTENDERS = List.of(NONE, FD, FD_ALWAYS, FD_INPLACE, PATH, CP, RSYNC, DCP, COMMAND,
            COMMAND_SPARK, COMMAND_EMPTY, JVM);
    private static final String KNOWN_WORDS = "none, fd, fd-always, fd-inplace, path, cp, rsync, dcp, command, command-spark, command-empty or jvm";

    /** The bench's own defaults for two engine options: every xattr, and batches small enough that a small tree spreads over the tasks. */
    static final class Defaults implements IDefaultValueProvider {
        private static final Map<String, String> BENCH = Map.of("--xattrs", "all", "--batch-files", "250");

        @Override
        public String defaultValue(ArgSpec arg) {
            return arg instanceof OptionSpec o ? BENCH.get(o.longestName()) : null;
        }
    }

    @Spec
    CommandSpec spec;

    /** The engine's options, as copy and sync take them, and their limits: the option table's for the bench. */
    @Mixin
    EngineOptions engine;

    @Parameters(arity = "1..2", paramLabel = "[SRC] SCRATCH", description = "Tree to copy (optional) and scratch directory.")
    List<Path> directories;

    int rounds;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3", description = "Copies per contender. Default: ${DEFAULT-VALUE}.")
    void rounds(int n) { rounds = atLeast(n, 1, "--rounds"); }

    int warmups;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
            description = "Rounds run first and not counted (the JIT warms up). Default: ${DEFAULT-VALUE}.")
    void warmups(int n) { warmups = atLeast(n, 0, "--warmup"); }

    List<String> contenders;

    @Option(names = "--contenders", paramLabel = "LIST", split = ",", defaultValue = "none,fd,fd-always,path,cp,rsync",
            description = "Which of none, fd, fd-always, fd-inplace, path, cp, rsync, dcp, command, command-spark, command-empty, jvm "
                    + "to run, in this order; the first is the ratio's baseline (cp, rsync and dcp only when installed). fd-always is "
                    + "the single fd setting every project ID, even one the entry already inherited. fd names each new file as a copy "
                    + "does: unnamed (O_TMPFILE) and linked, or where that is refused (the latency file system, Lustre) a temporary "
                    + "renamed into place; fd-inplace is the single fd with --inplace, each file created under its name. command is the whole "
                    + "spark-dcp copy command as a process (launcher, JVM, walk, copy, report), command-spark the same "
                    + "with --master local[*], command-empty the command copying an empty directory: the fixed cost, jvm a JVM that "
                    + "starts and exits (java -version, the java a local copy runs on): the floor under any Java command. "
                    + "dcp is mpifileutils' dcp -p on 2 MPI ranks: the programs SPARK_DCP_DCP and MPIRUN name, else dcp and "
                    + "mpirun on PATH. Default: ${DEFAULT-VALUE}.")
    void contenders(List<String> names) {
        for (String name : names) {
            if (!KNOWN_CONTENDERS.contains(name))
                throw new ParameterException(spec.commandLine(), "Invalid value for option '--contenders': unknown contender '"
                        + name + "' (expected " + KNOWN_WORDS + ")");
        }
        contenders = names;
    }

    /** Hidden: copy SRC into the new directory DST once with this engine contender, in this process (the bench's strace run). */
    @Option(names = "--once", hidden = true, paramLabel = "CONTENDER")
    String once;

    @Option(names = "--dirs", paramLabel = "N", defaultValue = "100", description = "Generated directories. Default: ${DEFAULT-VALUE}.")
    int dirs;

    @Option(names = "--files-per-dir", paramLabel = "N", defaultValue = "20", description = "Generated small files per directory. Default: ${DEFAULT-VALUE}.")
    int filesPerDir;

    @Option(names = "--large-files", paramLabel = "N", defaultValue = "3", description = "Generated large files. Default: ${DEFAULT-VALUE}.")
    int largeFiles;

    @Option(names = "--large-size", paramLabel = "SIZE", defaultValue = "32M", converter = SizeConverter.class,
            description = "Size of each large file. Default: ${DEFAULT-VALUE}.")
    long largeSize;

    @Option(names = "--keep-workload", description = "Leave the generated tree in SCRATCH/bench-src, to pass it as SRC next time.")
    boolean keepWorkload;

    int tasks = Runtime.getRuntime().availableProcessors();

    @Option(names = "--tasks", paramLabel = "N", description = "Tasks at once, 1 to " + CopyRequest.MAX_THREADS + " (default: the CPUs).")
    void tasks(int n) {
        if (n < 1 || n > CopyRequest.MAX_THREADS)
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--tasks': must be from 1 to "
                    + CopyRequest.MAX_THREADS + ", not " + n);
        tasks = n;
    }

    @Option(names = "--master", paramLabel = "URL", converter = SparkContexts.MasterConverter.class,
            description = "Run the engine on Spark with this master (local[2], say); default: threads in this JVM, without Spark's start-up.")
    String master;

    @Option(names = "--latency", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Copy through a FUSE passthrough over SCRATCH that delays metadata requests by DURATION "
                    + "(200us, 1ms); SRC, if given, must be inside SCRATCH. Needs root, /dev/fuse and libfuse2.")
    Long latencyNanos;

    @Option(names = "--profile", paramLabel = "lustre|all", defaultValue = "lustre",
            description = "Which requests --latency delays: lustre (all but the project-ID GET and the kernel's own "
                    + "open/release around it) or all. Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--cache-timeout", paramLabel = "SECONDS",
            description = "How long the kernel caches look-ups and attributes on the latency mount (default: 1).")
    Double cacheTimeout;

    @Option(names = "--no-syscalls", description = "Do not run each contender once more under strace to count its system calls per file.")
    boolean noSyscalls;

    @Option(names = "--json", description = "Print the results as JSON instead of a table.")
    boolean json;

    @Option(names = "--per-round", description = "Print each round's wall seconds, one column per contender, then median and ratio.")
    boolean perRound;

    @Override
    public Integer call() throws Exception {
        if (once != null) return copyOnce();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path scratch = directories.get(directories.size() - 1).toAbsolutePath();
        if (!Files.isDirectory(scratch)) return usageError("scratch directory " + scratch + " does not exist");
        Path source = directories.size() == 2 ? directories.get(0).toAbsolutePath() : null;
        if (source != null && !Files.isDirectory(source)) return usageError("source " + source + " is not a directory");
        CopyRequest base;
        try {
            base = engine.request().build();
            if (latencyNanos != null) {
                LatencyProfile.named(profile, latencyNanos);
                if (source != null && !source.startsWith(scratch)) throw new IllegalArgumentException("with --latency, SRC must be inside SCRATCH");
            }
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        JavaSparkContext sc;
        try {
            sc = master != null ? SparkContexts.start(master, false) : null;
        } catch (Exception e) { // Spark's own exceptions are checked ones Scala does not declare
            return usageError("cannot start Spark: " + ShortErrors.describe(e));
        }
        EngineContender.Runners runners = EngineContender.runners(sc, tasks);
        Path generated = null;
        Path empty = null;
        try {
            if (contenders.contains(COMMAND_EMPTY)) empty = Files.createTempDirectory(scratch, "bench-empty-");
            List<Contender> chosen = new ArrayList<>();
            for (String name : contenders) {
                Contender c;
                try {
                    c = contender(name, base, runners, empty);
                } catch (IllegalArgumentException e) {
                    return usageError(e.getMessage());
                }
                if (c != null) chosen.add(c);
                else err.println("spark-dcp: " + name + " is not installed here"
                        + (name.equals(DCP) ? " (nor named by SPARK_DCP_DCP and MPIRUN)" : "") + ": no row for it");
            }
            if (chosen.isEmpty()) return usageError("none of the contenders " + contenders + " can run here");
            if (source == null) {
                Path target = scratch.resolve("bench-src");
                // Not ours to remove afterwards: the user may have kept it from an earlier run.
                if (Files.exists(target)) return usageError(target + " exists: remove it or pass it as SRC");
                generated = target;
                Workload w = Workload.standard().withSize(dirs, filesPerDir).withLargeFiles(largeFiles, largeSize);
                WorkloadGenerator.generate(w, generated);
                source = generated;
            }
            String setting = String.format("%s, %d tasks x %s files in flight, batches of %s",
                    sc != null ? "Spark " + master : "local runner", tasks, engine.given("--threads-per-task"), engine.given("--batch-files"));
            Bench bench = new Bench(chosen, rounds, warmups, line -> {
                err.println("spark-dcp: " + line);
                err.flush();
            });
            BenchReport report = latencyNanos == null ? measure(bench, chosen, source, scratch, scratch, RequestCounter.NONE, setting)
                    : throughLatencyFs(bench, chosen, source, scratch, setting);
            out.print(json ? BenchJson.render(report) : perRound ? RoundsTable.render(report) : BenchTable.render(report));
            out.flush();
            return report.contenders().stream().anyMatch(c -> c.failed() > 0) ? 1 : 0;
        } finally {
            if (sc != null) sc.stop();
            if (empty != null) Files.deleteIfExists(empty);
            if (generated != null && !keepWorkload) new ProcessBuilder("rm", "-rf", "--", generated.toString()).start().waitFor();
        }
    }

    /** {@code --once NAME SRC DST}: one copy by one engine contender on this JVM's threads, nothing printed; exit 0 or 1. */
    private int copyOnce() throws Exception {
        if (directories.size() != 2) return usageError("--once needs SRC and DST");
        Contender c = contender(once, engine.request().build(), EngineContender.runners(null, tasks), null);
        if (!(c instanceof EngineContender)) return usageError("--once takes an engine contender, not " + once);
        RoundResult r = c.copy(directories.get(0).toAbsolutePath(), directories.get(1).toAbsolutePath());
        return r.failed() == 0 ? 0 : 1;
    }

    /** The command that makes one contender's copy in a JVM of its own, so that strace sees that copy and nothing else of the bench. */
    private List<String> onceCommand(String name) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "bench", "--once", name,
                "--tasks", String.valueOf(tasks)));
        command.addAll(engine.words());
        command.add("--");
        return command;
    }

    /** The timed rounds, then (strace permitting) one traced copy per contender. */
    private BenchReport measure(Bench bench, List<Contender> chosen, Path source, Path scratch, Path scratchBelow,
                                RequestCounter requests, String setting) throws Exception {
        BenchReport report = bench.run(source, scratch, scratchBelow, requests, setting);
        if (noSyscalls || !SyscallAccounting.available()) return report;
        return report.withSyscalls(SyscallAccounting.count(chosen, source, report.tree().files(), scratch, scratchBelow));
    }

    /** Mounts the latency file system over SCRATCH on a temporary mount point for the whole bench. */
    private BenchReport throughLatencyFs(Bench bench, List<Contender> chosen, Path source, Path scratch, String setting) throws Exception {
        LatencyProfile p = LatencyProfile.named(profile, latencyNanos);
        if (cacheTimeout != null) p = p.withCacheTimeouts(cacheTimeout, cacheTimeout);
        Path mountPoint = Files.createTempDirectory("spark-dcp-bench-fuse-");
        try (LatencyMount mount = LatencyMount.mount(scratch, mountPoint, p)) {
            String described = String.format("%s, latency %.0f µs (%s profile, %.1f s caches)", setting, latencyNanos / 1e3,
                    p.name(), p.entryTimeoutSeconds());
            return measure(bench, chosen, mount.dir().resolve(scratch.relativize(source)), mount.dir(), scratch, mount.fs()::counts, described);
        } finally {
            Files.deleteIfExists(mountPoint);
        }
    }

    /** null for a command that is not installed: the table shows what could run. */
    private Contender contender(String name, CopyRequest base, EngineContender.Runners runners, Path empty) {
        return switch (name) {
            case NONE -> EngineContender.withoutProjectIds(base, runners, onceCommand(name));
            case FD -> EngineContender.singleFd(base, runners, onceCommand(name));
            case FD_ALWAYS -> EngineContender.singleFdAlwaysSet(base, runners, onceCommand(name));
            case FD_INPLACE -> EngineContender.singleFdInPlace(base, runners, onceCommand(name));
            case PATH -> EngineContender.pathWay(base, runners, onceCommand(name));
            case CP -> CommandContender.installed("cp") ? CommandContender.cpArchive() : null;
            case RSYNC -> CommandContender.installed("rsync") ? CommandContender.rsyncArchive() : null;
            case DCP -> CommandContender.dcp(System.getenv()).orElse(null);
            case COMMAND -> CommandContender.sparkDcp("spark-dcp copy", CommandContender.launcher(), List.of());
            case COMMAND_SPARK -> CommandContender.sparkDcp("spark-dcp copy local[*]", CommandContender.launcher(),
                    List.of("--master", "local[*]"));
            case COMMAND_EMPTY -> CommandContender.sparkDcpEmpty("spark-dcp, empty dir", CommandContender.launcher(), empty);
            case JVM -> CommandContender.jvmStart(System.getenv());
            default -> throw new IllegalStateException("contender names are checked first: " + name);
        };
    }

    private int atLeast(int n, int min, String option) {
        if (n < min) throw new ParameterException(spec.commandLine(), "Invalid value for option '" + option + "': must be at least " + min + ", not " + n);
        return n;
    }

    private int usageError(String reason) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("spark-dcp: " + reason);
        err.flush();
        return Main.EXIT_USAGE;
    }
}

