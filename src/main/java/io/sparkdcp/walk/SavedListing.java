package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.TreeMap;

/**
 * A listing kept on disk for later runs, in a directory any Hadoop file system can hold: one or more
 * {@code part-NNNNN} files, each a block-compressed SequenceFile of (directory path,
 * {@link DirectoryBlock} bytes) pairs, one per listed directory; its metadata names the format, the
 * source root (base64 of its bytes), whether project IDs were read, when it was made, the part's entry
 * count and the part's walk errors; {@code _SUCCESS} is written last, so a listing cut short is never
 * read. The driver writes one part in path order; the executors' tasks write one part each
 * ({@link #writePart}), in no order. Format 2 listings (one part) are read as before.
 */
public final class SavedListing {
    public static final String FORMAT = "spark-dcp-listing-3";
    /** The format of one part written by the driver: read as a listing of one part. */
    static final String FORMAT_2 = "spark-dcp-listing-2";
    static final String SUCCESS = "_SUCCESS";
    private static final java.util.regex.Pattern OWN_FILES = java.util.regex.Pattern.compile("\\.?(part-\\d{5,}|_SUCCESS)(\\.crc)?");

    private static final Text FORMAT_KEY = new Text("spark-dcp.format");
    private static final Text SOURCE_KEY = new Text("spark-dcp.source");
    private static final Text PROJECT_IDS_KEY = new Text("spark-dcp.project-ids");
    private static final Text CREATED_KEY = new Text("spark-dcp.created");
    private static final Text ENTRIES_KEY = new Text("spark-dcp.entries");
    private static final String ERROR_KEY = "spark-dcp.error.";

    private SavedListing() {}

    /** What a saved listing says of itself. */
    public record Header(byte[] sourceRoot, boolean projectIds, Instant created, long entries) {}

    /** Refuses a directory that holds anything but an earlier saved listing: saving must not overwrite user data. */
    public static void checkWritable(String dir) {
        try {
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(new Configuration());
            if (!fs.exists(path)) return;
            if (!fs.getFileStatus(path).isDirectory()) throw new IllegalArgumentException("--save-listing " + dir + " is not a directory");
            for (FileStatus s : fs.listStatus(path)) {
                if (!OWN_FILES.matcher(s.getPath().getName()).matches())
                    throw new IllegalArgumentException("--save-listing " + dir + " holds " + s.getPath().getName()
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
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(new Configuration());
            fs.delete(new Path(path, SUCCESS), false);
            if (fs.exists(path)) for (FileStatus s : fs.listStatus(path)) fs.delete(s.getPath(), false);
            fs.mkdirs(path);
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
            Configuration conf = new Configuration();
            long entries = 0;
            for (DirectoryBlock b : blocks) entries += b.entryCount();
            TreeMap<Text, Text> meta = new TreeMap<>();
            meta.put(FORMAT_KEY, new Text(FORMAT));
            meta.put(SOURCE_KEY, new Text(Base64.getEncoder().encodeToString(sourceRoot)));
            meta.put(PROJECT_IDS_KEY, new Text(Boolean.toString(projectIds)));
            meta.put(CREATED_KEY, new Text(Instant.now().toString()));
            meta.put(ENTRIES_KEY, new Text(Long.toString(entries)));
            for (int i = 0; i < errors.size(); i++) meta.put(new Text(ERROR_KEY + i), new Text(encode(errors.get(i))));
            try (SequenceFile.Writer w = SequenceFile.createWriter(conf,
                    SequenceFile.Writer.file(new Path(new Path(dir), String.format("part-%05d", index))),
                    SequenceFile.Writer.keyClass(BytesWritable.class),
                    SequenceFile.Writer.valueClass(BytesWritable.class),
                    SequenceFile.Writer.compression(SequenceFile.CompressionType.BLOCK),
                    SequenceFile.Writer.metadata(new SequenceFile.Metadata(meta)))) {
                for (DirectoryBlock b : blocks) w.append(new BytesWritable(b.path()), new BytesWritable(b.bytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the listing to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** After every part: the listing is complete. */
    public static void finish(String dir) {
        try {
            Path path = new Path(dir);
            path.getFileSystem(new Configuration()).create(new Path(path, SUCCESS), true).close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the listing to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The part files of a complete listing, in name order (the executors read one each). */
    public static List<String> parts(String dir) {
        try {
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(new Configuration());
            if (!fs.exists(path)) throw new IllegalArgumentException("listing " + dir + " does not exist");
            if (!fs.exists(new Path(path, SUCCESS)))
                throw new IllegalArgumentException("listing " + dir + " is incomplete (no " + SUCCESS + "): the run that saved it did not finish; save it again");
            List<String> parts = new ArrayList<>();
            for (FileStatus s : fs.listStatus(path)) if (s.getPath().getName().matches("part-\\d{5,}")) parts.add(s.getPath().toString());
            java.util.Collections.sort(parts);
            if (parts.isEmpty()) throw new IllegalArgumentException("listing " + dir + " has no part files");
            return parts;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + dir + ": " + e.getMessage(), e);
        }
    }

    /** One part's blocks, checked against its header's entry count; the walk errors are the part's {@link #errors}. */
    public static List<DirectoryBlock> readPart(String part) {
        try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(new Path(part)))) {
            Header header = header(r, part);
            List<DirectoryBlock> blocks = new ArrayList<>();
            BytesWritable key = new BytesWritable();
            BytesWritable value = new BytesWritable();
            long entries = 0;
            while (r.next(key, value)) {
                DirectoryBlock b = DirectoryBlock.fromBytes(value.copyBytes());
                if (!Arrays.equals(b.path(), key.copyBytes()))
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
        try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(new Path(part)))) {
            List<Failure> errors = new ArrayList<>();
            for (int i = 0; ; i++) {
                Text e = r.getMetadata().get(new Text(ERROR_KEY + i));
                if (e == null) return errors;
                errors.add(decode(e.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + part + ": " + e.getMessage(), e);
        }
    }

    /** The header of a complete saved listing (entries summed over its parts); a clear error when {@code dir} holds none. */
    public static Header header(String dir) {
        Header first = null;
        long entries = 0;
        for (String part : parts(dir)) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(new Path(part)))) {
                Header h = header(r, dir);
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

    private static Header header(SequenceFile.Reader r, String dir) {
        SequenceFile.Metadata meta = r.getMetadata();
        Text format = meta.get(FORMAT_KEY);
        if (format == null || !(FORMAT.equals(format.toString()) || FORMAT_2.equals(format.toString())))
            throw new IllegalArgumentException("listing " + dir + " is not a spark-dcp listing of format " + FORMAT
                    + (format == null ? "" : " (it says " + format + ")"));
        return new Header(Base64.getDecoder().decode(meta.get(SOURCE_KEY).toString()),
                Boolean.parseBoolean(meta.get(PROJECT_IDS_KEY).toString()),
                Instant.parse(meta.get(CREATED_KEY).toString()), Long.parseLong(meta.get(ENTRIES_KEY).toString()));
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
