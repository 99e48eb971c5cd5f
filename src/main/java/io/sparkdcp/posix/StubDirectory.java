package io.sparkdcp.posix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Where jffi writes the small library it loads libc's calls through (jnr-ffi's stub). By default
 * java.io.tmpdir, and failing that the current directory; where the first cannot be written or is
 * mounted noexec (a hardened /tmp), a private directory of the user's cache is given instead
 * ({@code jffi.extract.dir}), so that a copy neither fails for it nor leaves a file where the user stands.
 */
final class StubDirectory {
    static final String PROPERTY = "jffi.extract.dir";

    private StubDirectory() {}

    /** Before jffi's first use: java.io.tmpdir if it can hold the stub, else the cache's {@code native} directory. */
    static synchronized void choose() {
        if (System.getProperty(PROPERTY) != null) return;
        Path tmp = Path.of(System.getProperty("java.io.tmpdir", "/tmp"));
        if (canHoldLibraries(tmp)) return;
        Path cache = cacheDirectory();
        if (cache == null) return;
        Path own = cache.resolve("native");
        try {
            Files.createDirectories(own, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return; // jffi's own message then says what to set
        }
        if (canHoldLibraries(own)) System.setProperty(PROPERTY, own.toString());
    }

    /** The launcher's cache: SPARK_DCP_CACHE_DIR, else $XDG_CACHE_HOME/spark-dcp, else ~/.cache/spark-dcp. */
    static Path cacheDirectory() {
        String dir = System.getenv("SPARK_DCP_CACHE_DIR");
        if (dir != null && !dir.isEmpty()) return Path.of(dir);
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "spark-dcp");
        String home = System.getenv("HOME");
        return home == null || home.isEmpty() ? null : Path.of(home, ".cache", "spark-dcp");
    }

    /** A directory this user can write whose mount lets a library in it be mapped executable. */
    static boolean canHoldLibraries(Path dir) {
        try {
            return Files.isDirectory(dir) && Files.isWritable(dir) && !noexec(dir.toRealPath());
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /** Whether the mount holding {@code real} (the deepest mount point above it) is mounted noexec. */
    private static boolean noexec(Path real) throws IOException {
        String deepest = "";
        boolean noexec = false;
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" "); // id parent major:minor root mount-point options ...
            if (f.length < 6) continue;
            String point = f[4].replace("\\040", " ");
            boolean above = point.equals("/") || real.toString().equals(point) || real.toString().startsWith(point + "/");
            if (above && point.length() >= deepest.length()) {
                deepest = point;
                noexec = List.of(f[5].split(",")).contains("noexec");
            }
        }
        return noexec;
    }
}
