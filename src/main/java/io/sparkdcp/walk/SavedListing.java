package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.store.Store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A listing kept on disk for later runs, in a directory on this machine or any Hadoop file system ({@link Store}):
 * one or more {@code part-NNNNN} files, each a block-compressed SequenceFile ({@link SequenceFiles}) of (directory
 * path, {@link DirectoryBlock} bytes) pairs, one per listed directory; its metadata names the format, the source
 * root (base64 of its bytes), whether project IDs were read, when it was made, the part's entry count and the
 * part's walk errors; {@code _SUCCESS} is written last, so a listing cut short is never read. The driver writes one
 * part in path order; the executors' tasks write one part each ({@link #writePart}), in no order. Format 2 listings
 * (one part) are read as before.
 */
public final class SavedListing {
    public static final String FORMAT = "spark-dcp-listing-3";
    /** The format of one part written by the driver: read as a listing of one part. */
    static final String FORMAT_2 = "spark-dcp-listing-2";
    static final String SUCCESS = "_SUCCESS";
    /** Hadoop's local file system wrote checksum files (.NAME.crc) beside each. */
    private static final java.util.regex.Pattern OWN_FILES = java.util.regex.Pattern.compile("\\.?(part-\\d{5,}|_SUCCESS)(\\.crc)?");
    private static final java.util.regex.Pattern PART = java.util.regex.Pattern.compile("part-\\d{5,}");
    /** As Hadoop's local file system wrote it: everyone may read it (the umask applies). */
    private static final Store.Access ACCESS = Store.Access.SHARED;

    private static final String FORMAT_KEY = "spark-dcp.format";
    private static final String SOURCE_KEY = "spark-dcp.source";
    private static final String PROJECT_IDS_KEY = "spark-dcp.project-ids";
    private static final String CREATED_KEY = "spark-dcp.created";
    private static final String ENTRIES_KEY = "spark-dcp.entries";
    private static final String ERROR_KEY = "spark-dcp.error.";

    private SavedListing() {}

    /** What a saved listing says of itself. */
    public record Header(byte[] sourceRoot, boolean projectIds, Instant created, long entries) {}

