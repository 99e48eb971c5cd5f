package io.sparkdcp.itemlog;

import io.sparkdcp.roots.OutputPlaces;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.UsageException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The itemized log's directory ({@code --log DIR}, any Hadoop path): {@code part-*} files of
 * {@link ItemLine}s in no order, then {@code _SUCCESS}. Each task attempt writes its own part under
 * {@code _temporary} and renames it into place only once its work has succeeded ({@link Part#commit}),
 * as Hadoop's output committers do: the lines of an attempt that failed or was killed never appear,
 * and a retry's part replaces an earlier attempt's. A task that logs nothing writes no file. The
 * driver writes parts of its own only for failures of the job (walk errors, a refused deletion, a
 * failed chunk), and for a dry run or a comparison, whose judgement it makes.
 */
public final class ItemLogDir {
    static final String TEMPORARY = "_temporary";
    static final String SUCCESS = "_SUCCESS";
    private static final Pattern OWN_FILES = Pattern.compile("part-[0-9a-z-]+|" + SUCCESS + "|" + TEMPORARY);

    private ItemLogDir() {}

    /**
     * DIR made absolute where the driver runs (tasks elsewhere have other working directories);
     * refused when it holds anything but an earlier log, which a run replaces.
     */
    public static String check(String dir) {
        return check(dir, List.of());
    }

    /**
     * As {@link #check(String)}, before anything is written: on this machine's file system, outside each
     * pair's SRC and DST and writable ({@link OutputPlaces}).
     */
    public static String check(String dir, List<Roots> pairs) {
        try {
            Path path = new Path(dir);
            FileSystem fs = path.getFileSystem(new Configuration());
            Path qualified = fs.makeQualified(path);
            if ("file".equals(qualified.toUri().getScheme()) && !pairs.isEmpty())
                OutputPlaces.checkDirectory("--log", io.sparkdcp.posix.PathBytes.of(qualified.toUri().getPath()), pairs);
            if (!fs.exists(qualified)) return qualified.toString();
            if (!fs.getFileStatus(qualified).isDirectory()) throw new UsageException("--log " + dir + " is not a directory");
            for (FileStatus s : fs.listStatus(qualified)) {
                if (!OWN_FILES.matcher(s.getPath().getName()).matches())
                    throw new UsageException("--log " + dir + " holds " + s.getPath().getName()
                            + ", which is not part of an item log: choose an empty or new directory");
            }
            return qualified.toString();
        } catch (IOException e) {
            throw new UsageException("cannot check --log " + dir + ": " + e.getMessage());
        }
    }

    /** Runs a job that writes the log in {@code dir}: {@link #start} before, {@link #finish} after it returned. */
    public static <R> R logged(String dir, java.util.function.Supplier<R> job) {
        start(dir);
        R result = job.get();
        finish(dir);
        return result;
    }

    /** Before any part: an earlier log's files are removed, the directory made. */
    public static void start(String dir) {
        check(dir);
        try (FileSystem fs = fileSystem(dir)) {
            Path path = new Path(dir);
            if (fs.exists(path)) for (FileStatus s : fs.listStatus(path)) fs.delete(s.getPath(), true);
            fs.mkdirs(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + dir + ": " + e.getMessage(), e);
        }
    }

    /** After every part: attempts that never committed are dropped, and {@code _SUCCESS} says the log is whole. */
    public static void finish(String dir) {
        try (FileSystem fs = fileSystem(dir)) {
            fs.delete(new Path(dir, TEMPORARY), true);
            fs.create(new Path(dir, SUCCESS), true).close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Every line of the committed parts, part by part in name order. */
    public static List<ItemLine> read(String dir) {
        try (FileSystem fs = fileSystem(dir)) {
            List<FileStatus> parts = new ArrayList<>(Arrays.asList(fs.listStatus(new Path(dir), p -> p.getName().startsWith("part-"))));
            parts.sort(null);
            List<ItemLine> lines = new ArrayList<>();
            for (FileStatus part : parts) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part.getPath()), StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) lines.add(ItemLine.parse(line));
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the item log " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Hadoop's configuration, read once per JVM: each task opens a file system with it. */
    private static final class Conf {
        static final Configuration HADOOP = new Configuration();
    }

    /** A file system of this log's own (closed with it), without checksum files beside the parts. */
    static FileSystem fileSystem(String dir) throws IOException {
        FileSystem fs = FileSystem.newInstance(new Path(dir).toUri(), Conf.HADOOP);
        fs.setWriteChecksum(false);
        return fs;
    }
}
