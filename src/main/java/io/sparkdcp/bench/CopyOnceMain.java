package io.sparkdcp.bench;

import io.sparkdcp.copy.MetadataAccess;
import io.sparkdcp.job.LocalPhaseRunner;

import java.nio.file.Path;

/**
 * One engine copy in a JVM of its own, so that strace sees that copy and nothing else of the
 * bench. Args: SRC DST PROJECT_IDS(true|false) FD|PATH|FD_ALWAYS_SET TASKS FILES_IN_FLIGHT BATCH_FILES.
 */
public final class CopyOnceMain {
    private CopyOnceMain() {}

    public static void main(String[] args) throws Exception {
        EngineSettings settings = new EngineSettings(Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]));
        EngineContender c = new EngineContender("once", Boolean.parseBoolean(args[2]), MetadataAccess.valueOf(args[3]), settings,
                () -> new LocalPhaseRunner(settings.tasks()));
        RoundResult r = c.copy(Path.of(args[0]), Path.of(args[1]));
        System.exit(r.failed() == 0 ? 0 : 1);
    }
}
