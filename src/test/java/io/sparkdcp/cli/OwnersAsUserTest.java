package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy by a user who is not root, of a tree whose entries belong to several users, on XFS with the real
 * CLI: the owners it cannot keep are said once, in the output and in the report's notices, and --strict
 * fails each such entry, on a first copy and on a re-run that finds them already there.
 */
class OwnersAsUserTest {
    private static final int USER = 1001;
    private static final String NOTICE = "keep owner: this run is not root (uid " + USER + ")";
    private static LoopMount mount;
    private static Path src;
    private static Path work;
    private static String classpath;

    @BeforeAll
    static void treeOfSeveralOwners() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("owners", 400);
        src = mount.dir().resolve("src");
        work = mount.dir().resolve("work");
        Commands.bash("set -e; mkdir -p '" + src + "/mine' '" + src + "/theirs' '" + work + "'; cd '" + src + "'"
                + "; for d in mine theirs; do for f in 1 2 3; do echo $d$f > $d/f$f; done; done"
                + "; ln -s f1 theirs/link; chmod -R a+rX ."
                + "; chown -R " + USER + ":" + USER + " . '" + work + "'"
                + "; chown -R 1002:1002 theirs; chown 1003:1003 theirs/f2; chown -h 0:0 theirs/link");
        classpath = ReadableClasspath.copyTo(mount.dir().resolve("classpath"));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void ownersOfOthersAreNoticedOnceInTheOutputAndTheReport() throws Exception {
        Path dst = work.resolve("copied");
        for (int run = 1; run <= 2; run++) { // the re-run keeps the copies, whose owners are still not SRC's
            Path report = work.resolve("copied-" + run + ".json");
            Run copy = asUser("copy", "--report", report.toString(), src + "/", dst.toString());
            assertEquals(0, copy.exitCode(), copy.output());
            assertEquals(1, copy.output().lines().filter(l -> l.contains(NOTICE)).count(), copy.output());
            JsonNode notices = new ObjectMapper().readTree(report.toFile()).at("/notices");
            List<JsonNode> owners = StreamSupport.stream(notices.spliterator(), false)
                    .filter(n -> n.at("/op").asText().equals("keep owner")).toList();
            assertEquals(1, owners.size(), notices.toString());
            assertTrue(owners.get(0).at("/path").asText().startsWith("theirs"), notices.toString());
        }
        assertEquals(USER, Posix.lstat(PathBytes.of(dst.resolve("theirs/f2").toString())).uid(), "as cp -a as a user");
    }

    @Test
    void aTreeOfTheUsersOwnHasNoNotice() throws Exception {
        Path report = work.resolve("own.json");
        Run copy = asUser("copy", "--strict", "--report", report.toString(), src + "/mine/", work.resolve("own").toString());
        assertEquals(0, copy.exitCode(), copy.output());
        assertEquals(0, new ObjectMapper().readTree(report.toFile()).at("/notices").size(), copy.output());
    }

    @Test
    void strictFailsEachEntryWhoseOwnerCannotBeKept() throws Exception {
        Path dst = work.resolve("strict");
        Run first = asUser("copy", "--strict", src + "/", dst.toString());
        assertEquals(1, first.exitCode(), first.output());
        assertTrue(first.output().contains("spark-dcp: failed: theirs/f2: fchown EPERM: owner 1003 cannot be kept: "
                + "this run is not root (uid " + USER + ", --strict)"), first.output());
        assertTrue(first.output().lines().noneMatch(l -> l.contains("failed: mine")), first.output());
        assertEquals("mine1\n", java.nio.file.Files.readString(dst.resolve("mine/f1")));

        Run copied = asUser("copy", src + "/", dst.toString());
        assertEquals(0, copied.exitCode(), copied.output());
        Run again = asUser("copy", "--strict", src + "/", dst.toString());
        assertEquals(1, again.exitCode(), "what is there with another owner fails too: " + again.output());
        assertTrue(again.output().contains("spark-dcp: failed: theirs/f1: fchown EPERM: owner 1002 cannot be kept"), again.output());
    }

    private record Run(int exitCode, String output) {}

    /** The CLI as USER (no supplementary groups), its stdout and stderr together. */
    private static Run asUser(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + USER, "--regid=" + USER, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath, Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "copy as a user timed out: " + output);
        return new Run(p.exitValue(), output);
    }
}
