package io.sparkdcp.job.exec;

import java.io.Serializable;

/** Called at the end of each writing task's work, where the task ran (tests kill attempts with it). */
@FunctionalInterface
public interface TaskFault extends Serializable {
    TaskFault NONE = phase -> {};

    void afterWork(String phase);
}
