package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The walk's result: every entry it could stat, packed one {@link DirectoryBlock} per directory
 * (sorted by path, the root first), and the errors it met on the way.
 */
public record Listing(List<DirectoryBlock> blocks, List<Failure> errors) {
    private static final Comparator<DirectoryBlock> BY_PATH = (a, b) -> PathBytes.compare(a.path(), b.path());

    /** A listing of blocks in any order. */
    public static Listing sorted(List<DirectoryBlock> blocks, List<Failure> errors) {
        List<DirectoryBlock> ordered = new ArrayList<>(blocks);
        ordered.sort(BY_PATH);
        return new Listing(ordered, errors);
    }

    /** Packs entries given as objects (tests, small trees): each directory's files go into its block. */
    public static Listing of(List<Entry> entries, List<Failure> errors) {
        Map<ByteBuffer, Entry> directories = new LinkedHashMap<>();
        Map<ByteBuffer, List<Entry>> files = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.type() == FileType.DIRECTORY) directories.put(ByteBuffer.wrap(e.path()), e);
            else files.computeIfAbsent(ByteBuffer.wrap(e.parent()), k -> new ArrayList<>()).add(e);
        }
        List<DirectoryBlock> blocks = new ArrayList<>();
        for (Map.Entry<ByteBuffer, Entry> d : directories.entrySet())
            blocks.add(DirectoryBlock.of(d.getValue().path(), d.getValue(), files.getOrDefault(d.getKey(), List.of())));
        for (Map.Entry<ByteBuffer, List<Entry>> f : files.entrySet())
            if (!directories.containsKey(f.getKey())) blocks.add(DirectoryBlock.of(f.getValue().get(0).parent(), null, f.getValue()));
        return sorted(blocks, errors);
    }

    /** Every entry as an object, sorted by path (the root first): for small trees and sync's comparisons. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        for (DirectoryBlock b : blocks) {
            Entry d = b.directory();
            if (d != null) out.add(d);
            out.addAll(b.files());
        }
        out.sort((a, b) -> PathBytes.compare(a.path(), b.path()));
        return out;
    }

    public long entryCount() {
        long n = 0;
        for (DirectoryBlock b : blocks) n += b.entryCount();
        return n;
    }

    /** What the packed listing holds in memory, blocks and the list of them. */
    public long retainedBytes() {
        long n = 16 + 4L * blocks.size();
        for (DirectoryBlock b : blocks) n += b.retainedBytes();
        return n;
    }
}
