package io.sparkdcp.copy;

/**
 * Which attempt of its task an engine works for. A retry may run while an earlier attempt of the same
 * task still does: one whose executor was cut off from its killed worker runs on until Spark's worker
 * watcher stops it. A retry therefore holds each file it creates locked until it closes it, so that
 * the earlier attempt cannot replace it ({@link AttemptLocks}); a first attempt has no earlier one to
 * fear and spares that call. (Speculation, which would run two attempts from the start, is refused.)
 */
public enum TaskAttempt {
    FIRST, RETRY;

    /** A retry when Spark ran this task or its stage before (a zombie stage attempt's tasks run on too). */
    public static TaskAttempt of(int attemptNumber, int stageAttemptNumber) {
        return attemptNumber > 0 || stageAttemptNumber > 0 ? RETRY : FIRST;
    }
}
