package io.sparkdcp.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Copies one tree with every contender, interleaved (A B C A B C …), each round into a fresh
 * destination under the scratch directory that is deleted afterwards. Interleaving spreads slow
 * drifts of the machine (page cache, other load) over all contenders instead of charging one.
 */
public final class Bench {
    private final List<Contender> contenders;
    private final int rounds;
    private final int warmups;
    private final Consumer<String> log;

    /** @param warmups rounds run first and not counted: the JIT compiles the engine's hot paths there */
    public Bench(List<Contender> contenders, int rounds, int warmups, Consumer<String> log) {
        if (contenders.isEmpty()) throw new IllegalArgumentException("nothing to benchmark");
        if (rounds < 1) throw new IllegalArgumentException("--rounds must be at least 1");
        if (warmups < 0) throw new IllegalArgumentException("--warmup must not be negative");
        this.contenders = List.copyOf(contenders);
        this.rounds = rounds;
        this.warmups = warmups;
        this.log = log;
    }

    public BenchReport run(Path source, Path scratch, String setting) throws Exception {
        return run(source, scratch, scratch, RequestCounter.NONE, setting);
    }

    /**
     * @param scratchBelow the same directory as scratch seen without the latency file system: copies
     *                     are deleted there, so that deleting them costs no injected latency
     * @param requests     the file system's request counts, read before and after each copy
     */
    public BenchReport run(Path source, Path scratch, Path scratchBelow, RequestCounter requests, String setting) throws Exception {
        SourceSummary tree = SourceSummary.of(source);
        // By position, not by contender: two contenders may be equal values.
        List<List<RoundResult>> results = new ArrayList<>();
        for (int i = 0; i < contenders.size(); i++) results.add(new ArrayList<>());
        for (int round = 1 - warmups; round <= rounds; round++) {
            for (int i = 0; i < contenders.size(); i++) {
                Contender c = contenders.get(i);
                String name = "bench-dst-" + (round + warmups) + "-" + i;
                Path destination = scratch.resolve(name);
                if (Files.exists(destination)) throw new IllegalStateException(destination + " is left from an earlier run");
                Map<String, Long> before = requests.counts();
                long cpuBefore = ProcessCpu.nanos();
                RoundResult r = c.copy(source, destination);
                r = r.withCpu(ProcessCpu.nanos() - cpuBefore).withRequests(RequestCounter.difference(requests.counts(), before));
                log.accept(String.format("%s %-24s %8.3f s, %.2f CPU s%s", round < 1 ? "warm-up" : "round " + round + "/" + rounds,
                        c.name(), r.wallNanos() / 1e9, r.cpuNanos() / 1e9, r.failed() > 0 ? ", " + r.failed() + " failed" : ""));
                if (round >= 1) results.get(i).add(r);
                Processes.runOrThrow(List.of("rm", "-rf", "--", scratchBelow.resolve(name).toString()));
                // Write back this copy's dirty pages now, untimed, rather than during the next contender's copy.
                Processes.runOrThrow(List.of("sync", "-f", scratchBelow.toString()));
            }
        }
        List<ContenderResult> out = new ArrayList<>();
        for (int i = 0; i < contenders.size(); i++) out.add(new ContenderResult(contenders.get(i).name(), results.get(i)));
        return new BenchReport(source.toString(), tree, rounds, setting, out);
    }
}
