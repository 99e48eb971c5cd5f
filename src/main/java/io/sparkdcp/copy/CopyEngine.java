package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.HardLink;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Filter;

import java.util.ArrayList;
import java.util.List;

/**
 * The copy engine for one task: each method runs one phase of the plan over its share of entries
 * and returns the outcomes; steps go to the recorder. Every method may run again on the same
 * entries (a retried task) and ends with the same tree. Knows nothing of Spark.
 */
public final class CopyEngine implements AutoCloseable {
    private final CopyContext ctx;
    private final StepRecorder steps;
    private final FileCopier files;
    private final DirectoryCopier directories;
    private final LargeFileCopier largeFiles;
    private final ProgressRecorder progress;
    private final Deleter deleter;
    private final ItemLog items;
    private final TaskTrees trees;
    private final boolean ownsTrees;
    private final AttemptLocks locks;

    public CopyEngine(CopyOptions options, StepRecorder steps) {
        this(options, steps, ProgressRecorder.NONE, ItemLog.NONE);
    }

    /** @param items told what was done with each entry (from several threads when the task works in slices) */
    public CopyEngine(CopyOptions options, StepRecorder steps, ProgressRecorder progress, ItemLog items) {
        this(new TaskTrees(options), true, steps, progress, items);
    }

    private CopyEngine(TaskTrees trees, boolean ownsTrees, StepRecorder steps, ProgressRecorder progress, ItemLog items) {
        this.trees = trees;
        this.ownsTrees = ownsTrees;
        this.progress = progress;
        this.items = items;
        this.ctx = new CopyContext(trees, steps, progress);
        this.steps = steps;
        MetadataSync sync = new MetadataSync(ctx);
        this.locks = new AttemptLocks(ctx.steps);
        CreateOrReplace createOrReplace = new CreateOrReplace(ctx, locks);
        Temporaries temporaries = new Temporaries(ctx);
        this.files = new FileCopier(ctx, sync, createOrReplace, temporaries);
        this.directories = new DirectoryCopier(ctx, sync);
        this.deleter = new Deleter(ctx);
        this.largeFiles = new LargeFileCopier(ctx, sync, createOrReplace, locks, temporaries);
    }

    /** Creates directories of one depth (parents exist) with their project IDs; the result names those it created. */
    public BatchResult makeDirectories(List<Entry> level) {
        CopyCounts counts = new CopyCounts(items);
        List<byte[]> created = new ArrayList<>();
        for (Entry e : level) {
            if (directories.make(e, counts)) created.add(e.path());
            progress.done(1, 0);
        }
        return new BatchResult(noticed(counts), List.of(), List.of(), created);
    }

    /** Copies files, symlinks and special files, then hard links to files already copied. */
    public BatchResult copyFiles(List<Entry> entries, List<HardLink> links) {
        CopyCounts counts = new CopyCounts(items);
        for (Entry e : entries) {
            Settling entry = settling(counts);
            files.copy(e, counts);
            settle(entry, 1, dataBytes(e), counts);
        }
        for (HardLink l : links) {
            files.link(l, counts);
            progress.done(1, 0); // a second name, no more bytes: the listing counts each inode's bytes once
        }
        return BatchResult.of(noticed(counts));
    }

    /** Creates large files at their size; the result names those whose chunks must be copied, and their inodes. */
    public BatchResult prepareLargeFiles(List<Entry> batch) {
        CopyCounts counts = new CopyCounts(items);
        List<LargeFile> needChunks = new ArrayList<>();
        for (Entry e : batch) {
            LargeFile created = largeFiles.prepare(e, counts);
            if (created != null) needChunks.add(created);
            progress.done(1, 0);
            if (created == null) progress.replanned(-dataBytes(e)); // kept or failed: no chunks; else they settle their bytes
        }
        return new BatchResult(noticed(counts), needChunks, List.of());
    }

