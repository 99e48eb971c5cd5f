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
import java.util.Set;
import java.util.TreeMap;

/**
 * A listing kept on disk for later runs, in a directory any Hadoop file system can hold:
 * {@code part-00000} is a block-compressed SequenceFile of (directory path, {@link DirectoryBlock}
 * bytes) pairs, one per listed directory, in path order; its metadata names the format, the source
 * root (base64 of its bytes), whether project IDs were read, when it was made, the entry count and
 * each walk error; {@code _SUCCESS} is written last, so a listing cut short is never read.
 */
public final class SavedListing {
    public static final String FORMAT = "spark-dcp-listing-2";
    static final String PART = "part-00000";
    static final String SUCCESS = "_SUCCESS";
    private static final Set<String> OWN_FILES = Set.of(PART, SUCCESS, "." + PART + ".crc", "." + SUCCESS + ".crc");

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
                if (!OWN_FILES.contains(s.getPath().getName()))
                    throw new IllegalArgumentException("--save-listing " + dir + " holds " + s.getPath().getName()
                            + ", which is not part of a saved listing: choose an empty or new directory");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check --save-listing " + dir + ": " + e.getMessage(), e);
        }
    }

    public static void write(String dir, byte[] sourceRoot, boolean projectIds, Listing listing) {
        checkWritable(dir);
        try {
            Configuration conf = new Configuration();
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(conf);
            fs.delete(new Path(path, SUCCESS), false);
            fs.mkdirs(path);
            TreeMap<Text, Text> meta = new TreeMap<>();
            meta.put(FORMAT_KEY, new Text(FORMAT));
            meta.put(SOURCE_KEY, new Text(Base64.getEncoder().encodeToString(sourceRoot)));
            meta.put(PROJECT_IDS_KEY, new Text(Boolean.toString(projectIds)));
            meta.put(CREATED_KEY, new Text(Instant.now().toString()));
            meta.put(ENTRIES_KEY, new Text(Long.toString(listing.entryCount())));
            List<Failure> errors = listing.errors();
            for (int i = 0; i < errors.size(); i++) meta.put(new Text(ERROR_KEY + i), new Text(encode(errors.get(i))));
            try (SequenceFile.Writer w = SequenceFile.createWriter(conf,
                    SequenceFile.Writer.file(new Path(path, PART)),
                    SequenceFile.Writer.keyClass(BytesWritable.class),
                    SequenceFile.Writer.valueClass(BytesWritable.class),
                    SequenceFile.Writer.compression(SequenceFile.CompressionType.BLOCK),
                    SequenceFile.Writer.metadata(new SequenceFile.Metadata(meta)))) {
                for (DirectoryBlock b : listing.blocks()) w.append(new BytesWritable(b.path()), new BytesWritable(b.bytes()));
            }
            fs.create(new Path(path, SUCCESS), true).close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the listing to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The header of a complete saved listing; a clear error when {@code dir} holds none. */
    public static Header header(String dir) {
        try (SequenceFile.Reader r = open(dir)) {
            return header(r, dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + dir + ": " + e.getMessage(), e);
        }
    }

    public static Listing read(String dir) {
        try (SequenceFile.Reader r = open(dir)) {
            Header header = header(r, dir);
            List<DirectoryBlock> blocks = new ArrayList<>();
            BytesWritable key = new BytesWritable();
            BytesWritable value = new BytesWritable();
            while (r.next(key, value)) {
                DirectoryBlock b = DirectoryBlock.fromBytes(value.copyBytes());
                if (!Arrays.equals(b.path(), key.copyBytes()))
                    throw new IllegalArgumentException("listing " + dir + " is corrupt: a block of " + b.path().length + " bytes is filed under another path");
                blocks.add(b);
            }
            List<Failure> errors = new ArrayList<>();
            for (int i = 0; ; i++) {
                Text e = r.getMetadata().get(new Text(ERROR_KEY + i));
                if (e == null) break;
                errors.add(decode(e.toString()));
            }
            Listing listing = new Listing(blocks, errors);
            if (listing.entryCount() != header.entries())
                throw new IllegalArgumentException("listing " + dir + " is corrupt: it holds " + listing.entryCount()
                        + " entries, its header says " + header.entries());
            return listing;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the listing " + dir + ": " + e.getMessage(), e);
        }
    }

    private static SequenceFile.Reader open(String dir) throws IOException {
        Configuration conf = new Configuration();
        Path path = new Path(dir);
        FileSystem fs = path.getFileSystem(conf);
        if (!fs.exists(path)) throw new IllegalArgumentException("listing " + dir + " does not exist");
        if (!fs.exists(new Path(path, SUCCESS)))
            throw new IllegalArgumentException("listing " + dir + " is incomplete (no " + SUCCESS + "): the run that saved it did not finish; save it again");
        return new SequenceFile.Reader(conf, SequenceFile.Reader.file(new Path(path, PART)));
    }

    private static Header header(SequenceFile.Reader r, String dir) {
        SequenceFile.Metadata meta = r.getMetadata();
        Text format = meta.get(FORMAT_KEY);
        if (format == null || !FORMAT.equals(format.toString()))
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
