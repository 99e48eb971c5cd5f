package io.sparkdcp.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkdcp.itemlog.ItemLogDir;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.ReadableClasspath;
import io.sparkdcp.testing.RichTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code spark-dcp compare} on XFS: silent on an exact copy made by spark-dcp, each planted kind of
 * difference found and nothing else, cp -a's lost project IDs found, and neither tree touched.
 */
class CompareCommandTest {
    private static LoopMount mount;
    private static RichTree source;
    private static int copies;

    @BeforeAll
    static void buildSource() throws IOException {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("compare-test", 1024);
        source = RichTree.build(Files.createDirectory(mount.dir().resolve("source")));
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    @Test
    void anExactCopyIsIdenticalAndNeitherTreeIsTouched() throws IOException {
        Path copy = sparkDcpCopy();
        Path report = mount.dir().resolve("identical.json");
        // Old atimes (before the mtimes): under relatime any read of a file or directory would move them.
        ageAtimes(source.root());
        ageAtimes(copy);
        Map<String, String> before = inodeTimes(source.root());
        before.putAll(inodeTimes(copy));

        CommandLineRun run = CommandLineRun.of("compare", "--contents", "--xattrs", "all", "--report", report.toString(),
                source.root() + "/", copy.toString());

        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("identical"), run.out());
        assertTrue(run.out().contains(String.format("%,d in both", source.entryCount() + 1)), run.out());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertTrue(json.get("identical").asBoolean(), json.toString());
        assertEquals(0, json.get("differences_total").asLong());
        assertEquals(source.entryCount() + 1, json.get("entries_compared").asLong());
        assertEquals(fileBytes(), json.get("bytes_compared").asLong(), json.toString());
        Map<String, String> after = inodeTimes(source.root());
        after.putAll(inodeTimes(copy));
        assertEquals(before, after, "compare changed a ctime, or an atime of a file or directory");
    }

    @Test
    void findsEachPlantedDifferenceAndNothingElse() throws IOException {
        Path copy = sparkDcpCopy();
        List<String> expected = plantOneOfEachKind(copy);
        Path report = mount.dir().resolve("planted.json");

        CommandLineRun run = CommandLineRun.of("compare", "--contents", "--report", report.toString(),
                source.root() + "/", copy.toString());

        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertEquals(expected.stream().sorted().toList(), differsLines(run.err()).stream().sorted().toList());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertEquals(expected.size(), json.get("differences_total").asInt(), json.toString());
        assertEquals(4, json.get("entries_below_one_sided_directories").asLong(), json.toString()); // deep/l1/l2.../leaf.txt
        for (String kind : List.of("only_in_source", "only_in_destination", "type", "size", "data", "mode", "owner", "group",
                "mtime", "device", "symlink_target", "xattr", "acl", "project_id", "projinherit", "flags", "hard_links"))
            assertEquals(1, json.at("/differences_by_kind/" + kind).asInt(), kind + " in " + json.get("differences_by_kind"));
        assertTrue(run.out().contains("17 differences in 17 entries"), run.out());

        // The same on Spark, the trees walked by the executors, in batches of 5 pairs compared by 3 threads each,
        // the big file's bytes in 1 MiB chunks by several tasks; with --log the listings stay there too.
        Path sparkReport = mount.dir().resolve("planted-spark.json");
        Path sparkLog = mount.dir().resolve("planted-spark-log");
        CommandLineRun spark = CommandLineRun.of("compare", "--contents", "--master", "local[2]", "--walk", "distributed",
                "--batch-files", "5", "--threads-per-task", "3", "--chunk-size", "1M", "--batch-bytes", "2M",
                "--log", sparkLog.toString(), "--report", sparkReport.toString(), source.root() + "/", copy.toString());
        assertEquals(1, spark.exitCode(), spark.err());
        assertEquals(expected.stream().sorted().toList(), differsLines(spark.err()).stream().sorted().toList());
        assertTrue(spark.err().contains("in DST on the executors"), spark.err());
        JsonNode sparkJson = new ObjectMapper().readTree(sparkReport.toFile());
        assertEquals(json.get("bytes_compared").asLong(), sparkJson.get("bytes_compared").asLong());
        // Matched, hard links grouped and pairs compared on the executors (issue 16): the driver's findings, all of them.
        assertEquals("executors", sparkJson.at("/settings/listed_by").asText(), sparkJson.toString());
        for (String field : List.of("differences_total", "differences_by_kind", "entries_below_one_sided_directories", "entries_compared",
                "entries_source", "entries_destination", "entries_differing", "failed"))
            assertEquals(json.get(field), sparkJson.get(field), field);
        assertEquals(expected.size(), ItemLogDir.read(sparkLog.toString()).size(), "one log line per difference");

        // Without --contents the changed byte goes unseen (same size and mtime), the rest does not.
        CommandLineRun metadataOnly = CommandLineRun.of("compare", source.root() + "/", copy.toString());
        assertEquals(expected.size() - 1, differsLines(metadataOnly.err()).size(), metadataOnly.err());
    }

