package io.sparkdcp.walk;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One listed directory in packed form: its path, its own entry (stat from its parent's listing,
 * project ID read while it was open), and its entries that are not directories, sorted by name
 * (each subdirectory has a block of its own). A listing holds these byte arrays and no object per
 * entry, which is what keeps the driver's memory near 100 bytes per entry.
 *
 * <p>Layout (format 1): varint path length, path, u8 1 if the directory's own record follows (tests
 * may list files without their directory), that record ({@link EntryCodec} without a name), varint
 * number of files, then the files as {@link EntryCodec} entries.
 */
public final class DirectoryBlock implements Serializable {
    private static final Comparator<Child> BY_NAME = (a, b) -> PathBytes.compare(a.name(), b.name());

    private final byte[] bytes;
    private transient boolean headerRead; // transient fields start false after deserialization too
    private transient int filesOffset;
    private transient int fileCount;
    private transient boolean hasDirectory;

    private DirectoryBlock(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A file of a directory being packed, by its name in that directory. */
    public record Child(byte[] name, Stat stat, FsXattr project) {}

    /** Packs a directory; {@code files} are the non-directory entries whose parent it is. */
    public static DirectoryBlock of(byte[] path, Entry directory, List<Entry> files) {
        List<Child> children = new ArrayList<>(files.size());
        for (Entry f : files) {
            if (f.type() == FileType.DIRECTORY) throw new IllegalArgumentException("a directory is not a block's file: " + f.display());
            children.add(new Child(f.name(), f.stat(), f.project()));
        }
        return ofChildren(path, directory, children);
    }

    /** Packs a directory from its files' names (the walk's way: no path is built per file). */
    public static DirectoryBlock ofChildren(byte[] path, Entry directory, List<Child> files) {
        if (directory != null && (directory.type() != FileType.DIRECTORY || !java.util.Arrays.equals(directory.path(), path)))
            throw new IllegalArgumentException("a block's own entry must be its directory: " + PathBytes.display(path));
        List<Child> sorted = new ArrayList<>(files);
        sorted.sort(BY_NAME);
        int expectedBytes = path.length + 100 + sorted.size() * (EntryCodec.FIXED + 24);
        EntryCodec.Writer w = new EntryCodec.Writer(expectedBytes).putName(path).putVarint(directory != null ? 1 : 0);
        if (directory != null) w.putRecord(directory.stat(), directory.project());
        w.putVarint(sorted.size());
        for (Child f : sorted) w.putEntry(f.name(), f.stat(), f.project());
        return new DirectoryBlock(w.toBytes());
    }

    /** A block read back from its bytes (a saved listing), checked whole. */
    public static DirectoryBlock fromBytes(byte[] bytes) {
        DirectoryBlock b = new DirectoryBlock(bytes);
        b.directory();
        b.files();
        return b;
    }

    /** The packed bytes, as a saved listing stores them. */
    public byte[] bytes() { return bytes; }

    public byte[] path() {
        return reader(0).name();
    }

    /** The directory's own entry, or null when the block holds only files. */
    public Entry directory() {
        EntryCodec.Reader r = reader(0);
        byte[] path = r.name();
        return r.varint() == 1 ? r.record(path) : null;
    }

    public int fileCount() {
        header();
        return fileCount;
    }

    /** The files, decoded (each a new object). */
    public List<Entry> files() {
        List<Entry> out = new ArrayList<>(fileCount());
        byte[] path = path();
        EntryCodec.Reader r = reader(filesOffset());
        for (int i = 0; i < fileCount; i++) out.add(r.entry(path));
        if (r.hasMore()) throw new IllegalArgumentException("corrupt listing data: bytes after the last file of " + PathBytes.display(path));
        return out;
    }

    /**
     * Walks the files as the planner does: for each, its entry and where its bytes start and end,
     * so that runs of files can be cut out as {@link EntrySlice}s sharing this block's bytes.
     */
    public void forEachFile(FileVisitor visitor) {
        byte[] path = path();
        EntryCodec.Reader r = reader(filesOffset());
        for (int i = 0; i < fileCount; i++) {
            int start = r.position();
            Entry e = r.entry(path);
            visitor.visit(e, start, r.position());
        }
    }

    @FunctionalInterface
    public interface FileVisitor {
        void visit(Entry file, int start, int end);
    }

    /** Files [start, end) of this block's bytes, {@code count} of them, as a slice to ship. */
    public EntrySlice slice(int start, int end, int count) {
        return new EntrySlice(path(), bytes, start, end, count);
    }

    /** All the block's files as one slice. */
    public EntrySlice slice() {
        return slice(filesOffset(), bytes.length, fileCount);
    }

    /** Entries this block holds: its directory (if any) and its files. */
    public int entryCount() {
        header();
        return fileCount + (hasDirectory ? 1 : 0);
    }

    /** Bytes held: the array and the object, for the driver's memory estimate. */
    public long retainedBytes() {
        return 16 + 16 + ((bytes.length + 7) & ~7);
    }

    private int filesOffset() {
        header();
        return filesOffset;
    }

    private void header() {
        if (headerRead) return;
        EntryCodec.Reader r = reader(0);
        r.name();
        hasDirectory = r.varint() == 1;
        if (hasDirectory) r.record(PathBytes.EMPTY);
        fileCount = r.varint();
        filesOffset = r.position();
        headerRead = true;
    }

    private EntryCodec.Reader reader(int offset) {
        return new EntryCodec.Reader(bytes, offset, bytes.length);
    }
}
