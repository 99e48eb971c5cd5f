package io.sparkdcp.bench;

import java.util.List;

/**
 * A whole bench run: the tree, how it was copied, and each contender's rounds. The first
 * contender is the baseline of the ratio column.
 *
 * @param setting one line telling the runner, tasks, files in flight and latency
 */
public record BenchReport(String source, SourceSummary tree, int rounds, String setting, List<ContenderResult> contenders) {
    public BenchReport {
        if (contenders.isEmpty()) throw new IllegalArgumentException("no contender");
        contenders = List.copyOf(contenders);
    }

    public ContenderResult baseline() { return contenders.get(0); }

    public double filesPerSecond(ContenderResult c) {
        return tree.files() / (c.medianNanos() / 1e9);
    }

    public double megabytesPerSecond(ContenderResult c) {
        return tree.bytes() / 1e6 / (c.medianNanos() / 1e9);
    }
}
