package io.sparkdcp.bench.scale;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.job.exec.Batching;
import io.sparkdcp.api.CopyResult;
import io.sparkdcp.api.SparkDcp;
import io.sparkdcp.job.exec.DistributedWalk;
import io.sparkdcp.plan.PartitionPlan;
import io.sparkdcp.plan.Planner;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.spark.SparkPhaseRunner;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;
import io.sparkdcp.walk.TreeWalker;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The scale benchmark: a big tree and a small one of the same shape are generated (once) in the
 * scratch directory; then the driver's memory per entry for the listing and plan, walk rates of
 * {@code find}, the driver walk and the distributed walk (cold caches when root, then warm), and
 * files/s of a whole copy of each tree are measured. One run; ratios are what to quote.
 */
public final class ScaleBench {
    private final Path scratch;
    private final ScaleTree big;
    private final ScaleTree small;
    private final int walkThreads;
    private final Consumer<String> log;

    public ScaleBench(Path scratch, ScaleTree big, ScaleTree small, Consumer<String> log) {
        this.scratch = scratch;
        this.big = big;
        this.small = small;
        this.walkThreads = CopyRequest.defaults().batching().walkThreads();
        this.log = log;
    }

    /** A walk rate: entries listed per second, with caches dropped first or not. */
    public static final String FIND = "find";
    public static final String FIND_STAT = "find -printf %s (stats each entry)";

    public record WalkRate(String walker, boolean cold, long entries, double seconds) {
        public double entriesPerSecond() { return entries / seconds; }
    }

    public record CopyRate(String tree, long entries, double seconds, long failed) {
        public double entriesPerSecond() { return entries / seconds; }
    }

    /**
     * @param packedBytesPerEntry   driver heap held by the listing and its plan, measured after GC
     * @param objectBytesPerEntry   the same entries as one object each (the layout before packing), for comparison
     */
    public record Result(long entries, int directories, double packedBytesPerEntry, double objectBytesPerEntry,
                         List<WalkRate> walks, List<CopyRate> copies, boolean coldCaches) {}

    public Result run(JavaSparkContext sc) throws IOException {
        Path bigRoot = ensureTree(big, "big");
        Path smallRoot = ensureTree(small, "small");
        byte[] root = PathBytes.of(bigRoot.toString());

        double[] heap = heapPerEntry(root);
        boolean cold = DropCaches.possible();
        List<WalkRate> walks = new ArrayList<>();
        SparkPhaseRunner runner = new SparkPhaseRunner(sc);
        try {
            // Untimed: class loading, the JIT and Spark's first jobs are not the walk's cost.
            byte[] warmUp = PathBytes.of(smallRoot.toString());
            new TreeWalker(walkThreads, true).walk(warmUp);
            new DistributedWalk(runner, walkThreads, line -> {}).walk(warmUp, true);
            for (boolean c : cold ? new boolean[]{true, false} : new boolean[]{false}) {
                walks.add(timeWalk(FIND, c, () -> FindCount.count(bigRoot, false)));
                walks.add(timeWalk(FIND_STAT, c, () -> FindCount.count(bigRoot, true)));
                walks.add(timeWalk("driver walk (" + walkThreads + " threads)", c,
                        () -> new TreeWalker(walkThreads, true).walk(root).entryCount()));
                walks.add(timeWalk("distributed walk (" + runner.parallelism() + " tasks x " + walkThreads + " threads)", c,
                        () -> new DistributedWalk(runner, walkThreads, line -> {}).walk(root, true).entryCount()));
            }
        } finally {
            runner.close();
        }
        List<CopyRate> copies = new ArrayList<>();
        copies.add(copy(sc, "small", smallRoot, cold));
        copies.add(copy(sc, "big", bigRoot, cold));
        return new Result(walks.get(0).entries(), big.directories(), heap[0], heap[1], walks, copies, cold);
    }

    /**
     * The driver's memory per entry, entries/s and exactness of a copy of each tree through the driver's
     * plan and through the executors' (issue 16), each into a new directory in the scratch directory. First
     * an untimed warm-up copy of the big tree through each plan, not in the result: the JVM's first copy
     * pays its compiling, the heap's growth and Spark's first jobs (session 7: 78.6 CPU s against 54.5-61.9
     * in the same plan's later copies, with a small tree copied through both plans before it). Then the
     * small tree, then the big one: with more than one round, that many times through each plan, taking
     * turns (executors, driver, driver, executors, ...), so that a load that rises or falls weighs on both.
     */
    public List<PlanMemory.Run> plans(JavaSparkContext sc, int rounds) throws IOException {
        Path smallRoot = ensureTree(small, "small");
        Path bigRoot = ensureTree(big, "big");
        List<PlanMemory.Run> runs = new ArrayList<>();
        for (Copy copy : schedule(rounds)) {
            Path source = copy.tree().equals("small") ? smallRoot : bigRoot;
            Path dst = scratch.resolve("copy-of-" + source.getFileName() + "-" + copy.plan() + "-" + System.nanoTime());
            if (copy.warmUp()) log.accept("warm-up copy of the " + copy.tree() + " tree through the " + copy.plan() + " plan (not in the result)");
            PlanMemory.Run run = PlanMemory.measure(sc, copy.tree(), source, dst, copy.plan(), log);
            if (!copy.warmUp()) runs.add(run);
            else if (run.failed() > 0 || run.differences() > 0) throw new IOException(String.format(
                    "the warm-up copy through the %s plan into %s had %d failed and %d differences", copy.plan(), dst, run.failed(), run.differences()));
        }
        return runs;
    }

