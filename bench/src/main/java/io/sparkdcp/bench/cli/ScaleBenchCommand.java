package io.sparkdcp.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sparkdcp.bench.scale.ScaleBench;
import io.sparkdcp.bench.scale.ScaleTable;
import io.sparkdcp.bench.scale.ScaleTree;
import io.sparkdcp.cli.Main;
import io.sparkdcp.cli.ModuleCommand;
import io.sparkdcp.cli.SparkContexts;
import io.sparkdcp.cli.VersionProvider;
import org.apache.spark.api.java.JavaSparkContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code spark-dcp scale-bench SCRATCH}: how the driver's memory, the walk and the copy hold up on a tree of a million entries. */
@Command(name = "scale-bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
        description = {"Generate (once) a big tree of small files in many directories and a small one of the same shape in SCRATCH, "
                + "then measure the driver's heap per entry for the listing and plan, walk rates of find, the driver walk and the "
                + "distributed walk (caches dropped first when run as root, then warm), and entries/s of a whole copy of each tree.",
                "Copies go to new directories in SCRATCH and are kept; put SCRATCH on the file system to measure "
                        + "(submit-scripts/bench-scale makes an XFS image for it)."})
public final class ScaleBenchCommand implements ModuleCommand {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SCRATCH", description = "Directory for the trees and the copies.")
    Path scratch;

    @Option(names = "--entries", paramLabel = "N", defaultValue = "1000000", description = "Entries of the big tree. Default: ${DEFAULT-VALUE}.")
    long entries;

    @Option(names = "--small-entries", paramLabel = "N", defaultValue = "50000",
            description = "Entries of the small tree whose copy rate is the reference. Default: ${DEFAULT-VALUE}.")
    long smallEntries;

    @Option(names = "--files-per-dir", paramLabel = "N", defaultValue = "100", description = "Files per directory. Default: ${DEFAULT-VALUE}.")
    int filesPerDir;

    @Option(names = "--dirs-per-group", paramLabel = "N", defaultValue = "100",
            description = "Directories per top-level group. Default: ${DEFAULT-VALUE}.")
    int dirsPerGroup;

    @Option(names = "--master", paramLabel = "URL", converter = SparkContexts.MasterConverter.class, description = "Spark master (default: " + SparkContexts.DEFAULT_MASTER + ").")
    String master;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result as JSON to FILE.")
    Path json;

    @Option(names = "--plans", description = "Instead: the driver's heap per entry, entries/s and exactness of a copy of each "
            + "tree through the driver's plan and through the executors' (--walk distributed), after an untimed warm-up copy "
            + "of the big tree through each.")
    boolean plans;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1", description = "With --plans: copy the big tree N times "
            + "through each plan, taking turns, so a moving load weighs on both alike. Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isDirectory(scratch)) {
            err.println("spark-dcp: scratch directory " + scratch + " does not exist");
            err.flush();
            return Main.EXIT_USAGE;
        }
        if (rounds < 1) {
            err.println("spark-dcp: --rounds must be at least 1");
            err.flush();
            return Main.EXIT_USAGE;
        }
        ScaleBench bench = new ScaleBench(scratch, new ScaleTree(entries, filesPerDir, dirsPerGroup),
                new ScaleTree(smallEntries, filesPerDir, dirsPerGroup), line -> {
                    err.println("spark-dcp: " + line);
                    err.flush();
                });
        JavaSparkContext sc = SparkContexts.start(master, false);
        if (plans) {
            java.util.List<io.sparkdcp.bench.scale.PlanMemory.Run> runs;
            try {
                runs = bench.plans(sc, rounds);
            } finally {
                sc.stop();
            }
            return reportPlans(runs, out);
        }
        ScaleBench.Result result;
        try {
            result = bench.run(sc);
        } finally {
            sc.stop();
        }
        out.print(ScaleTable.render(result));
        out.flush();
        if (json != null) new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), result);
        return result.copies().stream().anyMatch(c -> c.failed() > 0) ? 1 : 0;
    }

    /** No Spark type in any method's signature: picocli reflects on them all, for a copy without Spark too. */
    private int reportPlans(java.util.List<io.sparkdcp.bench.scale.PlanMemory.Run> runs, PrintWriter out) throws Exception {
        out.print(io.sparkdcp.bench.scale.PlanMemory.render(runs));
        out.flush();
        if (json != null) new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), runs);
        return runs.stream().anyMatch(r -> r.failed() > 0 || r.differences() > 0) ? 1 : 0;
    }
}
