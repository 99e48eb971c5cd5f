package io.sparkdcp.spark;

import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.TaskInfo;
import scala.Tuple4;
import scala.jdk.javaapi.CollectionConverters;

import java.util.ArrayList;
import java.util.List;

/**
 * The one class that touches Scala's types (tuples, collections, options) that Spark's listener
 * events carry: it turns them into Java values, so the rest of the project reads plain Java.
 * LayeringTest lets no other class import {@code scala.*}.
 */
final class ScalaAdapter {
    private ScalaAdapter() {}

    /** A running task's accumulator updates, as a heartbeat carried them. */
    record TaskUpdates(long taskId, List<AccumulableInfo> accumulables) {}

    static List<TaskUpdates> taskUpdates(SparkListenerExecutorMetricsUpdate update) {
        List<TaskUpdates> out = new ArrayList<>();
        for (Tuple4<Object, Object, Object, scala.collection.immutable.Seq<AccumulableInfo>> task
                : CollectionConverters.asJava(update.accumUpdates())) {
            out.add(new TaskUpdates((Long) task._1(), CollectionConverters.asJava(task._4())));
        }
        return out;
    }

    /** The final accumulator values of an ended task. */
    static List<AccumulableInfo> accumulables(TaskInfo task) {
        return CollectionConverters.asJava(task.accumulables());
    }

    /** An accumulator's update in an event, or null when it carries none. */
    static Object update(AccumulableInfo info) {
        return info.update().isDefined() ? info.update().get() : null;
    }
}
