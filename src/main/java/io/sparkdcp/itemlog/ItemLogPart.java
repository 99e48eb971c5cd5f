package io.sparkdcp.itemlog;

import io.sparkdcp.copy.ItemLog;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.store.Store;

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
    private Store store;
    private Store.Output out;
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
                store = Store.of(target.dir());
                out = store.create(temporary(), ItemLogDir.ACCESS);
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
            if (out == null) store = Store.of(target.dir());
            else out.close();
            String part = store.child(target.dir(), name);
            if (out == null) store.delete(part);
            else store.rename(temporary(), part);
            committed = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + target.dir() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (store == null) return;
        try {
            if (!committed) {
                if (out != null) out.close();
                store.delete(temporary());
            }
        } catch (IOException e) {
            // an attempt that failed already: its temporary file is removed with _temporary at the end
        }
    }

    private String temporary() {
        return store.child(store.child(target.dir(), ItemLogDir.TEMPORARY), name + ".attempt-" + attempt);
    }
}
