package io.sparkdcp.bench.scale;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Runs {@code find DIR} and counts the lines it prints: one single-threaded walk, the baseline.
 * Plain find needs no stat (names and d_type come from getdents); {@code -printf '%s'} makes it
 * stat every entry, as a copy's listing must.
 */
final class FindCount {
    private FindCount() {}

    static long count(Path dir, boolean stat) {
        try {
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("find", dir.toString()));
            if (stat) command.addAll(java.util.List.of("-printf", "%s\n"));
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            long lines = 0;
            byte[] buf = new byte[1 << 16];
            try (InputStream in = p.getInputStream()) {
                for (int n; (n = in.read(buf)) > 0; ) for (int i = 0; i < n; i++) if (buf[i] == '\n') lines++;
            }
            if (p.waitFor() != 0) throw new IllegalStateException("find " + dir + " exited with " + p.exitValue());
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run find: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
