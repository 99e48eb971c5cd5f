package io.sparkdcp.itemlog;

import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * One part being written: opened at its first line, so an attempt that logs nothing leaves no file.
 * Thread-safe (a task's slices share it). {@link #close} without {@link #commit} drops what was written.
 */
final class ItemLogPart implements ItemLog, AutoCloseable {
    private final ItemLogTarget target;
    private final String name;
    private final String attempt;
    /** Not the task's first attempt: an earlier one may have committed a part that this one must replace. */
    private final boolean retry;
    private FileSystem fs;
    private FSDataOutputStream out;
    private boolean committed;

    ItemLogPart(ItemLogTarget target, String name, String attempt, boolean retry) {
        this.target = target;
        this.name = name;
        this.attempt = attempt;
        this.retry = retry;
    }

    @Override
    public void record(Action action, FileType type, byte[] path, Failure failure) {
        if (action == Action.SKIPPED && !target.skipped()) return;
        write(ItemLine.of(action, type, target.prefix(), path, failure));
    }

    @Override
    public void fixed(FileType type, byte[] path, Set<Difference.Kind> kinds) {
        write(ItemLine.ofFixed(type, target.prefix(), path, kinds));
    }

    @Override
    public void jobFailure(Failure failure) {
        write(ItemLine.ofJobFailure(target.prefix(), failure));
    }

    /** One difference a comparison found. */
    public void difference(Difference d) {
        write(ItemLine.ofDifference(d));
    }

    private synchronized void write(ItemLine line) {
        try {
            if (out == null) {
                fs = ItemLogDir.fileSystem(target.dir());
                out = fs.create(temporary(), true);
            }
            out.write((line.format() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + target.dir() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Puts the part in place, replacing an earlier attempt's; a retry with no line removes an earlier
     * attempt's (one whose result Spark lost after it committed).
     */
    public synchronized void commit() {
        if (out == null && !retry) return;
        try {
            if (out == null) fs = ItemLogDir.fileSystem(target.dir());
            else out.close();
            Path part = new Path(target.dir(), name);
            fs.delete(part, false);
            if (out != null && !fs.rename(temporary(), part)) throw new IOException("cannot rename " + temporary() + " to " + part);
            committed = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + target.dir() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (fs == null) return;
        try (FileSystem owned = fs) {
            if (!committed) {
                out.close();
                owned.delete(temporary(), false);
            }
        } catch (IOException e) {
            // an attempt that failed already: its temporary file is removed with _temporary at the end
        }
    }

    private Path temporary() {
        return new Path(new Path(target.dir(), ItemLogDir.TEMPORARY), name + ".attempt-" + attempt);
    }
}
