package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.StepStats;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.walk.Entry;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Copies the files of SRC into DST1, then into DST2 on the same thread, and prints the bytes that
 * second copy allocated per file (the first loads and compiles the code). Args: SRC DST1 DST2.
 */
public final class AllocationPerFileMain {
    private AllocationPerFileMain() {}

    public static void main(String[] args) throws IOException {
        byte[] src = PathBytes.of(args[0]);
        List<Entry> files;
        try (Stream<Path> names = Files.list(Path.of(args[0]))) {
            files = names.map(p -> PathBytes.of(p.getFileName().toString())).sorted(PathBytes::compare)
                    .map(name -> new Entry(name, Posix.lstat(PathBytes.join(src, name)), null)).toList();
        }
        copy(src, args[1], files);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        copy(src, args[2], files);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        System.out.println(allocated / files.size());
    }

    private static void copy(byte[] src, String dst, List<Entry> files) {
        CopyOptions options = CopyOptions.between(src, PathBytes.of(dst), LocalCopy.EVERYTHING, CopyModes.COPY, 1 << 20);
        try (CopyEngine engine = new CopyEngine(options, new StepStats())) {
            BatchResult result = engine.copyFiles(files, List.of());
            if (!result.counts().failures().isEmpty()) throw new IllegalStateException(result.counts().failures().toString());
        }
    }
}
