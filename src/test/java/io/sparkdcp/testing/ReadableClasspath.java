package io.sparkdcp.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * This JVM's classpath copied where any user can read it, for tests that run a copy as an
 * unprivileged user (Maven's repository sits under /root, mode 0700). Expands the manifest-only
 * jar Surefire starts tests with.
 */
public final class ReadableClasspath {
    private ReadableClasspath() {}

    public static String copyTo(Path dir) {
        try {
            Files.createDirectories(dir);
            List<String> out = new ArrayList<>();
            int n = 0;
            for (Path entry : entries()) {
                Path target = dir.resolve((n++) + "-" + entry.getFileName());
                if (Files.isDirectory(entry)) copyTree(entry, target);
                else Files.copy(entry, target, StandardCopyOption.REPLACE_EXISTING);
                out.add(target.toString());
            }
            Commands.run("chmod", "-R", "a+rX", dir.toString());
            return String.join(":", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This JVM's classpath entries, the manifest-only jar expanded (JUnit and Surefire left out). */
    public static List<Path> entries() throws IOException {
        return entries(false);
    }

    /** The same with JUnit's jars kept: Hadoop's mini clusters use JUnit 4's Assert. */
    public static List<Path> entriesWithJunit() throws IOException {
        return entries(true);
    }

    private static List<Path> entries(boolean keepJunit) throws IOException {
        List<Path> entries = new ArrayList<>();
        for (String s : System.getProperty("java.class.path").split(":")) {
            Path p = Path.of(s);
            if (!Files.exists(p)) continue;
            String manifestPath = Files.isRegularFile(p) ? manifestClassPath(p) : null;
            if (manifestPath == null) {
                entries.add(p);
                continue;
            }
            for (String url : manifestPath.trim().split("\\s+")) {
                Path q = Path.of(java.net.URI.create(url.startsWith("file:") ? url : p.getParent().toUri().resolve(url).toString()));
                if (Files.exists(q) && (keepJunit || !q.toString().contains("junit")) && !q.toString().contains("surefire")) entries.add(q);
            }
        }
        return entries;
    }

    private static String manifestClassPath(Path jar) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            var m = j.getManifest();
            return m == null ? null : m.getMainAttributes().getValue("Class-Path");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
