package io.sparkdcp.bench.scale;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.bench.ProcessCpu;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.spark.StageTimes;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.RDDInfo;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The driver's memory for one copy through each plan: the driver's (listing and plan on the driver)
 * and the executors' (both stay there). Heap after GC is taken when the copy has listed (and, on the
 * driver, planned) the tree, less the heap before the copy and less what Spark's block manager holds
 * of persisted RDDs (in local mode the executors share the driver's JVM); then the copy's entries/s
 * and whether the copy matches its source entry for entry.
 */
public final class PlanMemory {
    private PlanMemory() {}

    public static final String DRIVER = "driver";
    public static final String EXECUTORS = "executors";

    /**
     * @param differences entries whose type, mode, owner, size, mtime or project differ, or that one side lacks
     * @param steps       the copy's steps: label → {calls, nanoseconds}
     */
    public record Run(String tree, String plan, long entries, double driverBytesPerEntry, double seconds, double cpuSeconds,
                      long failed, long differences, List<StageTimes.Phase> phases, Map<String, long[]> steps) {
        public double entriesPerSecond() { return entries / seconds; }
    }

    public static Run measure(JavaSparkContext sc, String tree, Path source, Path destination, String plan, Consumer<String> log) {
        settle(destination.getParent());
        long before = usedHeapAfterGc();
        long[] atListed = {-1};
        // The heap's measurement (three full GCs) is the bench's cost, not the copy's: its time and CPU are left out.
        long[] measuring = {0, 0};
        Consumer<String> messages = line -> {
            if (atListed[0] >= 0 || !line.startsWith("listed ")) return;
            long t = System.nanoTime(), cpu = ProcessCpu.nanos();
            atListed[0] = usedHeapAfterGc() - persistedBytes(sc) - before;
            measuring[0] = System.nanoTime() - t;
            measuring[1] = ProcessCpu.nanos() - cpu;
            // Logged now too: the copy of a big tree takes long, and this is the figure it is run for.
            log.accept(String.format(Locale.ROOT, "%s plan, %s tree: driver heap %+,d bytes when %s", plan, tree, atListed[0], line));
        };
        CopyResult r;
        double seconds, cpuSeconds;
        List<StageTimes.Phase> phases;
        try (StageTimes times = StageTimes.listen(sc)) {
            long t0 = System.nanoTime(), cpu0 = ProcessCpu.nanos();
            r = SparkDcp.copy(sc, source + "/", destination.toString(),
                    CopyRequest.builder().walk(plan.equals(DRIVER) ? "driver" : "distributed").messages(messages).build());
            seconds = (System.nanoTime() - t0 - measuring[0]) / 1e9;
            cpuSeconds = (ProcessCpu.nanos() - cpu0 - measuring[1]) / 1e9;
            phases = times.phases();
        }
        long entries = r.report().listed().entries();
        long differences = differences(source, destination);
        Run run = new Run(tree, plan, entries, (double) atListed[0] / entries, seconds, cpuSeconds, r.report().counts().failed(),
                differences, phases, r.report().steps().asMap());
        log.accept(String.format(Locale.ROOT, "%s plan, %s tree: %,d entries, driver %.1f B/entry, %.1f s, %.1f CPU s, %d failed, %d differences",
                plan, tree, entries, run.driverBytesPerEntry(), seconds, cpuSeconds, run.failed(), differences));
        log.accept(stages(run));
        return run;
    }

    public static String render(List<Run> runs) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%n%-8s %-10s %12s %16s %9s %12s %8s %7s %12s%n",
                "Tree", "Plan", "entries", "driver B/entry", "seconds", "entries/s", "CPU s", "failed", "differences"));
        for (Run r : runs) {
            out.append(String.format(Locale.ROOT, "%-8s %-10s %,12d %16.1f %9.1f %,12.0f %8.1f %7d %12d%n", r.tree(), r.plan(), r.entries(),
                    r.driverBytesPerEntry(), r.seconds(), r.entriesPerSecond(), r.cpuSeconds(), r.failed(), r.differences()));
        }
        for (Run r : runs) out.append(stages(r));
        return out.toString();
    }

    /**
     * Where one copy's time went: its Spark jobs by phase (wall time, stages, tasks, the tasks' run and
     * GC time, shuffle and spill), and the time outside any job (on the driver: its walk and plan).
     */
    static String stages(Run r) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nStages: %s plan, %s tree, %.1f s%n", r.plan(), r.tree(), r.seconds()));
        out.append(String.format(Locale.ROOT, "%-34s %5s %6s %6s %8s %8s %8s %7s %9s %9s %9s%n", "phase", "jobs", "stages", "tasks",
                "wall s", "task s", "CPU s", "GC s", "shuf w MB", "shuf r MB", "spill MB"));
        long inJobs = 0;
        for (StageTimes.Phase p : r.phases()) {
            inJobs += p.wallMillis();
            out.append(String.format(Locale.ROOT, "%-34s %5d %6d %6d %8.1f %8.1f %8.1f %7.1f %9.1f %9.1f %9.1f%n", p.name(), p.jobs(),
                    p.stages(), p.tasks(), p.wallMillis() / 1e3, p.taskMillis() / 1e3, p.cpuMillis() / 1e3, p.gcMillis() / 1e3,
                    p.shuffleWriteBytes() / 1e6, p.shuffleReadBytes() / 1e6, p.spilledBytes() / 1e6));
        }
        out.append(String.format(Locale.ROOT, "%-34s %5s %6s %6s %8.1f%n", "outside Spark's jobs", "", "", "", r.seconds() - inJobs / 1e3));
        out.append("steps (calls, µs each):");
        r.steps().forEach((step, n) -> out.append(String.format(Locale.ROOT, " %s %,d %.1f", step, n[0], n[1] / 1e3 / n[0])));
        return out.append(System.lineSeparator()).toString();
    }

    /**
     * Writes back what the tree's generation or the copy before left dirty (untimed), so that no copy pays
     * for the one before it: the executors' plan, run first, paid for the generation's writeback.
     */
    private static void settle(Path fileSystem) {
        try {
            int exit = new ProcessBuilder("sync", "-f", fileSystem.toString()).inheritIO().start().waitFor();
            if (exit != 0) throw new java.io.IOException("sync -f " + fileSystem + " exited with " + exit);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while syncing " + fileSystem, e);
        }
    }

    /** Bytes of persisted RDDs in memory (the executors' share of this JVM in local mode). */
    private static long persistedBytes(JavaSparkContext sc) {
        long n = 0;
        for (RDDInfo info : sc.sc().getRDDStorageInfo()) n += info.memSize();
        return n;
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Both trees walked and compared directory by directory: a copy's exactness for what a small-file tree holds. */
    static long differences(Path a, Path b) {
        int threads = io.sparkdcp.api.CopyRequest.defaults().batching().walkThreads();
        List<DirectoryBlock> left = new TreeWalker(threads, true).walk(PathBytes.of(a.toString())).blocks();
        List<DirectoryBlock> right = new TreeWalker(threads, true).walk(PathBytes.of(b.toString())).blocks();
        long differences = Math.abs(left.size() - right.size());
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            DirectoryBlock l = left.get(i), r = right.get(i);
            if (!java.util.Arrays.equals(l.path(), r.path())) {
                differences++;
                continue;
            }
            if (!same(l.directory(), r.directory())) differences++;
            List<Entry> lf = l.files(), rf = r.files();
            differences += Math.abs(lf.size() - rf.size());
            for (int j = 0; j < Math.min(lf.size(), rf.size()); j++) if (!same(lf.get(j), rf.get(j))) differences++;
        }
        return differences;
    }

    private static boolean same(Entry x, Entry y) {
        if (x == null || y == null) return x == y;
        Stat s = x.stat(), t = y.stat();
        return java.util.Arrays.equals(x.path(), y.path()) && s.type() == t.type() && s.permissions() == t.permissions()
                && s.uid() == t.uid() && s.gid() == t.gid() && (s.type() != io.sparkdcp.posix.FileType.FILE || s.size() == t.size())
                && s.mtimeSec() == t.mtimeSec() && s.mtimeNsec() == t.mtimeNsec()
                && Objects.equals(x.project() == null ? null : x.project().projid(), y.project() == null ? null : y.project().projid());
    }
}
