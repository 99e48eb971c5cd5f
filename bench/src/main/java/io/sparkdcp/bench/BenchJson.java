package io.sparkdcp.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkdcp.copy.steps.Step;

import java.io.UncheckedIOException;
import java.util.Map;

/** The bench's machine-readable output ({@code --json}): snake_case nouns with their unit, built node by node. */
public final class BenchJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchJson() {}

    public static ObjectNode toJson(BenchReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("source", report.source());
        root.put("files", report.tree().files());
        root.put("directories", report.tree().dirs());
        root.put("bytes", report.tree().bytes());
        root.put("rounds", report.rounds());
        root.put("setting", report.setting());
        root.put("baseline", report.baseline().name());
        ArrayNode contenders = root.putArray("contenders");
        for (ContenderResult c : report.contenders()) contenders.add(contender(report, c));
        return root;
    }

    public static String render(BenchReport report) {
        try {
            return MAPPER.writeValueAsString(toJson(report)) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode contender(BenchReport report, ContenderResult c) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", c.name());
        ArrayNode walls = n.putArray("wall_nanos");
        for (RoundResult r : c.rounds()) walls.add(r.wallNanos());
        n.put("median_wall_nanos", c.medianNanos());
        n.put("min_wall_nanos", c.minNanos());
        n.put("max_wall_nanos", c.maxNanos());
        ArrayNode cpu = n.putArray("cpu_nanos");
        for (RoundResult r : c.rounds()) cpu.add(r.cpuNanos());
        n.put("median_cpu_nanos", c.medianCpuNanos());
        n.put("files_per_second", report.filesPerSecond(c));
        n.put("megabytes_per_second", report.megabytesPerSecond(c));
        n.put("ratio_to_baseline", c.ratioTo(report.baseline()));
        n.put("failed", c.failed());
        long files = report.tree().files();
        putSteps(n.putObject("step_micros_per_file"), c.stepMicrosPerFile(files));
        putSteps(n.putObject("step_calls_per_file"), c.stepCallsPerFile(files));
        ObjectNode requests = n.putObject("requests_per_file");
        c.requestsPerFile(files).forEach(requests::put);
        SyscallCount sc = report.syscalls().get(c.name());
        if (sc != null) {
            n.put("file_syscalls_per_file", sc.fileCallsPerFile());
            n.put("path_lookups_per_file", sc.pathLookupsPerFile());
        }
        return n;
    }

    private static void putSteps(ObjectNode into, Map<Step, Double> values) {
        values.forEach((step, v) -> into.put(step.label(), v));
    }
}
