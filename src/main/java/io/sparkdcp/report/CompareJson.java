package io.sparkdcp.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkdcp.copy.compare.Difference;
import io.sparkdcp.copy.options.OptionTable;
import io.sparkdcp.posix.Failure;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The compare command's {@code --report FILE}: settings, counts, differences by kind, and every
 * difference and failure. Field names are part of the interface, as in the copy's report; paths are
 * shown as the copy shows them (UTF-8, other bytes as \xNN).
 */
public final class CompareJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CompareJson() {}

    public static ObjectNode toJson(CompareReport r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("source", r.source());
        root.put("destination", r.destination());
        ObjectNode settings = root.putObject("settings");
        settings.put(OptionTable.XATTRS.reportKey(), r.settings().xattrs().word());
        settings.put(OptionTable.NO_PROJID.reportKey(), r.settings().projectIds());
        settings.put(OptionTable.NO_FLAGS.reportKey(), r.settings().flags());
        settings.put(OptionTable.CONTENTS.reportKey(), r.settings().modes().compareContents());
        settings.put(OptionTable.TIME_WINDOW.reportKey(), r.timeWindowNanos());
        settings.put(OptionTable.WALK.reportKey(), r.listedBy());
        root.put("exit_code", r.exitCode());
        root.put("identical", r.exitCode() == CompareReport.IDENTICAL);
        root.put("entries_source", r.numbers().entriesSource());
        root.put("entries_destination", r.numbers().entriesDestination());
        root.put("entries_compared", r.numbers().compared());
        root.put("entries_differing", r.entriesDiffering());
        root.put("entries_below_one_sided_directories", r.numbers().onlyBelow());
        root.put("bytes_compared", r.numbers().bytesCompared());
        root.put("differences_total", r.differences().size());
        root.put("failed", r.failures().size());
        root.put("wall_nanos", r.wallNanos());
        ObjectNode kinds = root.putObject("differences_by_kind");
        r.byKind().forEach((kind, n) -> kinds.put(kind.word(), n));
        ArrayNode list = root.putArray("differences");
        for (Difference d : r.differences())
            list.addObject().put("path", d.display()).put("kind", d.kind().word()).put("source", d.source())
                    .put("destination", d.destination());
        ArrayNode failures = root.putArray("failures");
        for (Failure f : r.failures())
            failures.addObject().put("path", f.path()).put("op", f.op()).put("errno", f.errno()).put("message", f.message());
        return root;
    }

    public static String render(CompareReport r) {
        try {
            return MAPPER.writeValueAsString(toJson(r)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the report", e);
        }
    }

    /** Written beside its name, then renamed over it, as the copy's report is. */
    public static void write(CompareReport r, Path file) throws IOException {
        JsonFile.write(file, render(r));
    }
}