    @Test
    void compareTakesTheSourceFormsCopyTakes() throws IOException {
        // rsync's rule: "copy SRC DST" made DST/name, so "compare SRC DST" compares SRC with DST/name.
        Path into = mount.dir().resolve("into-" + ++copies);
        assertEquals(0, CommandLineRun.of("copy", "--xattrs", "all", "--mkpath", source.root().toString(), into.toString()).exitCode());

        CommandLineRun itself = CommandLineRun.of("compare", "--xattrs", "all", source.root().toString(), into.toString());
        CommandLineRun contents = CommandLineRun.of("compare", "--xattrs", "all", source.root() + "/", into.toString());

        assertEquals(0, itself.exitCode(), itself.err());
        assertEquals(1, contents.exitCode(), contents.err()); // DST holds one entry, the source's name
    }

    @Test
    void cpIntoAProjectDirectoryLosesTheProjectIdsAndCompareSaysWhere() throws IOException {
        Path into = mount.dir().resolve("cp-" + ++copies);
        Commands.run("mkdir", into.toString());
        Commands.run("xfs_io", "-c", "chproj 555", "-c", "chattr +P", into.toString());
        Commands.run("cp", "-a", source.root() + "/.", into.toString());
        Path report = mount.dir().resolve("cp.json");

        CommandLineRun run = CommandLineRun.of("compare", "--xattrs", "none", "--report", report.toString(),
                source.root() + "/", into.toString());

        assertEquals(1, run.exitCode(), run.err());
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        List<String> lines = new ArrayList<>();
        for (JsonNode d : json.get("differences"))
            lines.add(d.get("path").asText() + ": " + d.get("kind").asText() + ": " + d.get("source").asText() + " != "
                    + d.get("destination").asText());
        // Every file and directory now has project 555; cp -a kept everything else. New directories under
        // +P inherit the flag, also where the source's lacked it.
        assertEquals(filesAndDirectories(), json.at("/differences_by_kind/project_id").asLong(), json.get("differences_by_kind").toString());
        assertTrue(lines.contains(RichTree.PROJECT_99_FILE + ": project_id: 99 != 555"), String.join("\n", lines));
        assertTrue(lines.contains(".: project_id: 4242 != 555"), String.join("\n", lines));
        assertTrue(lines.contains(RichTree.NO_INHERIT_DIR + ": projinherit: unset != set"), String.join("\n", lines));
        assertTrue(lines.stream().allMatch(l -> l.contains(": project_id: ") || l.contains(": projinherit: ")), String.join("\n", lines));
        assertTrue(run.out().matches("(?s).*\\n  project_id +" + filesAndDirectories() + "\\n.*"), run.out());
    }

