package io.sparkdcp.job.exec;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.CopyEngine;

import java.io.Serializable;

/** What a task does with its share, given an engine opened on the two trees. Shipped to executors. */
@FunctionalInterface
public interface TaskWork<T> extends Serializable {
    BatchResult run(CopyEngine engine, T task);
}
