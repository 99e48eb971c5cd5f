package io.sparkdcp.bench;

import io.sparkdcp.copy.CopyOptions;
import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.copy.XattrPolicy;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.JobOptions;
import io.sparkdcp.job.PhaseRunner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CopyReport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * spark-dcp's own copy with one way of handling project IDs. The destination directory is made
 * before the clock starts, as the copy command does before its job.
 */
public record EngineContender(String name, boolean projectIds, MetadataAccess access, EngineSettings settings,
                              Supplier<PhaseRunner> runners) implements Contender {

    public static final String NO_PROJECT_IDS = "no project IDs";
    public static final String SINGLE_FD = "project IDs, single fd";
    public static final String PATH_WAY = "project IDs, path way";
    public static final String SINGLE_FD_ALWAYS_SET = "single fd, always set";

    public static EngineContender withoutProjectIds(EngineSettings s, Supplier<PhaseRunner> runners) {
        return new EngineContender(NO_PROJECT_IDS, false, MetadataAccess.FD, s, runners);
    }

    public static EngineContender singleFd(EngineSettings s, Supplier<PhaseRunner> runners) {
        return new EngineContender(SINGLE_FD, true, MetadataAccess.FD, s, runners);
    }

    /** The single fd without its skip: FSSETXATTR on every entry, even one that inherited the right project. */
    public static EngineContender singleFdAlwaysSet(EngineSettings s, Supplier<PhaseRunner> runners) {
        return new EngineContender(SINGLE_FD_ALWAYS_SET, true, MetadataAccess.FD_ALWAYS_SET, s, runners);
    }

    public static EngineContender pathWay(EngineSettings s, Supplier<PhaseRunner> runners) {
        return new EngineContender(PATH_WAY, true, MetadataAccess.PATH, s, runners);
    }

    /** A fresh JVM running {@link CopyOnceMain}; it makes the destination itself. */
    @Override
    public List<String> commandLine(Path source, Path destination) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                CopyOnceMain.class.getName(), source.toString(), destination.toString(), String.valueOf(projectIds),
                access.name(), String.valueOf(settings.tasks()),
                String.valueOf(settings.filesInFlight()), String.valueOf(settings.batchFiles()));
    }

    @Override
    public RoundResult copy(Path source, Path destination) throws Exception {
        Files.createDirectory(destination);
        CopyOptions copy = new CopyOptions(PathBytes.of(source.toString()), PathBytes.of(destination.toString()),
                XattrPolicy.all(), access, projectIds, JobOptions.DEFAULT_CHUNK_SIZE);
        JobOptions job = new JobOptions(copy, settings.batchFiles(), JobOptions.DEFAULT_BATCH_BYTES,
                JobOptions.defaultWalkThreads(settings.tasks() * settings.filesInFlight()), settings.filesInFlight());
        CopyReport report = new CopyJob(job, runners.get(), line -> {}).run();
        return new RoundResult(report.wallNanos(), report.counts().failed(), report.steps());
    }
}