    @Test
    void aCoarseDestinationMatchesWithinTheTimeWindow() {
        Path copy = sparkDcpCopy();
        Commands.run("touch", "-h", "-m", "-d", "2001-02-03 04:05:06", copy.resolve(RichTree.SMALL_FILE).toString());

        CommandLineRun exact = CommandLineRun.of("compare", source.root() + "/", copy.toString());
        assertEquals(List.of(RichTree.SMALL_FILE + ": mtime: 2001-02-03T04:05:06.123456789Z != 2001-02-03T04:05:06.000000000Z"), differsLines(exact.err()));
        CommandLineRun windowed = CommandLineRun.of("compare", "--time-window", "1s", source.root() + "/", copy.toString());
        assertEquals(0, windowed.exitCode(), windowed.err());
    }

    /**
     * As a user: a directory they may not list is trouble (exit 2, listed as failed), not a tree of
     * missing entries; files of others are still compared (opened without O_NOATIME, which they may not use).
     */
    @Test
    void asAUserWhatCannotBeReadIsTroubleNotADifference() throws Exception {
        Path base = mount.dir().resolve("user-" + ++copies);
        Commands.bash("set -e; for t in a b; do mkdir -p '" + base + "'/$t/locked; cd '" + base + "'/$t"
                + "; echo mine > mine; echo theirs > theirs; echo secret > locked/secret; chown -R 1001:1001 mine ."
                + "; chown 0:0 theirs locked locked/secret; chmod 0700 locked; touch -d '2001-02-03 04:05:06.5' mine theirs; done"
                + "; echo other > '" + base + "'/b/locked/extra; touch -r '" + base + "'/a/locked '" + base + "'/b/locked"
                + "; touch -r '" + base + "'/a '" + base + "'/b");
        String classpath = ReadableClasspath.copyTo(mount.dir().resolve("classpath"));
        Process p = new ProcessBuilder("setpriv", "--reuid=1001", "--regid=1001", "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
                Main.class.getName(), "compare", "--contents", base.resolve("a") + "/", base.resolve("b").toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), output);