    /** Copies chunks; a failed chunk is returned as a failure for the driver to count once per file. */
    public BatchResult copyChunks(List<Chunk> chunks) {
        CopyCounts counts = new CopyCounts(items);
        List<Failure> failures = new ArrayList<>();
        for (Chunk c : chunks) {
            Settling chunk = settling(counts);
            try {
                counts.addBytes(largeFiles.copyChunk(c));
            } catch (PosixException ex) {
                failures.add(Failure.of(c.file().path(), ex));
            }
            // A sparse file's chunk cannot tell its share of the file's data: the file's finish moves the total.
            settle(chunk, 0, c.file().stat().maybeSparse() ? -1 : c.length(), counts);
        }
        return new BatchResult(noticed(counts), List.of(), failures);
    }

    /** Gives large files whose chunks all arrived their metadata. */
    public BatchResult finishLargeFiles(List<LargeFile> batch) {
        CopyCounts counts = new CopyCounts(items);
        for (LargeFile f : batch) {
            long data = largeFiles.finish(f, counts);
            if (data >= 0) progress.replanned(data - dataBytes(f.file()));
        }
        return BatchResult.of(noticed(counts));
    }

    /** Gives directories of one depth their metadata; call deepest level first. */
    public BatchResult finishDirectories(List<Entry> level) {
        CopyCounts counts = new CopyCounts(items);
        for (Entry e : level) directories.finish(e, counts);
        return BatchResult.of(noticed(counts));
    }

    /** Where this engine records its steps: engines that share a task's work record there too. */
    public StepRecorder steps() {
        return steps;
    }

    /** Where this engine reports entries done: engines that share a task's work report there too. */
    public ProgressRecorder progress() {
        return progress;
    }

    /** Sync's finish: new directories count as copied, existing ones as metadata fixed or skipped. */
    public BatchResult finishDirectories(DirectoryBatch batch) {
        CopyCounts counts = new CopyCounts(items);
        for (int i = 0; i < batch.entries().size(); i++) directories.finishSync(batch.entries().get(i), counts, batch.created()[i]);
        return BatchResult.of(noticed(counts));
    }

    /** Removes destination entries (relative to the destination root) of one depth; call deepest first. */
    /** @param kept the filter DST was walked with: what it leaves out stays, and may keep a directory from being deleted */
    public BatchResult deleteEntries(List<Entry> level, Filter kept) {
        CopyCounts counts = new CopyCounts(items);
        for (Entry e : level) deleter.delete(e, kept, counts);
        return BatchResult.of(noticed(counts));
    }

    /**
     * An engine for one more thread of this task's work: the task's roots (not opened again), what
     * it knows of destination directories, and its item log; its own open directories and buffers,
     * recording into the given recorders. Close it before this engine.
     */
    public CopyEngine slice(StepRecorder sliceSteps, ProgressRecorder sliceProgress) {
        return new CopyEngine(trees, false, sliceSteps, sliceProgress, items);
    }

    @Override
    public void close() {
        try {
            ctx.close();
        } finally {
            if (ownsTrees) trees.close();
        }
    }

    /** The counts with this engine's flag notices (one per flag kind) added. */
    private CopyCounts noticed(CopyCounts counts) {
        ctx.drainNotices(counts);
        locks.drainInto(counts);
        return counts;
    }

    /** Bytes as the listing's total counts them: regular files' data ({@link io.sparkdcp.posix.Stat#dataBytes}). */
    private static long dataBytes(Entry e) {
        return e.stat().dataBytes();
    }

    private Settling settling(CopyCounts counts) {
        return new Settling(ctx.data.written(), counts.bytesCopied());
    }

    /** What the data copier had written and the counts had copied when an entry (or a chunk) began. */
    private record Settling(long writtenBefore, long copiedBefore) {}

    /**
     * At an entry's (or a chunk's) end, the bytes it wrote become the bytes it copied (none when it failed),
     * and the bytes the listing counted for it become those too.
     *
     * @param listed the listing's bytes for it; -1 when it has no share of its own (the total moves later)
     */
    private void settle(Settling before, long entries, long listed, CopyCounts counts) {
        long written = ctx.data.written() - before.writtenBefore();
        long copied = counts.bytesCopied() - before.copiedBefore();
        progress.done(entries, copied - written);
        if (listed >= 0) progress.replanned(copied - listed);
    }

}
