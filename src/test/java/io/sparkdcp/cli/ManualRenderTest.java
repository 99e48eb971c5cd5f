package io.sparkdcp.cli;

import io.sparkdcp.copy.options.OptionTable;
import io.sparkdcp.testing.Commands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
        Path script = completion();
        assertEquals(0, Commands.tryRun("bash", "-n", script.toString()).exitCode());
        assertEquals(List.of("sync"), complete(script, "spark-dcp", "sy"));
        assertEquals(List.of("--walk", "--walk-threads"), complete(script, "spark-dcp", "copy", "--wal"));
        assertEquals(List.of("--contents"), complete(script, "spark-dcp", "compare", "--cont"));
        assertEquals(List.of("--delete", "--delete-excluded"), complete(script, "spark-dcp", "sync", "--dele"));
    }

    /** SRC, DST and the options that name a file or a directory complete as bash completes a command it knows nothing of. */
    @Test
    void pathsCompleteAfterTheCompletionIsSourcedAsBefore() throws Exception {
        Path script = completion();
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(data.resolve("src tree"));
        Files.createDirectories(data.resolve("state"));
        Files.writeString(data.resolve("src.list"), "a\n");
        Files.writeString(data.resolve("stats.json"), "{}");
        String sr = data + "/sr";
        List<String> before = lines(bash("compgen -f -- '" + sr + "'"));
        assertEquals(List.of(data + "/src tree", data + "/src.list"), before.stream().sorted().toList(), "bash's own file names");
        assertEquals(before, complete(script, "spark-dcp", "copy", sr));
        assertEquals(before, complete(script, "spark-dcp", "sync", "-n", data + "/other", sr), "DST as SRC");
        assertEquals(before, complete(script, "spark-dcp", "compare", sr));
        assertEquals(List.of(data + "/state"), complete(script, "spark-dcp", "copy", "--state", data + "/st"), "directories only");
        assertEquals(List.of(data + "/state"), complete(script, "spark-dcp", "sync", "--log=" + data + "/st"));
        assertEquals(List.of(data + "/stats.json", data + "/state").stream().sorted().toList(),
                complete(script, "spark-dcp", "copy", "--report", data + "/st").stream().sorted().toList());
        assertEquals(List.of(data + "/src.list", data + "/src tree").stream().sorted().toList(),
                complete(script, "spark-dcp", "copy", "--files-from", sr).stream().sorted().toList());
    }

    /**
     * TAB as a user presses it, in an interactive bash on a terminal (a pty through util-linux's script): the line before
     * the completion is sourced, then after. Ctrl-A and "echo =" then make bash print the completed line.
     */
    @Test
    void tabCompletesOnATerminalAfterSourcingAsBefore() throws Exception {
        Path script = completion();
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.createDirectories(data.resolve("src-tree"));
        Files.createDirectories(data.resolve("state"));
        Files.writeString(data.resolve("stats.json"), "{}");
        List<String> typed = List.of("spark-dcp copy " + data + "/sr\t", "source " + script, "spark-dcp copy " + data + "/sr\t",
                "spark-dcp sync --state " + data + "/st\t", "spark-dcp copy --xattrs non-\t", "spark-dcp sync --wal\t");
        List<String> shown = completedOnATerminal(typed);
        assertEquals(List.of("spark-dcp copy " + data + "/src-tree/", "spark-dcp copy " + data + "/src-tree/",
                "spark-dcp sync --state " + data + "/state/", "spark-dcp copy --xattrs non-lustre", "spark-dcp sync --walk"), shown);
    }

    /** What bash prints for each typed line that holds a TAB, the line as completed; a line without one is run as it is. */
    private List<String> completedOnATerminal(List<String> lines) throws Exception {
        ProcessBuilder pty = new ProcessBuilder("script", "-qfc", "bash --norc --noprofile -i", "/dev/null").directory(tmp.toFile());
        pty.environment().putAll(Map.of("TERM", "dumb", "PS1", "$ ", "INPUTRC", "/dev/null"));
        pty.redirectErrorStream(true);
        Process shell = pty.start();
        StringBuffer output = new StringBuffer();
        Thread reader = new Thread(() -> {
            try (var in = new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8)) {
                char[] buffer = new char[4096];
                for (int n; (n = in.read(buffer)) > 0; ) output.append(buffer, 0, n);
            } catch (IOException e) {
                output.append("\nreading: ").append(e);
            }
        });
        reader.start();
        List<String> completed = new ArrayList<>();
        try (Writer keys = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.UTF_8)) {
            int expected = 0;
            for (String line : lines) {
                // each line waits for the one before to have run: a prompt after it, or its echoed result
                boolean tab = line.endsWith("\t");
                keys.write(tab ? line + "\u0001echo =\n" : line + "; echo =ran\n");
                keys.flush();
                expected++;
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (results(output).size() < expected && System.nanoTime() < deadline) Thread.sleep(20);
                assertEquals(expected, results(output).size(), "bash did not answer:\n" + output);
            }
            keys.write("exit\n");
        } finally {
            if (!shell.waitFor(30, TimeUnit.SECONDS)) shell.destroyForcibly();
            reader.join(10_000);
        }
        for (String r : results(output)) if (!r.equals("ran")) completed.add(r);
        return completed;
    }

    /** bash's output lines that "echo =" printed, without the '='. */
    private static List<String> results(StringBuffer output) {
        return output.toString().lines().map(l -> l.replace("\r", "")).filter(l -> l.startsWith("=")).map(l -> l.substring(1).strip()).toList();
    }

    /** The words an option takes are the option table's: what help shows, the builder takes and completion offers. */
    @Test
    void anOptionsWordsCompleteFromTheOptionTable() throws Exception {
        Path script = completion();
        assertEquals(OptionTable.XATTRS.words(), complete(script, "spark-dcp", "copy", "--xattrs", ""));
        assertEquals(List.of("none", "non-lustre"), complete(script, "spark-dcp", "sync", "--xattrs", "no"));
        assertEquals(List.of("non-lustre"), complete(script, "spark-dcp", "compare", "--xattrs=non-"));
        assertEquals(OptionTable.WALK.words(), complete(script, "spark-dcp", "compare", "--walk", ""));
        assertEquals(OptionTable.LUSTRE_LAYOUT.words(), complete(script, "spark-dcp", "copy", "--lustre-layout", ""));
        assertEquals(List.of("none", "all", "non-lustre", "libattr"), OptionTable.XATTRS.words());
        assertEquals(List.of(), complete(script, "spark-dcp", "copy", "--batch-files", ""), "a number: no words, no file names");
    }

    private Path completion() throws Exception {
        return Files.writeString(tmp.resolve("spark-dcp"), ManualGenerator.ofProduct().completion());
    }

    /**
     * What bash's completion offers for the last word, as the completion function registered for spark-dcp computes it in
     * an interactive bash that sourced the script. A word holding '=' is split there, as bash splits the line it completes.
     */
    private List<String> complete(Path script, String... words) {
        List<String> split = new ArrayList<>();
        for (String w : words) {
            int eq = w.startsWith("--") ? w.indexOf('=') : -1;
            if (eq < 0) split.add(w);
            else split.addAll(List.of(w.substring(0, eq), "=", w.substring(eq + 1)));
        }
        String line = String.join(" ", words);
        String array = String.join(" ", split.stream().map(w -> "'" + w + "'").toList());
        return lines(bash("source '" + script + "'; set -- $(complete -p spark-dcp); fn=${@: -2:1}"
                + "; COMP_WORDS=(" + array + "); COMP_CWORD=" + (split.size() - 1) + "; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}"
                + "; $fn; printf '%s\\n' \"${COMPREPLY[@]}\""));
    }

    /** stdout of an interactive bash without rc files, run in the test's directory. */
    private String bash(String commands) {
        ProcessBuilder bash = new ProcessBuilder("bash", "--norc", "--noprofile", "-i", "-c", commands).directory(tmp.toFile());
        Commands.Result result = Commands.tryRun(bash);
        assertEquals(0, result.exitCode(), result.stderr());
        return result.stdout();
    }

    private static List<String> lines(String out) {
        return out.lines().filter(l -> !l.isEmpty()).toList();
    }
}
