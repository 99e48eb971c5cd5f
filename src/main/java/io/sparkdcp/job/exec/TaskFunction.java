package io.sparkdcp.job.exec;

import java.io.Serializable;

/** A function of one task's input, shipped to executors. */
@FunctionalInterface
public interface TaskFunction<T, R> extends Serializable {
    R apply(T task);
}
