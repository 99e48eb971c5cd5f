package io.sparkdcp.cli;

import io.sparkdcp.api.CopyRequest;
import io.sparkdcp.api.RequestOption;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyModes.Mode;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.options.OptionTable;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.report.CompareJson;
import io.sparkdcp.report.CompareReport;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.report.ListedSource;
import io.sparkdcp.report.ReportJson;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The option table is where an option's word is typed: every entry is one picocli option of each command
 * that takes it, is set by the builder and has its report key once; and an option word written anywhere
 * in the product's code is one the commands take, so a misspelt word fails here rather than at run time.
 */
@Tag("fast")
class OptionTableTest {
    /** ManualGenerator's own arguments, not the commands'. */
    private static final Set<String> NOT_OPTIONS = Set.of("--man", "--options", "--completion");

    @Test
    void eachEntryIsOnePicocliOptionOfEachCommandThatTakesIt() {
        CommandLine root = Main.withEverySubcommand();
        List<String> wrong = new ArrayList<>();
        for (String name : List.of("copy", "sync", "compare")) {
            CommandSpec command = root.getSubcommands().get(name).getCommandSpec();
            assertEquals(name, TableOptions.kind(command));
            for (RequestOption option : RequestOption.all()) {
                long declared = command.options().stream().filter(o -> List.of(o.names()).contains(option.option())).count();
                if (declared != (option.takenBy(name) ? 1 : 0)) wrong.add(name + " " + option.option() + " declared " + declared + " times");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void theBuilderSetsEveryEntry() {
        for (OptionTable option : OptionTable.values()) {
            CopyRequest.Builder request = CopyRequest.builder();
            request.set(option, sample(option)); // IllegalStateException: an entry the builder does not set
            if (option.mode() != null) assertTrue(request.build().modes().has(option.mode()), option.option());
        }
        assertEquals(List.of(false, true), List.of(CopyRequest.builder().set(OptionTable.NO_FLAGS, "true").build().keep().flags(),
                CopyRequest.builder().set(OptionTable.NO_FLAGS, "false").build().keep().flags()));
    }

    @Test
    void eachModeHasOneEntryAndTheLedgerHoldsTheModesThatChangeWhatIsIdentical() {
        for (Mode mode : Mode.values())
            assertEquals(1, Stream.of(OptionTable.values()).filter(o -> o.mode() == mode).count(), mode.name());
        // Not sync or --update: every operation records only what it found identical, and shares a ledger.
        assertEquals(EnumSet.of(Mode.CONTENTS), OptionTable.identityModes());
    }

    /** The settings of the copy's and the compare's JSON are the table's report keys, each once. */
    @Test
    void theReportsSettingsKeysAreTheTables() {
        List<String> keys = Stream.of(OptionTable.values()).map(OptionTable::reportKey).filter(k -> k != null).toList();
        assertEquals(keys.size(), Set.copyOf(keys).size(), "a report key twice: " + keys);
        Set<String> shown = new TreeSet<>(copySettingsKeys());
        CompareJson.toJson(new CompareReport(settings(), 0, "driver", new CompareReport.Numbers(1, 1, 1, 0, 0), List.of(), List.of(), 1))
                .get("settings").fieldNames().forEachRemaining(shown::add);
        assertEquals(new TreeSet<>(keys), shown);
    }

    /** docs/usage.md's description of the report names every settings key the copy's report has. */
    @Test
    void theUsageGuideNamesEveryKeyOfTheCopysSettings() throws IOException {
        String settingsRow = Files.readAllLines(Path.of("docs/usage.md")).stream().filter(l -> l.startsWith("| `settings` |"))
                .findFirst().orElseThrow();
        assertEquals(List.of(), copySettingsKeys().stream().filter(key -> !settingsRow.contains("`" + key + "`")).toList());
    }

    private static List<String> copySettingsKeys() {
        List<String> keys = new ArrayList<>();
        ReportJson.toJson(new CopyReport("/src", "/dst", settings(), new ListedSource(1, 0, true, "driver", null), new CopyCounts(),
                new StepStats(), 1)).get("settings").fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private static CopyOptions settings() {
        return CopyOptions.between(PathBytes.of("/src"), PathBytes.of("/dst"), CopyRequest.defaults().keep(), CopyModes.COPY, 1L << 20);
    }

    /** "--word" at the start of a string in the product's code: an option some command takes. */
    @Test
    void everyOptionWordInTheCodeIsAnOptionOfACommand() throws IOException {
        Set<String> options = new TreeSet<>(NOT_OPTIONS);
        options.addAll(UsageHints.RSYNC.keySet()); // rsync's, named to be refused with what to use instead
        CommandLine root = Main.withEverySubcommand();
        for (CommandLine command : root.getSubcommands().values())
            for (OptionSpec o : command.getCommandSpec().options()) options.addAll(List.of(o.names()));
        Pattern word = Pattern.compile("\"(--[a-z][a-z0-9-]*)");
        List<String> unknown = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = word.matcher(Files.readString(file));
                while (m.find()) if (!options.contains(m.group(1))) unknown.add(file.getFileName() + ": " + m.group(1));
            }
        }
        assertEquals(List.of(), unknown);
    }

    private static String sample(OptionTable option) {
        return switch (option.value()) {
            case FLAG -> "true";
            case INT, LONG -> "2";
            case DURATION -> "1000";
            case HADOOP_PATH -> "/tmp/somewhere";
            case TEXT -> option.defaultWord() != null ? option.defaultWord() : "1M";
        };
    }
}
