package io.sparkdcp.api;

import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.CopyRoots;
import io.sparkdcp.copy.options.ItemLogTarget;
import io.sparkdcp.copy.throttle.Throttle;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.job.CopyJob;
import io.sparkdcp.job.exec.JobOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.ledger.StateLedger;
import io.sparkdcp.job.ledger.StateLock;
import io.sparkdcp.job.exec.LocalPhaseRunner;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.SourceListing;
import io.sparkdcp.job.SourcesJob;
import io.sparkdcp.job.PreviewJob;
import io.sparkdcp.job.SyncPreview;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.progress.Work;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.progress.ProgressPrinter;
import io.sparkdcp.roots.OutputPlaces;
import io.sparkdcp.roots.RootHolds;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.Sources;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.spark.SparkPhaseRunner;
import org.apache.spark.api.java.JavaSparkContext;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A copy whose sources, destination and options have been checked: nothing is written until {@link #run}.
 * The CLI checks first so that a usage error comes before Spark starts. Each source is one pair of
 * roots ({@link Sources}: rsync's trailing-slash rule); all pairs run as one job with one report.
 */
public final class PreparedCopy {
    private final Sources sources;
    /** One per pair of roots, in the order of the sources. */
    private final List<JobOptions> pairs;
    private final CopyRequest request;
    /** Where the runs keep DST's locks when the caller asked to release them itself; null: at each pair's end. */
    private RootHolds holds;
    /** {@code --state DIR} as checked (absolute), or null: locked by each run for its whole life. */
    private final String state;

    private PreparedCopy(Sources sources, List<JobOptions> pairs, CopyRequest request, String state) {
        this.sources = sources;
        this.pairs = pairs;
        this.request = request;
        this.state = state;
    }

    /** The request's values, under the same names, as the engine's options: nothing is checked or defaulted here again. */
    static PreparedCopy check(List<byte[]> sourceNames, byte[] destination, CopyRequest request) {
        // Compare reads bytes with contents(true) too; a copy has no use for it.
        if (request.modes().compareContents() && !request.modes().sync())
            throw new IllegalArgumentException("--contents compares the data of a sync; a copy replaces what differs");
        Sources sources = Sources.check(sourceNames, destination, request.run().mkpath());
        Throttle throttle = request.throttle().newJob(); // one job: its pairs share the rates
        ItemLogTarget log = itemLog(request, sources.pairs());
        ListingOptions listing = request.listing().state() == null ? request.listing()
                : request.listing().withState(StateLedger.check(request.listing().state(), sources.pairs()));
        int count = sources.pairs().size();
        List<JobOptions> pairs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Roots roots = sources.pairs().get(i);
            // Paths in the log are relative to DST: one of several sources' under its name there.
            ItemLogTarget pairLog = log == null || count == 1 ? log : log.under(roots.destinationName());
            JobOptions options = new JobOptions(engineOptions(request, roots).withThrottle(throttle).withItemLog(pairLog),
                    request.batching(), listing.forPair(i, count));
            SourceListing.check(options);
            pairs.add(options);
        }
        return new PreparedCopy(sources, List.copyOf(pairs), request, listing.state());
    }

    /** The request's groups the engine acts on, between these roots: the copy's for one pair, or the comparison's. */
    static CopyOptions engineOptions(CopyRequest request, Roots roots) {
        CopyRoots pair = new CopyRoots(roots.sourceBytes(), roots.destinationBytes(), roots.sourceId(), roots.destinationId(), roots.file());
        return new CopyOptions(pair, request.keep(), request.modes(), request.batching().chunkSize(), Throttle.NONE, null);
    }

    /** {@code --log}'s directory checked and made absolute here, where the driver runs; null without one. */
    static ItemLogTarget itemLog(CopyRequest request, List<Roots> pairs) {
        return request.log() == null ? null : request.log().in(ItemLogDir.check(request.log().dir(), pairs));
    }

    /** {@code --report FILE}, checked before anything is written: outside every SRC and DST, and writable. */
    public void checkReport(byte[] file) {
        OutputPlaces.checkFile("--report", file, sources.pairs());
    }

    /**
     * From now on, the runs of this copy keep each DST locked until the returned release is run, not only
     * until they return: a command runs it once its report is written, so nothing else runs into, inside or
     * above DST while the report still tells of it.
     */
    public Runnable holdRootsUntilReleased() {
        holds = new RootHolds();
        return holds::close;
    }

    /** Runs the copy on the caller's context (left running). */
    public CopyResult run(JavaSparkContext sc) {
        return run(sc, this::copyJob);
    }

    /**
     * Runs the copy on threads in this JVM, without Spark: the same phases, steps and report as
     * {@link #run(JavaSparkContext)} on {@code local[*]}, without Spark's start-up. Running out of memory
     * on any thread throws {@link DriverOutOfMemoryException}, as on Spark.
     */
    public CopyResult runInProcess() {
        return runOn(inProcessRunner());
    }

    /** Runs the copy on the given runner (the bench times the engine on threads of its own count). */
    public CopyResult runOn(PhaseRunner runner) {
        return InProcessMemoryGuard.run(() -> run(runner, this::copyJob));
    }

    /**
     * Runs it as a sync (the request's modes must say sync): data already right is kept and only
     * differing metadata fixed; with {@code delete}, what SRC lacks is removed, unless SRC could not be listed whole.
     */
    public CopyResult runSync(JavaSparkContext sc, boolean delete) {
        checkSyncDelete(delete);
        return run(sc, syncJob(delete));
    }

    /** {@link #runSync(JavaSparkContext, boolean)} on threads in this JVM, as {@link #runInProcess()}. */
    public CopyResult runSyncInProcess(boolean delete) {
        checkSyncDelete(delete);
        return InProcessMemoryGuard.run(() -> run(inProcessRunner(), syncJob(delete)));
    }

    /**
     * What this copy or sync (by the request's modes) would do, judged from the two listings, without Spark and
     * without writing anything (DST is not created); {@code delete} for sync --delete.
     */
    public DryRun dryRun(boolean delete) {
        checkSyncDelete(delete);
        return InProcessMemoryGuard.run(() -> holdingState(false, () -> logged(() -> dryRun(inProcessRunner(), delete, line -> {}))));
    }

    /**
     * {@link #dryRun(boolean)} on the caller's context: a pair whose copy would list on the executors
     * (--walk distributed, or auto on a cluster) is walked and judged there, the others on the driver;
     * either way the driver receives the counts and the first {@link PreviewJob#SHOWN} entries of each list.
     */
    public DryRun dryRun(JavaSparkContext sc, boolean delete) {
        checkSyncDelete(delete);
        return holdingState(false, () -> logged(() -> {
            try (SparkPhaseRunner runner = new SparkPhaseRunner(sc)) {
                return dryRun(runner, delete, request.run().messages());
            }
        }));
    }

    /** Each pair's dry run, one after the other, on {@code runner}. */
    private DryRun dryRun(PhaseRunner runner, boolean delete, Consumer<String> log) {
        List<SyncPreview> previews = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++)
            previews.add(new PreviewJob(pairs.get(i), runner, log).run(delete, sources.pairs().get(i).destinationExists()));
        return new DryRun(previews, prefixes());
    }

    /** True when the copy lists SRC on the executors on such a master: --walk distributed, or auto on a cluster. */
    public boolean listsOnExecutors(boolean cluster) {
        return SourceListing.walksDistributed(request.listing().walk(), cluster);
    }

    /** What each pair's relative paths are shown under: nothing for one source, its name in DST for several. */
    private List<String> prefixes() {
        return names().stream().map(name -> pairs.size() == 1 || name.isEmpty() ? "" : name + "/").toList();
    }

    private void checkSyncDelete(boolean delete) {
        if (delete && request.listing().listing() != null)
            throw new UsageException("sync --delete walks SRC afresh: a saved listing may lack what SRC gained since, "
                    + "and DST must not lose it; drop --listing or --delete");
    }

    private CopyReport copyJob(PhaseRunner runner, Consumer<Work> planned) {
        return syncJob(false).apply(runner, planned);
    }

    /** The copy or sync (by the request's modes) of every pair; {@code delete} for sync --delete. */
    private BiFunction<PhaseRunner, Consumer<Work>, CopyReport> syncJob(boolean delete) {
        return (runner, planned) -> SourcesJob.run(names(), sources.sourceDisplay(), destinationDisplay(), planned, request.listing().savedDir(),
                (pair, plannedPair) -> new CopyJob(pairs.get(pair), runner, request.run().messages(), plannedPair).deleting(delete)
                        .destinationCreated(created(pair)).holdingRootsIn(holds).run());
    }

    /** Each pair's name in DST, under which its paths are shown; empty for a file, whose path is its name in DST already. */
    private List<String> names() {
        return sources.pairs().stream().map(r -> r.file() != null ? "" : PathBytes.display(r.destinationName())).toList();
    }

    /** True when this run made the pair's destination root (it then counts as copied, not as fixed). */
    private boolean created(int pair) {
        Roots roots = sources.pairs().get(pair);
        return roots.file() == null && !roots.destinationExists();
    }

    /** DST resolved: the given name's real path once it exists. */
    private String destinationDisplay() {
        byte[] target = sources.pairs().get(0).target();
        if (sources.pairs().size() == 1) return PathBytes.display(target);
        byte[] parent = PathBytes.parent(target); // several sources: each is DST/name, and DST is absolute
        return parent.length == 0 ? "/" : PathBytes.display(parent);
    }

    /** As many tasks at once as Spark's local[*] runs: one per CPU. */
    private static PhaseRunner inProcessRunner() {
        return new LocalPhaseRunner(Runtime.getRuntime().availableProcessors());
    }

    private CopyResult run(PhaseRunner runner, BiFunction<PhaseRunner, Consumer<Work>, CopyReport> job) {
        return holdingState(true, () -> {
            sources.createDestinations();
            return logged(() -> {
                if (request.run().progressInterval().isZero()) return new CopyResult(job.apply(runner, total -> {}));
                try (ProgressPrinter progress = new ProgressPrinter(request.run().progressInterval(), runner::done, request.run().progress())) {
                    CopyReport report = job.apply(runner, progress::planned);
                    runner.settled();
                    progress.finished(); // the last line: what the summary counts
                    return new CopyResult(report);
                }
            });
        });
    }

    /**
     * The run with --state's DIR locked from before anything is written until it ends (or, like DST, until its report
     * is out): a second run on DIR is refused.
     * A dry run ({@code !writes}) locks DIR only when it is there: it makes nothing.
     */
    private <R> R holdingState(boolean writes, Supplier<R> run) {
        // Not a line of StateLock without --state: it needs Hadoop, which a run without it does not have on its class path.
        return state == null ? run.get() : StateLock.holding(state, writes, holds, run);
    }

    /** The run with its --log directory started before and marked whole after (not when the run stops). */
    private <R> R logged(Supplier<R> run) {
        ItemLogTarget log = pairs.get(0).copy().itemLog();
        return log == null ? run.get() : ItemLogDir.logged(log.dir(), run);
    }

    /** On Spark, guarded against the driver running out of memory ({@link DriverMemoryGuard}). */
    private CopyResult run(JavaSparkContext sc, BiFunction<PhaseRunner, Consumer<Work>, CopyReport> job) {
        return DriverMemoryGuard.run(sc, runner -> {
            CopyResult result = run(runner, job);
            runner.retriedAttempts().ifPresent(request.run().messages());
            return result;
        });
    }
}
