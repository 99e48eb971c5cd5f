package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The option reference and the man page say what the parser takes: generated from its model, and checked in as generated. */
@Tag("fast")
class ManualDriftTest {
    private static final Path OPTIONS = Path.of("docs/options.md");

    @Test
    void theCheckedInOptionReferenceIsTheGeneratedOne() throws Exception {
        assertEquals(ManualGenerator.ofProduct().optionsMarkdown(), Files.readString(OPTIONS),
                "docs/options.md is not what the options say; regenerate it: "
                        + "mvn -q -B -Dmaven.test.skip=true package && cp target/manual/options.md docs/options.md");
    }

    /** Each command has its section, and each of its options a .TP item under it, with every name the option has. */
    @Test
    void theManPageListsEveryOptionOfEveryCommand() {
        ManualGenerator manual = ManualGenerator.ofProduct();
        String page = manual.troff("spark-dcp test");
        List<String> missing = new ArrayList<>();
        for (CommandSpec command : manual.commands()) {
            int section = command.parent() == null ? page.indexOf(".SH OPTIONS OF SPARK\\-DCP ITSELF\n")
                    : page.indexOf(".SS spark\\-dcp " + command.name().replace("-", "\\-") + "\n");
            if (section < 0) {
                missing.add(command.qualifiedName());
                continue;
            }
            int end = page.indexOf("\n.S", section + 1);
            String own = page.substring(section, end < 0 ? page.length() : end);
            for (OptionSpec option : command.options()) {
                for (String name : option.names()) {
                    if (!own.contains(".TP\n") || !own.contains("\\fB" + name.replace("-", "\\-") + "\\fR")) {
                        missing.add(command.qualifiedName() + " " + name);
                    }
                }
            }
        }
        assertEquals(List.of(), missing);
        assertEquals(List.of("copy", "sync", "compare", "help"), manual.commands().stream().skip(1).map(CommandSpec::name).toList(),
                "the product's commands, the bench's left out");
    }
}
