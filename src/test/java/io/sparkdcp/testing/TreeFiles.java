package io.sparkdcp.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Trees of many plain files for tests that need a copy to take a while, and what a tree holds. */
public final class TreeFiles {
    private TreeFiles() {}

    /** directories × filesPerDirectory files of size bytes in root ("d3/f17"), each with different first bytes. */
    public static void buildMany(Path root, int directories, int filesPerDirectory, int size) throws IOException {
        byte[] data = new byte[size];
        for (int d = 0; d < directories; d++) {
            Path dir = Files.createDirectories(root.resolve("d" + d));
            for (int f = 0; f < filesPerDirectory; f++) {
                data[0] = (byte) d;
                data[1] = (byte) f;
                Files.write(dir.resolve("f" + f), data);
            }
        }
    }

    /** The names in dir, sorted. */
    public static List<String> names(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path under dir, dir included, sorted. */
    public static List<Path> everything(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The regular files under dir; none when dir does not exist (yet). Looks again when a copy running meanwhile renames one away. */
    public static List<Path> regularFiles(Path dir) {
        for (int attempt = 0; ; attempt++) {
            if (!Files.isDirectory(dir)) return List.of();
            try {
                return everything(dir).stream().filter(Files::isRegularFile).toList();
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException) || attempt == 100) throw e;
            }
        }
    }
}
