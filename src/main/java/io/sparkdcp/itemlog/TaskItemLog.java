package io.sparkdcp.itemlog;

import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.ItemLogTarget;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One task attempt's share of the itemized log ({@link ItemLogDir}), or nothing when the copy has no
 * {@code --log}: then Hadoop's classes, which a run on the launcher's short class path lacks, are never
 * touched. {@link #commit} once the work has succeeded; {@link #close} always.
 */
public final class TaskItemLog implements AutoCloseable {
    private static final TaskItemLog NONE = new TaskItemLog(null);

    private final ItemLogPart part;

    private TaskItemLog(ItemLogPart part) {
        this.part = part;
    }

    /**
     * The part of one task attempt: {@code phase} numbered by the runner, {@code task} within the phase,
     * {@code attempt} unique among the task's attempts, {@code retry} for any but its first.
     */
    public static TaskItemLog open(CopyOptions options, int phase, int task, long attempt, boolean retry) {
        ItemLogTarget target = options.itemLog();
        return target == null ? NONE : new TaskItemLog(new ItemLogPart(target, String.format("part-%05d-%05d", phase, task),
                Long.toString(attempt), retry));
    }

    /** A part of the driver's (failures of the job, a dry run's or a comparison's lines), under a name of its own. */
    public static TaskItemLog forDriver(CopyOptions options) {
        ItemLogTarget target = options.itemLog();
        return target == null ? NONE : new TaskItemLog(new ItemLogPart(target,
                "part-driver-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()), "0", false));
    }

    /** Where the engine tells what it did. */
    public ItemLog log() {
        return part == null ? ItemLog.NONE : part;
    }

    /** One difference a comparison found. */
    public void difference(Difference d) {
        if (part != null) part.difference(d);
    }

    /** Puts the lines in place, replacing an earlier attempt's. */
    public void commit() {
        if (part != null) part.commit();
    }

    /** Drops the lines unless committed. */
    @Override
    public void close() {
        if (part != null) part.close();
    }
}
