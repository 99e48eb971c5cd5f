package io.sparkdcp.spark;

import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Where a run's time went, phase by phase: Spark's jobs grouped by their description (a walk's
 * rounds together), with their wall time, stages, tasks, the tasks' run, CPU and GC time and shuffle
 * bytes. Listens from {@link #listen} to {@link #close}; events arrive on Spark's listener thread.
 */
public final class StageTimes extends SparkListener implements AutoCloseable {
    /** A phase's figures; wall is the sum of its jobs' times (the job runs one at a time). */
    public record Phase(String name, int jobs, int stages, long tasks, long wallMillis, long taskMillis, long cpuMillis,
                        long gcMillis, long shuffleWriteBytes, long shuffleReadBytes, long spilledBytes) {
        Phase plus(Phase o) {
            return new Phase(name, jobs + o.jobs, stages + o.stages, tasks + o.tasks, wallMillis + o.wallMillis,
                    taskMillis + o.taskMillis, cpuMillis + o.cpuMillis, gcMillis + o.gcMillis, shuffleWriteBytes + o.shuffleWriteBytes,
                    shuffleReadBytes + o.shuffleReadBytes, spilledBytes + o.spilledBytes);
        }
    }

    /** Where {@code setJobDescription} keeps its text (SparkContext.SPARK_JOB_DESCRIPTION, not public). */
    private static final String JOB_DESCRIPTION = "spark.job.description";
    private static final String PREFIX = "spark-dcp: ";
    private static final long WAIT_MILLIS = 10_000;

    private final SparkContext sc;
    private final Map<String, Phase> phases = new LinkedHashMap<>();
    private final Map<Integer, String> phaseOfJob = new HashMap<>();
    private final Map<Integer, Long> jobStarted = new HashMap<>();
    private final Map<Integer, String> phaseOfStage = new HashMap<>();

    private StageTimes(SparkContext sc) {
        this.sc = sc;
    }

    /** Starts listening to the context's jobs. */
    public static StageTimes listen(JavaSparkContext sc) {
        StageTimes times = new StageTimes(sc.sc());
        sc.sc().addSparkListener(times);
        return times;
    }

    /** The phases in the order they began, once every job that started has ended (or after a while). */
    public synchronized List<Phase> phases() {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (!jobStarted.isEmpty() && System.currentTimeMillis() < deadline) {
            try {
                wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new ArrayList<>(phases.values());
    }

    @Override
    public void close() {
        sc.removeSparkListener(this);
    }

    /** "walk, round 3" and "walk, round 4" are one phase: "walk". */
    static String phaseName(Properties properties) {
        String description = properties == null ? null : properties.getProperty(JOB_DESCRIPTION);
        if (description == null) return "(no description)";
        String name = description.startsWith(PREFIX) ? description.substring(PREFIX.length()) : description;
        return name.replaceFirst(", round \\d+$", "");
    }

    private void add(String phase, Phase figures) {
        phases.merge(phase, figures, Phase::plus);
    }

    private static Phase zero(String name) {
        return new Phase(name, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart start) {
        String phase = phaseName(start.properties());
        phaseOfJob.put(start.jobId(), phase);
        jobStarted.put(start.jobId(), start.time());
        add(phase, zero(phase));
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd end) {
        String phase = phaseOfJob.remove(end.jobId());
        Long started = jobStarted.remove(end.jobId());
        if (phase == null || started == null) return;
        add(phase, new Phase(phase, 1, 0, 0, end.time() - started, 0, 0, 0, 0, 0, 0));
        notifyAll();
    }

    @Override
    public synchronized void onStageSubmitted(SparkListenerStageSubmitted submitted) {
        phaseOfStage.put(submitted.stageInfo().stageId(), phaseName(submitted.properties()));
    }

    @Override
    public synchronized void onStageCompleted(SparkListenerStageCompleted completed) {
        String phase = phaseOfStage.remove(completed.stageInfo().stageId());
        if (phase != null) add(phase, new Phase(phase, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
        String phase = phaseOfStage.get(end.stageId());
        TaskMetrics m = end.taskMetrics();
        if (phase == null || m == null) return;
        add(phase, new Phase(phase, 0, 0, 1, 0, m.executorRunTime(), m.executorCpuTime() / 1_000_000, m.jvmGCTime(), m.shuffleWriteMetrics().bytesWritten(),
                m.shuffleReadMetrics().totalBytesRead(), m.diskBytesSpilled()));
    }
}
