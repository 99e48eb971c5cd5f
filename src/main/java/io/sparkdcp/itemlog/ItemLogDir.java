package io.sparkdcp.itemlog;

import io.sparkdcp.roots.OutputPlaces;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.store.Store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The itemized log's directory ({@code --log DIR}: a local path, or any path Hadoop reaches: {@link Store}): {@code part-*} files of
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
            Store store = Store.of(dir);
            String qualified = store.qualify(dir);
            if (store.local() && !pairs.isEmpty())
                OutputPlaces.checkDirectory("--log", io.sparkdcp.posix.PathBytes.of(qualified), pairs);
            if (!store.exists(qualified)) return qualified;
            if (!store.isDirectory(qualified)) throw new UsageException("--log " + dir + " is not a directory");
            for (Store.Listed s : store.list(qualified)) {
                if (!OWN_FILES.matcher(s.name()).matches())
                    throw new UsageException("--log " + dir + " holds " + s.name()
                            + ", which is not part of an item log: choose an empty or new directory");
            }
            return qualified;
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
        try {
            Store store = Store.of(dir);
            if (store.exists(dir)) for (Store.Listed s : store.list(dir)) store.delete(store.child(dir, s.name()));
            store.mkdirs(dir, ACCESS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + dir + ": " + e.getMessage(), e);
        }
    }

    /** After every part: attempts that never committed are dropped, and {@code _SUCCESS} says the log is whole. */
    public static void finish(String dir) {
        try {
            Store store = Store.of(dir);
            store.delete(store.child(dir, TEMPORARY));
            store.create(store.child(dir, SUCCESS), ACCESS).close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the item log " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Every line of the committed parts, part by part in name order. */
    public static List<ItemLine> read(String dir) {
        try {
            Store store = Store.of(dir);
            List<String> parts = new ArrayList<>();
            for (Store.Listed s : store.list(dir)) if (s.name().startsWith("part-")) parts.add(s.name());
            parts.sort(null);
            List<ItemLine> lines = new ArrayList<>();
            for (String part : parts) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(store.open(store.child(dir, part)), StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) lines.add(ItemLine.parse(line));
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the item log " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Who may read the log: as Hadoop's local file system wrote it, everyone (the umask applies). */
    static final Store.Access ACCESS = Store.Access.SHARED;
}
