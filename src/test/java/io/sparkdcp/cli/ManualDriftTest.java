package io.sparkdcp.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** The page's EXAMPLES are each command's help footer, and each is a command line the parser takes. */
    @Test
    void theManPageHasExamplesOfEachCommandThatTheParserTakes() {
        ManualGenerator manual = ManualGenerator.ofProduct();
        String page = manual.troff("spark-dcp test");
        int examples = page.indexOf(".SH EXAMPLES\n");
        assertTrue(examples > page.indexOf(".SH EXIT STATUS\n") && examples < page.indexOf(".SH SEE ALSO\n"), page);
        for (CommandSpec command : manual.commands().subList(1, 4)) {
            List<ManualGenerator.Example> own = ManualGenerator.examples(command);
            assertFalse(own.isEmpty(), command.name() + " has no examples");
            for (ManualGenerator.Example example : own) {
                assertTrue(page.indexOf(".TP\n\\fB" + example.command().replace("-", "\\-") + "\\fR\n", examples) > 0, example.command());
                assertFalse(example.what().isBlank(), example.command());
                String[] words = example.command().replace("'", "").split(" ");
                assertEquals(List.of("spark-dcp", command.name()), List.of(words[0], words[1]), example.command());
                Main.withEverySubcommand().parseArgs(Arrays.copyOfRange(words, 1, words.length)); // throws when refused
            }
        }
    }
}
