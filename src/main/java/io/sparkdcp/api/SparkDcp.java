package io.sparkdcp.api;

import io.sparkdcp.posix.PathBytes;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.List;

/**
 * spark-dcp from a notebook or any JVM program that already has a SparkContext: the same copy the
 * CLI runs ({@code spark-dcp copy} goes through here too). The context is the caller's: it is used
 * as it is and never stopped.
 *
 * <pre>{@code
 * CopyResult r = SparkDcp.copy(sc, "/data/src/", "/data/dst",     // src's contents into dst
 *         CopyRequest.builder().batchFiles(500).progressSeconds(10).build());
 * SparkDcp.copy(sc, List.of("/data/a", "/data/b"), "/data/dst");  // makes dst/a and dst/b
 * }</pre>
 *
 * Sources follow rsync's rule, as on the command line: {@code "SRC/"} is SRC's contents, copied into
 * DST itself; {@code "SRC"} is SRC itself, copied to {@code DST/SRC's name}: a directory, a file or a
 * symlink (copied as the link). One file with DST not a directory makes DST that file. Running the same
 * call again copies nothing new.
 *
 * <pre>{@code
 * System.out.println(r);          // the CLI's summary table
 * r.toJson(); r.toMap();          // the --report fields
 * }</pre>
 *
 * A request that cannot be carried out (SRC missing, DST inside SRC, speculation on) throws an
 * IllegalArgumentException (a {@link io.sparkdcp.roots.UsageException}) before anything is written, as
 * does a bad value given to {@link CopyRequest.Builder}; a failed entry does not throw: it is in the
 * result, with {@code exitCode() == 1}. A driver that runs out of memory, on any of its threads,
 * throws {@link DriverOutOfMemoryException}: the copy's jobs are cancelled rather than left waiting,
 * and the caller's JVM and context stay up.
 */
public final class SparkDcp {
    private SparkDcp() {}

    public static CopyResult copy(JavaSparkContext sc, String source, String destination, CopyRequest request) {
        return prepare(source, destination, request).run(sc);
    }

    /** Several sources into one DST, as one job with one report. */
    public static CopyResult copy(JavaSparkContext sc, List<String> sources, String destination, CopyRequest request) {
        return prepare(sources, destination, request).run(sc);
    }

    public static CopyResult copy(JavaSparkContext sc, List<String> sources, String destination) {
        return copy(sc, sources, destination, CopyRequest.defaults());
    }

    public static CopyResult copy(SparkContext sc, String source, String destination, CopyRequest request) {
        return copy(JavaSparkContext.fromSparkContext(sc), source, destination, request);
    }

    public static CopyResult copy(JavaSparkContext sc, String source, String destination) {
        return copy(sc, source, destination, CopyRequest.defaults());
    }

    public static CopyResult copy(SparkContext sc, String source, String destination) {
        return copy(sc, source, destination, CopyRequest.defaults());
    }

    /**
     * Compares two trees (both must exist): differences in type, size, mode, owner, group, mtime,
     * device numbers, symlink targets, hard links, the request's xattrs, project IDs and PROJINHERIT,
     * and with {@code contents(true)} the bytes. Neither tree is written.
     */
    public static CompareResult compare(JavaSparkContext sc, String source, String destination, CopyRequest request) {
        return prepareCompare(source, destination, request).run(sc);
    }

    /** Checks the two roots and the options of a comparison now, without Spark. */
    public static PreparedCompare prepareCompare(String source, String destination, CopyRequest request) {
        return prepareCompare(bytes(source), bytes(destination), request);
    }

    /** The same for roots given as bytes: names that are not UTF-8, as a command line gives them. */
    public static PreparedCompare prepareCompare(byte[] source, byte[] destination, CopyRequest request) {
        return PreparedCompare.check(source, destination, request);
    }

    /** Checks the roots and options now, without Spark and without writing anything. */
    public static PreparedCopy prepare(String source, String destination, CopyRequest request) {
        return prepare(java.util.Collections.singletonList(source), destination, request);
    }

    /** The same for several sources. */
    public static PreparedCopy prepare(List<String> sources, String destination, CopyRequest request) {
        return prepare(sources.stream().map(SparkDcp::bytes).toList(), bytes(destination), request);
    }

    /** The same for roots given as bytes: names that are not UTF-8, as a command line gives them. */
    public static PreparedCopy prepare(List<byte[]> sources, byte[] destination, CopyRequest request) {
        return PreparedCopy.check(sources, destination, request);
    }

    /** A name as its UTF-8 bytes; null stays null, for the check to name. */
    private static byte[] bytes(String name) {
        return name == null ? null : PathBytes.of(name);
    }
}
