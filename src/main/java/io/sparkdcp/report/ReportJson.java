package io.sparkdcp.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.OptionTable;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.sparkdcp.copy.options.OptionTable.BWLIMIT;
import static io.sparkdcp.copy.options.OptionTable.LISTING;
import static io.sparkdcp.copy.options.OptionTable.MAX_OPS;
import static io.sparkdcp.copy.options.OptionTable.NO_PROJID;
import static io.sparkdcp.copy.options.OptionTable.WALK;
import static io.sparkdcp.copy.options.OptionTable.XATTRS;
import static io.sparkdcp.copy.options.OptionTable.XATTR_ACCESS;

/**
 * The machine-readable report ({@code --report FILE}). Field names are snake_case nouns with their
 * unit and are part of the interface: schedulers and scripts read them. Built node by node rather
 * than by reflection so that renaming a Java accessor cannot rename a field; the settings' keys are the
 * option table's ({@link OptionTable#reportKey}).
 */
public final class ReportJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportJson() {}

    public static ObjectNode toJson(CopyReport report) {
        CopyCounts c = report.counts();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("source", report.source());
        root.put("destination", report.destination());
        ObjectNode settings = root.putObject("settings");
        CopyOptions ran = report.settings();
        settings.put(XATTRS.reportKey(), ran.keep().xattrs().word());
        settings.put(XATTR_ACCESS.reportKey(), ran.keep().xattrAccess().name().toLowerCase(Locale.ROOT));
        settings.put(NO_PROJID.reportKey(), ran.keep().projectIds());
        for (OptionTable o : OptionTable.values()) if (o.mode() != null) settings.put(o.reportKey(), ran.modes().has(o.mode()));
        settings.put(WALK.reportKey(), report.listed().by());
        settings.put(LISTING.reportKey(), report.listed().savedDir());
        // null: no limit
        settings.put(MAX_OPS.reportKey(), ran.throttle().maxOps() > 0 ? ran.throttle().maxOps() : null);
        settings.put(BWLIMIT.reportKey(), ran.throttle().bwlimit() > 0 ? ran.throttle().bwlimit() : null);
        root.put("exit_code", report.exitCode());
        root.put("interrupted", false);
        root.put("walk_complete", report.listed().complete());
        root.put("entries_listed", report.listed().entries());
        root.put("bytes_listed", report.listed().bytes());
        root.put("ledger_unchanged", report.listed().ledgerUnchanged());
        root.put("copied", c.copied());
        root.put("skipped", c.skipped());
        root.put("metadata_fixed", c.metadataFixed());
        root.put("deleted", c.deleted());
        root.put("kept_newer", c.keptNewer());
        root.put("verified", c.verified());
        root.put("failed", c.failed());
        root.put("links", c.links());
        root.put("links_skipped", c.linksSkipped());
        root.put("bytes_copied", c.bytesCopied());
        root.put("wall_nanos", report.wallNanos());
        root.put("metadata_calls", report.steps().metadataCalls());
        root.put("metadata_calls_per_second", report.metadataCallsPerSecond());
        root.put("bytes_copied_per_second", report.bytesPerSecond());
        byType(root.putObject("copied_by_type"), c.copiedByType());
        byType(root.putObject("skipped_by_type"), c.skippedByType());
        byType(root.putObject("metadata_fixed_by_type"), c.metadataFixedByType());
        byType(root.putObject("deleted_by_type"), c.deletedByType());
        ObjectNode steps = root.putObject("steps");
        report.steps().asMap().forEach((label, v) -> steps.putObject(label).put("count", v[0]).put("nanos", v[1]));
        failures(root.putArray("failures"), c.failures());
        failures(root.putArray("notices"), c.notices());
        return root;
    }

    public static String render(CopyReport report) {
        try {
            return MAPPER.writeValueAsString(toJson(report)) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the report", e);
        }
    }

    /**
     * Writes the report next to its final name, then renames it over: a reader (or a crash) never
     * sees half a report, and an older report stays whole until the new one is complete.
     */
    public static void write(CopyReport report, Path file) throws IOException {
        JsonFile.write(file, render(report));
    }

    /**
     * The report of a run a signal ended: no counts (the run kept none it could vouch for; its re-run
     * resumes and counts the whole copy), written whole like any report.
     */
    public static void writeInterrupted(String signal, int exitCode, byte[] file) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("interrupted", true);
        root.put("signal", signal);
        root.put("exit_code", exitCode);
        root.put("counted", "nothing: an interrupted run reports no counts; run it again to resume, its report counts the whole copy");
        JsonFile.write(file, MAPPER.writeValueAsString(root) + "\n");
    }

    /** A run that has not ended (yet): what its report file says until the run's own report replaces it. */
    public static void writeUnfinished(byte[] file) throws IOException {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("interrupted", true);
        root.putNull("signal");
        root.putNull("exit_code");
        root.put("counted", "nothing yet: the run had not ended (it was still running, or was killed); its own report replaces this");
        JsonFile.write(file, MAPPER.writeValueAsString(root) + "\n");
    }

    private static void byType(ObjectNode node, Map<FileType, Long> counts) {
        for (FileType t : FileType.values()) {
            Long n = counts.get(t);
            if (n != null) node.put(t.name().toLowerCase(Locale.ROOT), n);
        }
    }

    private static void failures(ArrayNode array, List<Failure> failures) {
        for (Failure f : failures) {
            array.addObject().put("path", f.path()).put("op", f.op()).put("errno", f.errno()).put("message", f.message());
        }
    }
}
