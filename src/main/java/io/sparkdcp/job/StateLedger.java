package io.sparkdcp.job;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.roots.OutputPlaces;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.posix.Stat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state ledger's directory ({@code --state DIR}, any Hadoop path): generations {@code state-N}, each a
 * {@code HEADER} (format and the fingerprint of the roots and of the options that shape the result) and
 * part files of {@link LedgerBlock}s keyed by directory path, written by the tasks. A run writes its
 * generation as {@code .writing-N} beside the current one and renames it to {@code state-N} only at the end
 * of a fully successful run (one rename of a directory), then drops the older ones: a run that fails or is
 * killed leaves the previous generation in force, and a reader never sees a partial one.
 */
public final class StateLedger {
    static final String FORMAT = "spark-dcp-state-1";
    private static final String HEADER = "HEADER";
    private static final String DONE = "state-";
    private static final String WRITING = ".writing-";
    private static final Pattern GENERATION = Pattern.compile("(state-|\\.writing-)(\\d{10})");
    /** Tests: a file made once the parts are written, after which the swap waits as long as this file exists. */
    static final String PAUSE_BEFORE_SWAP = "sparkdcp.test.state.pauseBeforeSwap";

    private StateLedger() {}

    /**
     * {@code --state DIR} before anything is written: made absolute where the driver runs, and on this machine's
     * file system outside every SRC and DST (a sync would copy or delete it there) and writable.
     */
    public static String check(String dir, List<Roots> pairs) {
        try {
            Path path = new Path(dir);
            Path qualified = path.getFileSystem(new Configuration()).makeQualified(path);
            if ("file".equals(qualified.toUri().getScheme()))
                OutputPlaces.checkDirectory("--state", PathBytes.of(qualified.toUri().getPath()), pairs);
            return qualified.toString();
        } catch (IOException e) {
            throw new UsageException("cannot check --state " + dir + ": " + e.getMessage());
        }
    }

    /** The fingerprint of what makes a record valid: both roots (paths and inodes) and what shapes the result. */
    public static String fingerprint(CopyOptions copy, ListingOptions listing) {
        StringBuilder s = new StringBuilder(FORMAT).append('\n');
        s.append("source ").append(root(copy.sourceRoot())).append('\n');
        s.append("destination ").append(root(copy.destinationRoot())).append('\n');
        for (CopyModes.Mode m : List.of(CopyModes.Mode.SYNC, CopyModes.Mode.CONTENTS, CopyModes.Mode.UPDATE))
            s.append(m.reportKey()).append(' ').append(copy.modes().on().contains(m)).append('\n');
        s.append("keep ").append(digest(copy.keep())).append('\n');
        s.append("filter ").append(digest(listing.filter())).append('\n');
        return s.toString();
    }

    /** A root by its path and its inode: a DST made again, or moved to another file system, holds none of the records. */
    private static String root(byte[] path) {
        Stat s = Posix.statIfExists(path, false);
        return Base64.getEncoder().encodeToString(path) + (s == null ? " absent" : " " + s.dev() + ":" + s.ino());
    }

