package io.sparkdcp.bench;

import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepStats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every round of one contender, and what the table shows of them. */
public record ContenderResult(String name, List<RoundResult> rounds) {
    public ContenderResult {
        if (rounds.isEmpty()) throw new IllegalArgumentException(name + " ran no round");
        rounds = List.copyOf(rounds);
    }

    public long medianNanos() {
        return median(sortedWalls());
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    public long minNanos() { return sortedWalls().get(0); }

    /** Median CPU time (user + system) of a round. */
    public long medianCpuNanos() {
        List<Long> cpu = new ArrayList<>();
        for (RoundResult r : rounds) cpu.add(r.cpuNanos());
        return median(cpu);
    }

    public long maxNanos() { return sortedWalls().get(rounds.size() - 1); }

    public long failed() { return rounds.stream().mapToLong(RoundResult::failed).sum(); }

    /** Wall median over another contender's. */
    public double ratioTo(ContenderResult baseline) {
        return (double) medianNanos() / baseline.medianNanos();
    }

    /** Steps of all rounds together. */
    public StepStats steps() {
        StepStats all = new StepStats();
        for (RoundResult r : rounds) all.merge(r.steps());
        return all;
    }

    /** Per step that ran: µs spent on it per source file per round (summed over the threads). */
    public Map<Step, Double> stepMicrosPerFile(long files) {
        StepStats all = steps();
        Map<Step, Double> out = new LinkedHashMap<>();
        for (Step s : Step.values()) {
            if (all.count(s) > 0) out.put(s, all.nanos(s) / 1e3 / rounds.size() / Math.max(1, files));
        }
        return out;
    }

    /** Per step that ran: calls per source file per round. */
    public Map<Step, Double> stepCallsPerFile(long files) {
        StepStats all = steps();
        Map<Step, Double> out = new LinkedHashMap<>();
        for (Step s : Step.values()) {
            if (all.count(s) > 0) out.put(s, (double) all.count(s) / rounds.size() / Math.max(1, files));
        }
        return out;
    }

    /** Per kind of file-system request: requests per source file per round (empty without the latency file system). */
    public Map<String, Double> requestsPerFile(long files) {
        Map<String, Double> out = new java.util.TreeMap<>();
        for (RoundResult r : rounds) {
            r.requests().forEach((kind, n) -> out.merge(kind, (double) n / rounds.size() / Math.max(1, files), Double::sum));
        }
        return out;
    }

    private List<Long> sortedWalls() {
        List<Long> walls = new ArrayList<>();
        for (RoundResult r : rounds) walls.add(r.wallNanos());
        walls.sort(null);
        return walls;
    }
}
