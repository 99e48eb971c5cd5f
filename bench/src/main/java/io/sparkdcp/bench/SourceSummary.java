package io.sparkdcp.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * What the benchmarked tree holds: rates are per entry of the source, the same for every contender.
 *
 * @param files every entry that is not a directory
 * @param dirs  directories, the root included
 * @param bytes bytes of regular files
 */
public record SourceSummary(long files, long dirs, long bytes) {

    public static SourceSummary of(Path root) {
        long[] n = new long[3];
        try (Stream<Path> all = Files.walk(root)) {
            all.forEach(p -> {
                BasicFileAttributes a = attributes(p);
                if (a.isDirectory()) n[1]++;
                else n[0]++;
                if (a.isRegularFile()) n[2] += a.size();
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        return new SourceSummary(n[0], n[1], n[2]);
    }

    private static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
