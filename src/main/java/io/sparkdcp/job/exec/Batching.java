package io.sparkdcp.job.exec;

import java.io.Serializable;

/**
 * How the job cuts the work into tasks and how many threads each runs: one of the request's option
 * groups, checked by {@code io.sparkdcp.api.CopyRequest.Builder}.
 *
 * @param batchFiles     {@code --batch-files}: entries per task at most
 * @param batchBytes     {@code --batch-bytes}: bytes per task at most (a task closes at whichever limit comes first)
 * @param chunkSize      {@code --chunk-size}: files larger than this are copied in chunks of this size by several tasks
 * @param walkThreads    {@code --walk-threads}: threads listing the source, on the driver or in each task of a distributed walk
 * @param threadsPerTask {@code --threads-per-task}: files (and directories) each task copies at once, each by its own thread
 */
public record Batching(int batchFiles, long batchBytes, long chunkSize, int walkThreads, int threadsPerTask)
        implements Serializable {
}