    /** Refuses a directory that holds anything but an earlier saved listing: saving must not overwrite user data. */
    public static void checkWritable(String dir) {
        try {
            Store store = Store.of(dir);
            if (!store.exists(dir)) return;
            if (!store.isDirectory(dir)) throw new IllegalArgumentException("--save-listing " + dir + " is not a directory");
            for (Store.Listed s : store.list(dir)) {
                if (!OWN_FILES.matcher(s.name()).matches())
                    throw new IllegalArgumentException("--save-listing " + dir + " holds " + s.name()
                            + ", which is not part of a saved listing: choose an empty or new directory");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check --save-listing " + dir + ": " + e.getMessage(), e);
        }
    }

    public static void write(String dir, byte[] sourceRoot, boolean projectIds, Listing listing) {
        start(dir);
        writePart(dir, 0, sourceRoot, projectIds, listing.blocks(), listing.errors());
        finish(dir);
    }

    /** Before any part is written: refuses a directory of user data, and removes an earlier listing's parts and _SUCCESS. */
    public static void start(String dir) {
        checkWritable(dir);
        try {
            Store store = Store.of(dir);
            store.delete(store.child(dir, SUCCESS));
            if (store.exists(dir)) for (Store.Listed s : store.list(dir)) store.delete(store.child(dir, s.name()));
            store.mkdirs(dir, ACCESS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the listing to " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes part {@code index} (replacing a retried task's earlier attempt): the given blocks, in the
     * order given, and the walk errors met while listing them.
     */
    public static void writePart(String dir, int index, byte[] sourceRoot, boolean projectIds, List<DirectoryBlock> blocks,
                                 List<Failure> errors) {
        try {
            long entries = 0;
            for (DirectoryBlock b : blocks) entries += b.entryCount();
            SortedMap<String, String> meta = new TreeMap<>();
            meta.put(FORMAT_KEY, FORMAT);
            meta.put(SOURCE_KEY, Base64.getEncoder().encodeToString(sourceRoot));
            meta.put(PROJECT_IDS_KEY, Boolean.toString(projectIds));
            meta.put(CREATED_KEY, Instant.now().toString());
            meta.put(ENTRIES_KEY, Long.toString(entries));
            for (int i = 0; i < errors.size(); i++) meta.put(ERROR_KEY + i, encode(errors.get(i)));
            Store store = Store.of(dir);
            try (SequenceFiles.Writer w = new SequenceFiles.Writer(store.create(store.child(dir, String.format("part-%05d", index)), ACCESS), meta)) {
                for (DirectoryBlock b : blocks) w.append(b.path(), b.bytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the listing to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** After every part: the listing is complete. */
    public static void finish(String dir) {
        try {
            Store store = Store.of(dir);
            store.create(store.child(dir, SUCCESS), ACCESS).close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the listing to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The part files of a complete listing, in name order, each made absolute (the executors read one each). */
    public static List<String> parts(String dir) {
        try {
            Store store = Store.of(dir);
            if (!store.exists(dir)) throw new IllegalArgumentException("listing " + dir + " does not exist");
            if (!store.exists(store.child(dir, SUCCESS)))
                throw new IllegalArgumentException("listing " + dir + " is incomplete (no " + SUCCESS + "): the run that saved it did not finish; save it again");
            String qualified = store.qualify(dir);
            List<String> parts = new ArrayList<>();
            for (Store.Listed s : store.list(dir)) if (PART.matcher(s.name()).matches()) parts.add(store.child(qualified, s.name()));
            java.util.Collections.sort(parts);
            if (parts.isEmpty()) throw new IllegalArgumentException("listing " + dir + " has no part files");
            return parts;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + dir + ": " + e.getMessage(), e);
        }
    }

    /** One part's blocks, checked against its header's entry count; the walk errors are the part's {@link #errors}. */
    public static List<DirectoryBlock> readPart(String part) {
        try (SequenceFiles.Reader r = reader(part)) {
            Header header = header(r.metadata(), part);
            List<DirectoryBlock> blocks = new ArrayList<>();
            long entries = 0;
            for (byte[][] record; (record = r.next()) != null; ) {
                DirectoryBlock b = DirectoryBlock.fromBytes(record[1]);
                if (!Arrays.equals(b.path(), record[0]))
                    throw new IllegalArgumentException("listing " + part + " is corrupt: a block of " + b.path().length + " bytes is filed under another path");
                blocks.add(b);
                entries += b.entryCount();
            }
            if (entries != header.entries())
                throw new IllegalArgumentException("listing " + part + " is corrupt: it holds " + entries
                        + " entries, its header says " + header.entries());
            return blocks;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + part + ": " + e.getMessage(), e);
        }
    }

    /** The walk errors recorded in one part's header. */
    public static List<Failure> errors(String part) {
        try (SequenceFiles.Reader r = reader(part)) {
            List<Failure> errors = new ArrayList<>();
            for (int i = 0; ; i++) {
                String e = r.metadata().get(ERROR_KEY + i);
                if (e == null) return errors;
                errors.add(decode(e));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + part + ": " + e.getMessage(), e);
        }
    }

    private static SequenceFiles.Reader reader(String part) throws IOException {
        return new SequenceFiles.Reader(new java.io.BufferedInputStream(Store.of(part).open(part), 1 << 16), part);
    }

    /** The header of a complete saved listing (entries summed over its parts); a clear error when {@code dir} holds none. */
    public static Header header(String dir) {
        Header first = null;
        long entries = 0;
        for (String part : parts(dir)) {
            try (SequenceFiles.Reader r = reader(part)) {
                Header h = header(r.metadata(), dir);
                if (first == null) first = h;
                entries += h.entries();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the listing " + dir + ": " + e.getMessage(), e);
            }
        }
        return new Header(first.sourceRoot(), first.projectIds(), first.created(), entries);
    }

    /** The whole listing on this JVM: every part's blocks, sorted by path, and every part's errors. */
    public static Listing read(String dir) {
        List<DirectoryBlock> blocks = new ArrayList<>();
        List<Failure> errors = new ArrayList<>();
        for (String part : parts(dir)) {
            blocks.addAll(readPart(part));
            errors.addAll(errors(part));
        }
        return Listing.sorted(blocks, errors);
    }

    private static Header header(SortedMap<String, String> meta, String dir) {
        String format = meta.get(FORMAT_KEY);
        if (format == null || !(FORMAT.equals(format) || FORMAT_2.equals(format)))
            throw new IllegalArgumentException("listing " + dir + " is not a spark-dcp listing of format " + FORMAT
                    + (format == null ? "" : " (it says " + format + ")"));
        return new Header(Base64.getDecoder().decode(meta.get(SOURCE_KEY)),
                Boolean.parseBoolean(meta.get(PROJECT_IDS_KEY)),
                Instant.parse(meta.get(CREATED_KEY)), Long.parseLong(meta.get(ENTRIES_KEY)));
    }

    /** Tab-separated: path, call, errno, message (display paths escape control characters, tabs included). */
    private static String encode(Failure f) {
        return String.join("\t", f.path(), f.op(), f.errno(), f.message().replace('\t', ' '));
    }

    private static Failure decode(String s) {
        String[] p = s.split("\t", 4);
        return new Failure(p[0], p[1], p[2], p.length > 3 ? p[3] : "");
    }
}
