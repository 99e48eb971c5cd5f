package io.sparkdcp.cli;

import io.sparkdcp.testing.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated man page as man shows it, and the generated bash completion as bash runs it. */
class ManualRenderTest {
    @TempDir
    Path tmp;

    @Test
    void theManPageRendersWithoutWarningsAndShowsEveryOption() throws Exception {
        ManualGenerator manual = ManualGenerator.ofProduct();
        Path page = Files.writeString(tmp.resolve("spark-dcp.1"), manual.troff("spark-dcp test"));
        Commands.Result checked = Commands.tryRun("groff", "-man", "-Tutf8", "-ww", "-z", page.toString());
        assertEquals(new Commands.Result(0, "", ""), checked, "groff's warnings");
        ProcessBuilder man = new ProcessBuilder("man", "-l", page.toString());
        man.environment().put("MANWIDTH", "200");
        Commands.Result shown = Commands.tryRun(man);
        assertEquals(0, shown.exitCode(), shown.stderr());
        String text = shown.stdout().replaceAll(".\b", "");
        for (CommandSpec command : manual.commands()) {
            for (OptionSpec option : command.options()) {
                for (String name : option.names()) assertTrue(text.contains(name), "man shows no " + name + " of " + command.qualifiedName());
            }
        }
        assertTrue(text.contains("spark-dcp sync [OPTION]... SRC... DST"), text);
    }

    @Test
    void theCompletionCompletesCommandsAndOptions() throws Exception {
        Path script = Files.writeString(tmp.resolve("spark-dcp"), ManualGenerator.ofProduct().completion());
        assertEquals(0, Commands.tryRun("bash", "-n", script.toString()).exitCode());
        assertEquals(List.of("sync"), complete(script, "spark-dcp", "sy"));
        assertEquals(List.of("--walk-threads", "--walk"), complete(script, "spark-dcp", "copy", "--wal"));
        assertEquals(List.of("--contents"), complete(script, "spark-dcp", "compare", "--cont"));
    }

    /** What bash's completion offers for the last word, as the completion function registered for spark-dcp computes it. */
    private static List<String> complete(Path script, String... words) {
        String line = String.join(" ", words);
        String bash = "source '" + script + "'; set -- $(complete -p spark-dcp); fn=${@: -2:1}"
                + "; COMP_WORDS=(" + line + "); COMP_CWORD=" + (words.length - 1) + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}"
                + "; $fn 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
        return Commands.run("bash", "-c", bash).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }
}
