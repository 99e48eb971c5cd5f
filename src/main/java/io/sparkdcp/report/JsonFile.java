package io.sparkdcp.report;

import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.SmallFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A report's file, named by bytes (a --report name need not be UTF-8): written next to its final
 * name, then renamed over it, so a reader (or a crash) never sees half a report, and an older report
 * stays whole until the new one is complete. Created with the umask's mode, as any file.
 */
public final class JsonFile {
    private JsonFile() {}

    public static void write(byte[] file, String json) throws IOException {
        try {
            SmallFiles.replace(file, json.getBytes(StandardCharsets.UTF_8));
        } catch (PosixException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    public static void write(Path file, String json) throws IOException {
        write(PathBytes.of(file.toAbsolutePath().toString()), json);
    }
}
