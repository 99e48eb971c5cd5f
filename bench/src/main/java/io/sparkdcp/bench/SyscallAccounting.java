package io.sparkdcp.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs each contender's copy once more under strace, as a process of its own, and once on an
 * empty tree; the difference divided by the source's files is what a file costs.
 */
public final class SyscallAccounting {
    private SyscallAccounting() {}

    public static boolean available() {
        return CommandContender.installed("strace");
    }

    /**
     * @param scratch      where the traced copies and logs go (seen through the latency mount, if any)
     * @param scratchBelow the same directory without the latency mount, for deleting
     */
    public static Map<String, SyscallCount> count(List<Contender> contenders, Path source, long files, Path scratch,
                                                  Path scratchBelow) throws IOException, InterruptedException {
        Path empty = Files.createDirectory(scratchBelow.resolve("bench-strace-empty-src"));
        try {
            Map<String, SyscallCount> out = new LinkedHashMap<>();
            for (int i = 0; i < contenders.size(); i++) {
                Contender c = contenders.get(i);
                StraceLog.Counts base = traced(c, scratch.resolve(empty.getFileName()), scratch, scratchBelow, "bench-strace-" + i + "-empty");
                StraceLog.Counts tree = traced(c, source, scratch, scratchBelow, "bench-strace-" + i);
                StraceLog.Counts d = tree.minus(base);
                out.put(c.name(), new SyscallCount((double) d.fileCalls() / files, (double) d.pathLookups() / files));
            }
            return out;
        } finally {
            Files.deleteIfExists(empty);
        }
    }

    private static StraceLog.Counts traced(Contender c, Path source, Path scratch, Path scratchBelow, String name)
            throws IOException, InterruptedException {
        Path log = scratchBelow.resolve(name + ".strace");
        List<String> argv = new ArrayList<>(List.of("strace", "-f", "-qq", "-o", log.toString()));
        argv.addAll(c.commandLine(source, scratch.resolve(name)));
        try {
            int exit = Processes.run(argv);
            if (exit != 0) throw new IOException(c.name() + " under strace exited with " + exit);
            return StraceLog.count(Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(log);
            Processes.runOrThrow(List.of("rm", "-rf", "--", scratchBelow.resolve(name).toString()));
        }
    }
}