    /** One copy of {@link #plans}: of which tree, through which plan, and whether it only warms the JVM up. */
    record Copy(String tree, String plan, boolean warmUp) {}

    /** The copies of {@link #plans} in order: the warm-ups, the small tree, then the big tree's rounds. */
    static List<Copy> schedule(int rounds) {
        List<Copy> copies = new ArrayList<>();
        for (String plan : turn(0)) copies.add(new Copy("big", plan, true));
        for (String plan : turn(0)) copies.add(new Copy("small", plan, false));
        for (int round = 0; round < rounds; round++) for (String plan : turn(round)) copies.add(new Copy("big", plan, false));
        return copies;
    }

    /** The plans in the order a round copies through them: executors first in even rounds, driver first in odd ones. */
    static List<String> turn(int round) {
        return round % 2 == 0 ? List.of(PlanMemory.EXECUTORS, PlanMemory.DRIVER) : List.of(PlanMemory.DRIVER, PlanMemory.EXECUTORS);
    }

    private Path ensureTree(ScaleTree shape, String name) throws IOException {
        Path root = scratch.resolve(name + "-" + shape.actualEntries());
        Path done = scratch.resolve(root.getFileName() + ".complete");
        if (Files.exists(done)) return root;
        if (Files.exists(root)) throw new IOException(root + " exists but is incomplete (no " + done.getFileName() + "): remove it first");
        log.accept(String.format("generating %,d entries in %s", shape.actualEntries(), root));
        long t0 = System.nanoTime();
        shape.generate(root, Math.max(2, Runtime.getRuntime().availableProcessors()));
        Files.createFile(done);
        log.accept(String.format("generated in %.1f s", (System.nanoTime() - t0) / 1e9));
        return root;
    }

    /** Heap after GC held by the packed listing and its plan, then by the same entries as objects. */
    private double[] heapPerEntry(byte[] root) {
        Batching defaults = CopyRequest.defaults().batching();
        Planner planner = new Planner(defaults.batchFiles(), defaults.batchBytes(), defaults.chunkSize());
        // A walk and plan first, untimed and dropped: classes and pools they load are not the listing's.
        planner.planPartition(new TreeWalker(walkThreads, true).walk(root).blocks());
        long base = usedHeapAfterGc();
        Listing listing = new TreeWalker(walkThreads, true).walk(root);
        PartitionPlan plan = planner.planPartition(listing.blocks()); // as the copy plans a listing held on the driver
        long packed = usedHeapAfterGc() - base;
        long entries = listing.entryCount();
        List<Entry> objects = listing.entries();
        long withObjects = usedHeapAfterGc() - base - packed;
        Reference.reachabilityFence(plan);
        Reference.reachabilityFence(listing);
        Reference.reachabilityFence(objects);
        return new double[]{(double) packed / entries, (double) withObjects / entries};
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private WalkRate timeWalk(String walker, boolean cold, Supplier<Long> walk) {
        if (cold) DropCaches.now();
        long t0 = System.nanoTime();
        long entries = walk.get();
        WalkRate r = new WalkRate(walker, cold, entries, (System.nanoTime() - t0) / 1e9);
        log.accept(String.format("%s%s: %,d entries in %.2f s", walker, cold ? " (cold)" : "", entries, r.seconds()));
        return r;
    }

    /** Caches dropped first when possible, so that neither tree is helped by what the walks left cached. */
    private CopyRate copy(JavaSparkContext sc, String tree, Path source, boolean cold) throws IOException {
        Path dst = scratch.resolve("copy-of-" + source.getFileName() + "-" + System.nanoTime());
        if (cold) DropCaches.now();
        long t0 = System.nanoTime();
        CopyResult r = SparkDcp.copy(sc, source + "/", dst.toString(), CopyRequest.builder().messages(line -> {}).build());
        double seconds = (System.nanoTime() - t0) / 1e9;
        long entries = r.report().counts().copied();
        log.accept(String.format("copy of the %s tree: %,d entries in %.1f s", tree, entries, seconds));
        return new CopyRate(tree, entries, seconds, r.report().counts().failed());
    }
}
