package io.sparkdcp.bench;

import java.util.List;
import java.util.Map;

/**
 * A whole bench run: the tree, how it was copied, and each contender's rounds. The first
 * contender is the baseline of the ratio column.
 *
 * @param setting  one line telling the runner, tasks, files in flight and latency
 * @param syscalls strace's counts by contender name (empty when not counted)
 */
public record BenchReport(String source, SourceSummary tree, int rounds, String setting, List<ContenderResult> contenders,
                          Map<String, SyscallCount> syscalls) {
    public BenchReport {
        if (contenders.isEmpty()) throw new IllegalArgumentException("no contender");
        contenders = List.copyOf(contenders);
        syscalls = Map.copyOf(syscalls);
    }

    public BenchReport(String source, SourceSummary tree, int rounds, String setting, List<ContenderResult> contenders) {
        this(source, tree, rounds, setting, contenders, Map.of());
    }

    public BenchReport withSyscalls(Map<String, SyscallCount> counted) {
        return new BenchReport(source, tree, rounds, setting, contenders, counted);
    }

    public ContenderResult baseline() { return contenders.get(0); }

    public double filesPerSecond(ContenderResult c) {
        return tree.files() / (c.medianNanos() / 1e9);
    }

    public double megabytesPerSecond(ContenderResult c) {
        return tree.bytes() / 1e6 / (c.medianNanos() / 1e9);
    }
}