    private static String digest(Serializable value) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(value);
            }
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The generation in force in {@code dir} when it was made with this {@code fingerprint}; null when there
     * is none, or (said once through {@code notice}) when it was made with other roots or options.
     */
    public static String current(String dir, String fingerprint, java.util.function.Consumer<String> notice) {
        try {
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(new Configuration());
            Path newest = newest(fs, path, DONE);
            if (newest == null) return null;
            String header;
            try (FSDataInputStream in = fs.open(new Path(newest, HEADER))) {
                header = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (header.equals(fingerprint)) return newest.toString();
            notice.accept("notice: the state ledger in " + dir + " was made with other roots or options: not used; this run writes a new one");
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state ledger in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Starts a new generation beside the one in force: its directory, holding its header, to which the tasks add parts. */
    public static String begin(String dir, String fingerprint) {
        try {
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(new Configuration());
            fs.mkdirs(path);
            long next = 1;
            for (FileStatus s : fs.listStatus(path)) {
                Matcher m = GENERATION.matcher(s.getPath().getName());
                if (m.matches()) next = Math.max(next, Long.parseLong(m.group(2)) + 1);
            }
            Path writing = new Path(path, WRITING + String.format("%010d", next));
            fs.mkdirs(writing);
            try (FSDataOutputStream out = fs.create(new Path(writing, HEADER), true)) {
                out.write(fingerprint.getBytes(StandardCharsets.UTF_8));
            }
            return writing.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state ledger in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * One task's blocks as a part of the generation being written, named after its first directory so that an
     * attempt run again replaces its earlier part; written under a temporary name and renamed complete.
     */
    public static void writePart(String writing, List<LedgerBlock> blocks) {
        if (blocks.isEmpty()) return;
        List<LedgerBlock> sorted = new ArrayList<>(blocks);
        sorted.sort((a, b) -> java.util.Arrays.compareUnsigned(a.path(), b.path()));
        try {
            String name = "part-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(sorted.get(0).path()), 0, 12);
            Path dir = new Path(writing);
            Path temporary = new Path(dir, "." + name + "." + java.util.UUID.randomUUID());
            Path part = new Path(dir, name);
            Configuration conf = new Configuration();
            try (SequenceFile.Writer w = SequenceFile.createWriter(conf, SequenceFile.Writer.file(temporary),
                    SequenceFile.Writer.keyClass(BytesWritable.class), SequenceFile.Writer.valueClass(BytesWritable.class),
                    SequenceFile.Writer.compression(SequenceFile.CompressionType.BLOCK))) {
                for (LedgerBlock b : sorted) w.append(new BytesWritable(b.path()), new BytesWritable(b.toBytes()));
            }
            FileSystem fs = dir.getFileSystem(conf);
            fs.delete(part, false);
            if (!fs.rename(temporary, part)) throw new IOException("rename of " + temporary + " to " + part + " failed");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state ledger in " + writing + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The part files of a generation, in name order. */
    public static List<String> parts(String generation) {
        try {
            Path path = new Path(generation);
            List<String> parts = new ArrayList<>();
            for (FileStatus s : path.getFileSystem(new Configuration()).listStatus(path))
                if (s.getPath().getName().startsWith("part-")) parts.add(s.getPath().toString());
            Collections.sort(parts);
            return parts;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state ledger " + generation + ": " + e.getMessage(), e);
        }
    }

    public static List<LedgerBlock> readPart(String part) {
        List<LedgerBlock> blocks = new ArrayList<>();
        try (SequenceFile.Reader r = new SequenceFile.Reader(new Configuration(), SequenceFile.Reader.file(new Path(part)))) {
            BytesWritable key = new BytesWritable();
            BytesWritable value = new BytesWritable();
            while (r.next(key, value)) blocks.add(LedgerBlock.fromBytes(value.copyBytes()));
            return blocks;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state ledger " + part + ": " + e.getMessage(), e);
        }
    }

    /** Puts the generation written in force (one rename), then drops the older ones and any left by a run that stopped. */
    public static void commit(String writing) {
        pauseForTests();
        try {
            Path from = new Path(writing);
            Matcher m = GENERATION.matcher(from.getName());
            if (!m.matches() || !m.group(1).equals(WRITING)) throw new IllegalArgumentException("not a generation being written: " + writing);
            Path dir = from.getParent();
            FileSystem fs = dir.getFileSystem(new Configuration());
            Path to = new Path(dir, DONE + m.group(2));
            if (!fs.rename(from, to)) throw new IOException("rename of " + from + " to " + to + " failed");
            for (FileStatus s : fs.listStatus(dir)) {
                Matcher g = GENERATION.matcher(s.getPath().getName());
                if (g.matches() && !s.getPath().getName().equals(to.getName())) fs.delete(s.getPath(), true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot put the state ledger " + writing + " in force: " + e.getMessage(), e);
        }
    }

    /** Drops a generation that will not be put in force (the run failed). */
    public static void abandon(String writing) {
        try {
            Path path = new Path(writing);
            path.getFileSystem(new Configuration()).delete(path, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + writing + ": " + e.getMessage(), e);
        }
    }

    private static Path newest(FileSystem fs, Path dir, String kind) throws IOException {
        if (!fs.exists(dir)) return null;
        Path newest = null;
        long highest = -1;
        for (FileStatus s : fs.listStatus(dir)) {
            Matcher m = GENERATION.matcher(s.getPath().getName());
            if (m.matches() && m.group(1).equals(kind) && Long.parseLong(m.group(2)) > highest) {
                highest = Long.parseLong(m.group(2));
                newest = s.getPath();
            }
        }
        return newest;
    }

    private static void pauseForTests() {
        String marker = System.getProperty(PAUSE_BEFORE_SWAP);
        if (marker == null) return;
        try {
            java.nio.file.Path file = java.nio.file.Path.of(marker);
            java.nio.file.Files.writeString(file, "paused");
            while (java.nio.file.Files.exists(file)) Thread.sleep(50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