        assertEquals(2, p.exitValue(), output);
        List<String> failed = output.lines().filter(l -> l.startsWith("spark-dcp: failed: ")).toList();
        assertEquals(2, failed.size(), output); // once per walk: the pair's own failure to open it is not repeated
        assertTrue(failed.stream().allMatch(l -> l.startsWith("spark-dcp: failed: locked: openat") && l.contains("EACCES")), output);
        assertTrue(output.contains("no differences found, but 2 entries could not be compared"), output);
        assertTrue(output.contains("file contents (12 bytes on each side)"), output); // mine and theirs, read
    }

    @Test
    void usageErrorsExitTwo() {
        String src = source.root().toString();
        for (String[] args : List.of(new String[]{"compare", src, mount.dir().resolve("missing").toString()},
                new String[]{"compare", "--xattrs", "some", src, src + "/../source"},
                new String[]{"compare", "--time-window", "soon", src, mount.dir().toString()},
                new String[]{"compare", src})) {
            CommandLineRun run = CommandLineRun.asLaunched(args);
            assertEquals(2, run.exitCode(), String.join(" ", args) + ": " + run.err());
            assertTrue(run.err().startsWith("spark-dcp: "), run.err());
        }
    }

    // ---- planting --------------------------------------------------------------------------------

    /** One difference of each kind, every other change undone (times restored with touch -r); the lines compare prints. */
    private static List<String> plantOneOfEachKind(Path copy) throws IOException {
        List<String> expected = new ArrayList<>();
        run("chmod", "0640", copy.resolve(RichTree.MODE_0751));
        expected.add(RichTree.MODE_0751 + ": mode: 0751 != 0640");
        Commands.run("chown", "-h", "1005", copy.resolve(RichTree.OWNED_1001).toString());
        expected.add(RichTree.OWNED_1001 + ": owner: 1001 != 1005");
        Commands.run("chgrp", "-h", "1005", copy.resolve(RichTree.OWNED_1003).toString());
        expected.add(RichTree.OWNED_1003 + ": group: 100 != 1005");
        Commands.run("touch", "-h", "-m", "-d", "2001-02-03 04:05:06.123456788", copy.resolve(RichTree.SMALL_FILE).toString());
        expected.add(RichTree.SMALL_FILE + ": mtime: 2001-02-03T04:05:06.123456789Z != 2001-02-03T04:05:06.123456788Z");
        Files.writeString(copy.resolve(RichTree.EMPTY_FILE), "abc");
        restoreTimes(copy, RichTree.EMPTY_FILE);
        expected.add(RichTree.EMPTY_FILE + ": size: 0 != 3");
        try (RandomAccessFile file = new RandomAccessFile(copy.resolve(RichTree.BIG_FILE).toFile(), "rw")) {
            file.seek(2_000_000);
            int old = file.read();
            file.seek(2_000_000);
            file.write(old ^ 1);
        }
        restoreTimes(copy, RichTree.BIG_FILE);
        expected.add(RichTree.BIG_FILE + ": data: the bytes differ");
        Commands.run("setfattr", "-n", "user.plain", "-v", "plain valuf", copy.resolve(RichTree.XATTR_FILE).toString());
        expected.add(RichTree.XATTR_FILE + ": xattr: user.plain=\"plain value\" != user.plain=\"plain valuf\"");
        Commands.run("setfacl", "-k", copy.resolve(RichTree.DEFAULT_ACL_DIR).toString());
        // An ACL's value is binary: shown in hex, cut short (52 bytes here: 4 header and 6 entries of 8).
        expected.add(RichTree.DEFAULT_ACL_DIR + ": acl: system.posix_acl_default=0x0200000001000700ffffffff02000700"
                + "eb030000040005… (52 bytes) != system.posix_acl_default absent");
        Commands.run("xfs_io", "-x", "-c", "chproj 100", copy.resolve(RichTree.PROJECT_99_FILE).toString());
        expected.add(RichTree.PROJECT_99_FILE + ": project_id: 99 != 100");
        Commands.run("xfs_io", "-x", "-c", "chattr -P", copy.resolve(RichTree.PROJECT_77_DIR).toString());
        expected.add(RichTree.PROJECT_77_DIR + ": projinherit: set != unset");
        Commands.run("xfs_io", "-c", "chattr +d", copy.resolve(RichTree.DEEP_FILE.replace("/l1/l2/l3/l4/leaf.txt", "")).toString());
        expected.add("deep: flags: none != nodump");
        Path link = copy.resolve(RichTree.SYMLINK_RELATIVE);
        Files.delete(link);
        Files.createSymbolicLink(link, Path.of("../empty"));
        restoreTimes(copy, RichTree.SYMLINK_RELATIVE);
        restoreTimes(copy, "symlinks");
        expected.add(RichTree.SYMLINK_RELATIVE + ": symlink_target: ../small.txt != ../empty");
        // A hard link split: a copy with all metadata renamed over one name.
        Path third = copy.resolve(RichTree.HARD_LINK_GROUP.get(2));
        Commands.run("cp", "-a", "--preserve=all", third.toString(), third + ".tmp");
        Commands.run("mv", third + ".tmp", third.toString());
        restoreTimes(copy, "links/three");
        expected.add(RichTree.HARD_LINK_GROUP.get(0) + ": hard_links: [links/one/hard-a, links/three/hard-c, links/two/hard-b]"
                + " != [links/one/hard-a, links/two/hard-b] [links/three/hard-c]");
        Path device = copy.resolve(RichTree.CHAR_DEVICE);
        run("rm", device);
        Commands.run("mknod", "-m", "0620", device.toString(), "c", "1", "5");
        restoreTimes(copy, RichTree.CHAR_DEVICE);
        restoreTimes(copy, "special");
        expected.add(RichTree.CHAR_DEVICE + ": device: 1:3 != 1:5");
        run("rm", "-r", copy.resolve("deep/l1"));
        restoreTimes(copy, "deep");
        expected.add("deep/l1: only_in_source: directory");
        // Byte names: a file turned into a directory, and a file only DST has.
        try (Fd root = Posix.open(PathBytes.of(copy.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY);
             Fd names = Posix.openBeneath(root, PathBytes.of("names"), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            byte[] name = PathBytes.name(RichTree.nonUtf8File());
            Posix.unlinkat(names, name, false);
            Posix.mkdirat(names, name, 0755);
            Posix.openat(names, new byte[]{'x', (byte) 0xfe, 'y'}, Linux.O_WRONLY | Linux.O_CREAT | Linux.O_EXCL, 0644).close();
        }
        restoreTimes(copy, RichTree.NEWLINE_NAME.substring(0, 5)); // "names"
        expected.add("names/f\\xffg: type: file != directory");
        expected.add("names/x\\xfey: only_in_destination: file, 0 bytes");
        return expected;
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static Path sparkDcpCopy() {
        Path copy = mount.dir().resolve("copy-" + ++copies);
        CommandLineRun run = CommandLineRun.of("copy", "--xattrs", "all", source.root() + "/", copy.toString());
        assertEquals(0, run.exitCode(), run.err());
        return copy;
    }

    private static void run(String command, String flag, Path path) {
        Commands.run(command, flag, path.toString());
    }

    private static void run(String command, Path path) {
        Commands.run(command, path.toString());
    }

    private static void restoreTimes(Path copy, String rel) {
        Commands.run("touch", "-h", "-r", source.resolve(rel).toString(), copy.resolve(rel).toString());
    }

    /** The "differs" lines compare printed on stderr, without the prefix. */
    private static List<String> differsLines(String err) {
        return err.lines().filter(l -> l.startsWith("spark-dcp: differs: "))
                .map(l -> l.substring("spark-dcp: differs: ".length())).collect(Collectors.toList());
    }

    private static long filesAndDirectories() {
        try (Fd root = Posix.open(PathBytes.of(source.root().toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            long n = 1; // the root
            for (byte[] rel : source.entries()) {
                FileType t = Posix.statAt(root, rel).type();
                if (t == FileType.FILE || t == FileType.DIRECTORY) n++;
            }
            return n;
        }
    }

    /** Bytes of the source's files, per name: --contents reads each on both sides. */
    private static long fileBytes() {
        try (Fd root = Posix.open(PathBytes.of(source.root().toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            long n = 0;
            for (byte[] rel : source.entries()) {
                Stat s = Posix.statAt(root, rel);
                if (s.type() == FileType.FILE) n += s.size();
            }
            return n;
        }
    }

    /** Sets every entry's atime to 1990 (mtimes kept), by name in its parent: nothing is read. */
    private static void ageAtimes(Path tree) {
        try (Fd root = Posix.open(PathBytes.of(tree.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            Stat r = Posix.fstat(root);
            Posix.futimens(root, 631152000L, 0, r.mtimeSec(), r.mtimeNsec());
            for (byte[] rel : source.entries()) {
                try (Fd parent = Posix.openBeneath(root, PathBytes.parent(rel), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
                    Stat s = Posix.statAt(parent, PathBytes.name(rel));
                    Posix.lutimensAt(parent, PathBytes.name(rel), 631152000L, 0, s.mtimeSec(), s.mtimeNsec());
                }
            }
        }
    }

    /**
     * ctime of every entry, and atime of every entry but symlinks (readlink moves a symlink's atime
     * and no flag prevents it), stat'ed by name: the snapshot itself reads no directory or file.
     */
    private static Map<String, String> inodeTimes(Path tree) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Fd root = Posix.open(PathBytes.of(tree.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            Stat r = Posix.fstat(root);
            out.put(tree + "/.", times(r));
            for (byte[] rel : source.entries()) {
                try (Fd parent = Posix.openBeneath(root, PathBytes.parent(rel), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
                    out.put(tree + "/" + PathBytes.display(rel), times(Posix.statAt(parent, PathBytes.name(rel))));
                }
            }
        }
        return out;
    }

    private static String times(Stat s) {
        String ctime = "ctime " + s.ctimeSec() + "." + s.ctimeNsec();
        return s.type() == FileType.SYMLINK ? ctime : ctime + ", atime " + s.atimeSec() + "." + s.atimeNsec();
    }
}
