package io.sparkdcp.bench.scale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Empties the page, dentry and inode caches (root only), so a walk pays for its metadata reads as a first walk does. */
final class DropCaches {
    private static final Path CONTROL = Path.of("/proc/sys/vm/drop_caches");

    private DropCaches() {}

    static boolean possible() {
        return Files.isWritable(CONTROL);
    }

    static void now() {
        try {
            new ProcessBuilder("sync").inheritIO().start().waitFor();
            Files.writeString(CONTROL, "3");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot drop caches: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while dropping caches", e);
        }
    }
}
