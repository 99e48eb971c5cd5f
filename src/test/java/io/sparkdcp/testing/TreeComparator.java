package io.sparkdcp.testing;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.CopyRoots;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.job.exec.Batching;
import io.sparkdcp.job.CompareJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.TreeWalker;
import org.junit.jupiter.api.Assertions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares two trees with the compare command's own rules ({@link CompareJob}, run on threads):
 * every xattr, project ID and PROJINHERIT, the bytes of every file, mtimes to the nanosecond, hard
 * links, symlink targets and devices; lines as {@code spark-dcp compare} prints them
 * ({@code PATH: kind: A != B}). On top, what only a test asks: that b keeps a's holes (where a file of
 * a has holes, b's may not allocate more blocks, beyond a slack) and, on request, atimes. Tree a is the source.
 */
public final class TreeComparator {
    private static final long DEFAULT_HOLE_SLACK_BLOCKS = 64;

    private TreeComparator() {}

    /**
     * @param atimes          also compare atimes of regular files and symlinks (directories' move when listed)
     * @param holeSlackBlocks how many 512-byte blocks b may allocate beyond a before its holes count as filled
     */
    public record Options(boolean atimes, long holeSlackBlocks) {
        public static final Options DEFAULT = new Options(false, DEFAULT_HOLE_SLACK_BLOCKS);

        public Options withAtimes() {
            return new Options(true, holeSlackBlocks);
        }
    }

    public static List<String> differences(Path a, Path b) {
        return differences(a, b, Options.DEFAULT);
    }

    /** Every difference, one line each, naming the path (PathBytes.display; "." is the root). */
    public static List<String> differences(Path a, Path b, Options options) {
        byte[] left = realPath(a);
        byte[] right = realPath(b);
        // Stats first: the comparison reads symlinks, which moves their atimes.
        List<String> found = new ArrayList<>();
        List<String> extras = extras(left, right, options);
        CompareReport report = new CompareJob(jobOptions(left, right), 0, new LocalPhaseRunner(2), line -> {}).run();
        for (Difference d : report.differences()) found.add(d.describe());
        report.failures().forEach(f -> found.add(f.path() + ": not compared: " + f.op() + " " + f.errno() + ": " + f.message()));
        found.addAll(extras);
        return found;
    }

    public static void assertSameTree(Path a, Path b) {
        assertSameTree(a, b, Options.DEFAULT);
    }

    public static void assertSameTree(Path a, Path b, Options options) {
        List<String> found = differences(a, b, options);
        if (!found.isEmpty()) {
            Assertions.fail(found.size() + " difference(s) between " + a + " and " + b + ":\n  "
                    + String.join("\n  ", found));
        }
    }

    /**
     * Compares two entries that are not directories (a file given as SRC and its copy) by the same
     * rules, through compare's form for a file: each looked up by name in its parent directory.
     */
    public static void assertSameEntry(Path a, Path b) {
        byte[] left = realPath(a.getParent()), right = realPath(b.getParent());
        JobOptions options = jobOptions(left, right);
        RootFile file = new RootFile(PathBytes.of(a.getFileName().toString()), PathBytes.of(b.getFileName().toString()));
        options = options.withCopy(options.copy().withRoots(new CopyRoots(left, right, null, null, file)));
        CompareReport report = new CompareJob(options, 0, new LocalPhaseRunner(2), line -> {}).run();
        List<String> found = new ArrayList<>();
        for (Difference d : report.differences()) found.add(d.describe());
        report.failures().forEach(f -> found.add(f.path() + ": not compared: " + f.op() + " " + f.errno() + ": " + f.message()));
        if (report.numbers().compared() != 1) found.add("compared " + report.numbers().compared() + " entries, not the one " + a);
        if (!found.isEmpty()) Assertions.fail(found.size() + " difference(s) between " + a + " and " + b + ":\n  " + String.join("\n  ", found));
    }

    private static JobOptions jobOptions(byte[] a, byte[] b) {
        CopyOptions compare = CopyOptions.between(a, b, LocalCopy.EVERYTHING, CopyModes.of(CopyModes.Mode.CONTENTS), 256L << 20);
        return new JobOptions(compare, new Batching(50, 1L << 30, 256L << 20, 2, 1), ListingOptions.WALK);
    }

    /** Holes b filled, and with options.atimes() atimes, of entries both trees have. */
    private static List<String> extras(byte[] a, byte[] b, Options options) {
        Map<ByteBuffer, Stat> right = new HashMap<>();
        for (Entry e : new TreeWalker(2, false).walk(b).entries()) right.put(ByteBuffer.wrap(e.path()), e.stat());
        List<String> out = new ArrayList<>();
        for (Entry e : new TreeWalker(2, false).walk(a).entries()) {
            Stat x = e.stat();
            Stat y = right.get(ByteBuffer.wrap(e.path()));
            if (y == null || x.type() != y.type()) continue; // the comparison reports these
            String path = PathBytes.display(e.path());
            if (options.atimes() && (x.type() == FileType.FILE || x.type() == FileType.SYMLINK)
                    && (x.atimeSec() != y.atimeSec() || x.atimeNsec() != y.atimeNsec()))
                out.add(path + ": atime: " + time(x.atimeSec(), x.atimeNsec()) + " != " + time(y.atimeSec(), y.atimeNsec()));
            // Only where a has holes: CoW and preallocation may add blocks to dense files.
            if (x.maybeSparse() && y.blocks() > x.blocks() + options.holeSlackBlocks())
                out.add(path + ": holes filled: b allocates " + y.blocks() + " blocks of 512 bytes, a only " + x.blocks());
        }
        return out;
    }

    private static byte[] realPath(Path p) {
        try {
            return PathBytes.of(p.toRealPath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String time(long sec, int nsec) {
        return String.format("%d.%09d", sec, nsec);
    }
}
