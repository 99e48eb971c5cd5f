package io.sparkdcp.bench;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.PreparedCopy;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.copy.keep.Keep;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * spark-dcp's own copy with one way of handling project IDs: the bench's request with that way
 * set, run through the API as the copy command runs it, on the given runner. The destination
 * directory is made and the roots checked before the clock starts, as the copy command does
 * before its job.
 *
 * @param once the command that makes this same copy in a process of its own, without its SRC and DST
 */
public record EngineContender(String name, CopyRequest request, Runners runners, List<String> once)
        implements Contender {

    /**
     * A new runner for each copy. A type of the bench's own, so that the command classes name
     * neither Spark's nor the job's types: picocli reflects on their methods for every command,
     * a copy on threads included, whose class path has no Spark.
     */
    public interface Runners extends Supplier<PhaseRunner> {}

    public static final String NO_PROJECT_IDS = "no project IDs";
    public static final String SINGLE_FD = "project IDs, single fd";
    public static final String PATH_WAY = "project IDs, path way";
    public static final String SINGLE_FD_ALWAYS_SET = "single fd, always set";
    public static final String SINGLE_FD_IN_PLACE = "single fd, in place";

    public static EngineContender withoutProjectIds(CopyRequest base, Runners runners, List<String> once) {
        return new EngineContender(NO_PROJECT_IDS, way(base, false, MetadataAccess.FD), runners, once);
    }

    public static EngineContender singleFd(CopyRequest base, Runners runners, List<String> once) {
        return new EngineContender(SINGLE_FD, way(base, true, MetadataAccess.FD), runners, once);
    }

    /** The single fd without its skip: FSSETXATTR on every entry, even one that inherited the right project. */
    public static EngineContender singleFdAlwaysSet(CopyRequest base, Runners runners, List<String> once) {
        return new EngineContender(SINGLE_FD_ALWAYS_SET, way(base, true, MetadataAccess.FD_ALWAYS_SET), runners, once);
    }

    /**
     * The single fd with --inplace: each file created under its final name. Beside {@link #singleFd}, which names
     * a new file as the engine does (unnamed and linked where the file system makes unnamed files, as XFS; else,
     * as on the latency file system and Lustre, a marked temporary renamed into place), it shows what each way of
     * naming costs.
     */
    public static EngineContender singleFdInPlace(CopyRequest base, Runners runners, List<String> once) {
        CopyRequest fd = way(base, true, MetadataAccess.FD);
        CopyRequest inPlace = new CopyRequest(fd.keep(), fd.modes().with(CopyModes.Mode.INPLACE, true), fd.batching(), fd.listing(),
                fd.throttle(), fd.log(), fd.run());
        return new EngineContender(SINGLE_FD_IN_PLACE, inPlace, runners, once);
    }

    public static EngineContender pathWay(CopyRequest base, Runners runners, List<String> once) {
        return new EngineContender(PATH_WAY, way(base, true, MetadataAccess.PATH), runners, once);
    }

    /** Threads of this JVM, or Spark's executors when a context is given. */
    public static Runners runners(JavaSparkContext sc, int tasks) {
        return sc != null ? () -> new SparkPhaseRunner(sc) : () -> new LocalPhaseRunner(tasks);
    }

    /** Without project IDs also without flags: the baseline reads no struct fsxattr at all. */
    private static CopyRequest way(CopyRequest base, boolean projectIds, MetadataAccess access) {
        Keep keep = CopyRequest.builder().keep(base.keep()).projectIds(projectIds).flags(projectIds).xattrAccess(access).build().keep();
        return base.withKeep(keep).withRun(base.run().withMessages(line -> {}));
    }

    @Override
    public List<String> commandLine(Path source, Path destination) {
        List<String> command = new ArrayList<>(once);
        command.add(source.toString());
        command.add(destination.toString());
        return command;
    }

    @Override
    public RoundResult copy(Path source, Path destination) throws Exception {
        Files.createDirectory(destination);
        PreparedCopy copy = SparkDcp.prepare(source + "/", destination.toString(), request);
        PhaseRunner runner = runners.get();
        try {
            CopyResult r = copy.runOn(runner);
            return new RoundResult(r.report().wallNanos(), r.report().counts().failed(), r.report().steps());
        } finally {
            if (runner instanceof AutoCloseable c) c.close();
        }
    }
}
