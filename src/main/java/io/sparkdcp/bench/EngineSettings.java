package io.sparkdcp.bench;

/**
 * How the engine's contenders run: the same for each of them, so that only the project-ID handling differs.
 *
 * @param tasks         tasks running at once (threads of the local runner, or Spark's local[N])
 * @param filesInFlight files each task copies at once
 * @param batchFiles    entries per task at most
 */
public record EngineSettings(int tasks, int filesInFlight, int batchFiles) {
    public EngineSettings {
        if (tasks < 1 || filesInFlight < 1 || batchFiles < 1)
            throw new IllegalArgumentException("tasks, files in flight and batch size must be at least 1");
    }
}
