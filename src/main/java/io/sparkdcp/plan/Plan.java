package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.util.List;

/**
 * What the job does, in order: create directories level by level (the root at level 0), copy file
 * batches, copy large files in chunks (prepare, chunks, finish), then finish directories deepest first.
 */
public record Plan(List<List<Entry>> directoryLevels, List<FileBatch> fileBatches, List<Entry> largeFiles,
                   long totalEntries, long totalBytes) {

    /** Chunks of the given large files. */
    public static List<Chunk> chunksOf(List<LargeFile> files, long chunkSize) {
        List<Chunk> chunks = new java.util.ArrayList<>();
        for (LargeFile large : files) {
            Entry f = large.file();
            long size = f.stat().size();
            for (long off = 0; off < size; off += chunkSize)
                chunks.add(new Chunk(f, off, Math.min(chunkSize, size - off), large.destinationIno(), large.temporary()));
        }
        return chunks;
    }
}
