package io.sparkdcp.cli;

import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TimedProcess;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Progress as a copy's own JVM prints it counts what the summary counts: data bytes (a sparse file's holes
 * are not in the total), moving while a large file's chunk is written, and a last line with the summary's
 * entries and bytes. A tree of a sparse file of 64 MiB holding 1 MiB of data and a file of 5 MiB, in chunks
 * of 4 MiB, copied at 1 MiB/s: about 6 s.
 */
class ProgressCountsDataTest {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final int MIB = 1 << 20;
    private static final Pattern LINE = Pattern.compile(
            "progress: ([\\d,]+)/([\\d,]+) entries, ([^/]+)/([^,]+), [^,]+, [^,]+ entries/s, ETA (\\S+)");
    private static final Pattern BYTES_COPIED = Pattern.compile("bytes copied: [\\d,]+ \\(([^)]+)\\)");
    private static final Pattern ENTRIES_TOTAL = Pattern.compile("\n {2}total +([\\d,]+) +([\\d,]+)\n");

    /** One progress line's numbers, as shown. */
    private record Shown(long entries, long entriesTotal, String bytes, String bytesTotal, String eta) {
        static Shown of(String line) {
            Matcher m = LINE.matcher(line);
            assertTrue(m.find(), line);
            return new Shown(number(m.group(1)), number(m.group(2)), m.group(3), m.group(4), m.group(5));
        }
    }

    @Test
    void offATerminalTheBytesAreDataTheyMoveWithinAChunkAndTheLastLineIsTheSummarys() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("progress-data", 400)) {
            Path src = source(mount.dir());
            TimedProcess.Finished run = TimedProcess.run(new ProcessBuilder(copy(src, mount.dir().resolve("dst"), "--progress", "1")),
                    mount.dir().resolve("log"), 120);
            assertEquals(0, run.exitCode(), run.output());
            assertTrue(!run.output().contains("\r"), "no redrawing in a log");
            List<Shown> lines = run.output().lines().filter(l -> l.startsWith("spark-dcp: progress: ")).map(Shown::of).toList();
            assertTrue(lines.size() >= 4, "a line a second in a copy of about 6 s:\n" + run.output());
            for (Shown line : lines) assertEquals("6.0 MiB", line.bytesTotal(), "the total is the data, not the holes:\n" + run.output());

            List<String> during = new ArrayList<>();
            for (Shown line : lines) {
                if (!line.bytes().equals("0 B") && !line.bytes().equals("6.0 MiB") && !during.contains(line.bytes())) during.add(line.bytes());
            }
            assertTrue(during.size() >= 3, "the bytes move while the 4 MiB chunk is written, not at its end: " + during + "\n" + run.output());

            List<Long> etas = lines.subList(0, lines.size() - 1).stream().map(Shown::eta).filter(e -> !e.equals("unknown"))
                    .map(ProgressCountsDataTest::seconds).toList();
            for (int i = 1; i < etas.size(); i++)
                assertTrue(etas.get(i) <= etas.get(i - 1) + 1, "the time left does not climb while bytes flow: " + etas + "\n" + run.output());

            assertLastLineIsTheSummarys(lines.get(lines.size() - 1), run.output());
        }
    }

    /** On a terminal (a pty, through util-linux's script) the line left standing when the copy ends is the summary's too. */
    @Test
    void onATerminalTheLineLeftStandingIsTheSummarys() throws Exception {
        LoopMount.requireRootAndXfs();
        try (LoopMount mount = LoopMount.create("progress-data-pty", 400)) {
            Path src = source(mount.dir());
            String shell = String.join(" ", copy(src, mount.dir().resolve("dst")).stream().map(w -> "'" + w + "'").toList());
            TimedProcess.Finished run = TimedProcess.run(new ProcessBuilder("script", "-qefc", shell, "/dev/null"),
                    mount.dir().resolve("pty.log"), 120);
            assertEquals(0, run.exitCode(), run.output());
            String shown = run.output();
            int last = shown.lastIndexOf("\rprogress: ");
            assertTrue(last >= 0, shown);
            String standing = shown.substring(last + 1, shown.indexOf('\n', last)).replace(StatusLines.CLEAR_TO_END, "").strip();
            assertLastLineIsTheSummarys(Shown.of(standing), shown);
        }
    }

    /** Every entry done of every entry, and the summary's bytes copied done of as many. */
    private static void assertLastLineIsTheSummarys(Shown last, String output) {
        Matcher bytes = BYTES_COPIED.matcher(output);
        assertTrue(bytes.find(), output);
        Matcher entries = ENTRIES_TOTAL.matcher(output.replace("\r\n", "\n"));
        assertTrue(entries.find(), output);
        long handled = number(entries.group(1)) + number(entries.group(2));
        assertEquals(new Shown(handled, handled, bytes.group(1), bytes.group(1), "0:00:00"), last,
                "the last progress line counts what the summary counts:\n" + output);
    }

    /**
     * SRC with a sparse file (its length set first, then 1 MiB written inside it, so that no block is held
     * beyond the data) and a file of 5 MiB, both above the chunk size.
     */
    private static Path source(Path dir) throws IOException {
        Path src = Files.createDirectory(dir.resolve("src"));
        byte[] mebibyte = new byte[MIB];
        for (int i = 0; i < MIB; i++) mebibyte[i] = (byte) (i * 31 + 7);
        try (RandomAccessFile sparse = new RandomAccessFile(src.resolve("sparse").toFile(), "rw")) {
            sparse.setLength(64L * MIB);
            sparse.seek(16L * MIB);
            sparse.write(mebibyte);
            sparse.getFD().sync();
        }
        try (RandomAccessFile large = new RandomAccessFile(src.resolve("large").toFile(), "rw")) {
            for (int i = 0; i < 5; i++) large.write(mebibyte);
            large.getFD().sync();
        }
        return src;
    }

    private static List<String> copy(Path src, Path dst, String... options) {
        List<String> command = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "copy", "--bwlimit", "1M", "--chunk-size", "4M"));
        command.addAll(List.of(options));
        command.addAll(List.of(src + "/", dst.toString()));
        return command;
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    private static long seconds(String clock) {
        String[] parts = clock.split(":");
        return Long.parseLong(parts[0]) * 3600 + Long.parseLong(parts[1]) * 60 + Long.parseLong(parts[2]);
    }
}
