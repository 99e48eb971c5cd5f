package io.sparkdcp;

import io.sparkdcp.testing.DocBlocks;
import io.sparkdcp.testing.DocBlocks.Command;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every shell command shown in README.md and docs/*.md is run by a test, or its doc says it is not:
 * each is either in src/test/resources/doc-commands.txt with the test (or script) that runs it, or
 * marked "not run by the tests" (in its block, its own comment, or the paragraph before its block).
 * docs/benchmarks.md, the dated history of measurements, is exempt as a whole.
 */
@Tag("fast")
class DocCommandsTest {
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Path REGISTRY = PROJECT.resolve("src/test/resources/doc-commands.txt");
    private static final String EXEMPT = "benchmarks.md";
    private static final List<Path> TEST_SOURCES = List.of(PROJECT.resolve("src/test/java"), PROJECT.resolve("bench/src/test/java"));
    /** The shared test helpers a test runs its commands through. */
    private static final Path HELPERS = PROJECT.resolve("src/test/java/io/sparkdcp/testing");
    private static final Pattern LONG_OPTION = Pattern.compile("(?<=^| )--[a-z][a-z0-9-]*");

    /** A test class's name: a capitalised word ending in Test. */
    private static final Pattern TEST_NAME = Pattern.compile("\\b[A-Z][A-Za-z0-9]*Test\\b");

    private static List<Path> docs;
    private static List<Command> shown;
    /** command as shown -> the test or script that runs it */
    private static Map<String, String> registry;

    @BeforeAll
    static void read() throws IOException {
        shown = new ArrayList<>();
        docs = new ArrayList<>(List.of(PROJECT.resolve("README.md")));
        try (Stream<Path> files = Files.list(PROJECT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md") && !f.getFileName().toString().equals(EXEMPT)).sorted().forEach(docs::add);
        }
        for (Path doc : docs) for (DocBlocks.Block block : DocBlocks.read(doc)) shown.addAll(DocBlocks.commands(block));
        registry = new LinkedHashMap<>();
        for (String line : Files.readAllLines(REGISTRY)) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int bar = line.indexOf(" | ");
            registry.put(DocBlocks.fold(line.substring(bar + 3)), line.substring(0, bar).strip());
        }
    }

    @Test
    void everyCommandShownIsRunByATestOrMarkedNotRun() {
        List<String> unaccounted = shown.stream().filter(c -> !c.markedNotRun() && !c.block().markedNotRun())
                .filter(c -> !registry.containsKey(c.text())).map(c -> c.block().where() + ": " + c.text()).toList();
        assertEquals(List.of(), unaccounted, "add each to " + PROJECT.relativize(REGISTRY) + " with the test that runs it, or mark it \""
                + DocBlocks.NOT_RUN + "\" in the doc");
    }

    @Test
    void everyRegisteredCommandIsShownUnmarked() {
        List<String> shownRun = shown.stream().filter(c -> !c.markedNotRun() && !c.block().markedNotRun()).map(Command::text).toList();
        List<String> stale = registry.keySet().stream().filter(c -> !shownRun.contains(c)).toList();
        assertEquals(List.of(), stale, "registered, but no doc shows them (or the doc says they are not run)");
    }

    /** The runner exists, and every long option of its command is in its source or the shared test helpers'. */
    @Test
    void eachRegisteredTestExistsAndUsesTheOptionsOfItsCommand() throws IOException {
        List<String> wrong = new ArrayList<>();
        String helpers = sources(HELPERS);
        for (Map.Entry<String, String> entry : registry.entrySet()) {
            Optional<Path> runner = runner(entry.getValue());
            if (runner.isEmpty()) {
                wrong.add(entry.getValue() + ": no such test class or file, for " + entry.getKey());
                continue;
            }
            String source = Files.readString(runner.get());
            Matcher option = LONG_OPTION.matcher(entry.getKey());
            while (option.find()) {
                if (!source.contains(option.group()) && !helpers.contains(option.group()))
                    wrong.add(entry.getValue() + " does not use " + option.group() + " of " + entry.getKey());
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** A test the docs name (as the test behind a promise, a table row or a command) exists. */
    @Test
    void everyTestTheDocsNameExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path doc : docs) {
            Matcher test = TEST_NAME.matcher(Files.readString(doc));
            while (test.find()) {
                if (runner(test.group()).isEmpty()) missing.add(doc.getFileName() + ": " + test.group());
            }
        }
        assertEquals(List.of(), missing.stream().distinct().toList());
    }

    @Test
    void theAuditSeesTheDocsCommands() {
        // A parser that found nothing would pass the checks above: it must see the README's first copy.
        assertFalse(shown.stream().noneMatch(c -> c.text().equals("submit-scripts/spark-dcp copy /data/src/ /data/dst")), shown.toString());
    }

    /** A test class by its simple name, else a file of the project by its path. */
    private static Optional<Path> runner(String name) throws IOException {
        for (Path root : TEST_SOURCES) {
            try (Stream<Path> files = Files.walk(root)) {
                Optional<Path> found = files.filter(f -> f.getFileName().toString().equals(name + ".java")).findFirst();
                if (found.isPresent()) return found;
            }
        }
        Path file = PROJECT.resolve(name);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    private static String sources(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) all.append(Files.readString(f));
        }
        return all.toString();
    }
}
