package io.sparkdcp.job;

import io.sparkdcp.posix.PathBytes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The two roots of a copy, checked before anything is written: the source is an existing
 * directory, the destination is not the source nor inside it, and is a directory if it exists.
 * Symlinks in the named roots are resolved, as cp -a SRC/. DST resolves them.
 */
public record Roots(Path source, Path destination, boolean destinationExists) {

    public static Roots check(String source, String destination) {
        Path src = Path.of(source).toAbsolutePath().normalize();
        if (!Files.exists(src)) throw new UsageException("source " + source + " does not exist");
        if (!Files.isDirectory(src)) throw new UsageException("source " + source + " is not a directory");
        Path realSrc = real(src, source);
        Path dst = Path.of(destination).toAbsolutePath().normalize();
        boolean exists = Files.exists(dst, LinkOption.NOFOLLOW_LINKS);
        if (exists && !Files.isDirectory(dst))
            throw new UsageException("destination " + destination + " exists and is not a directory");
        Path realDst = exists ? real(dst, destination) : realOfMissing(dst);
        if (realDst.equals(realSrc)) throw new UsageException("destination " + destination + " is the source itself");
        if (realDst.startsWith(realSrc))
            throw new UsageException("destination " + destination + " is inside the source " + source);
        return new Roots(realSrc, realDst, exists);
    }

    /** Creates the destination (and missing parents) when it does not exist yet. */
    public void createDestination() {
        if (destinationExists) return;
        try {
            Files.createDirectories(destination);
        } catch (IOException e) {
            throw new UsageException("cannot create destination " + destination + ": " + e.getMessage());
        }
    }

    public byte[] sourceBytes() { return PathBytes.of(source.toString()); }

    public byte[] destinationBytes() { return PathBytes.of(destination.toString()); }

    private static Path real(Path p, String named) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new UsageException("cannot resolve " + named + ": " + e.getMessage());
        }
    }

    /** The real path of the deepest existing ancestor, with the missing names after it. */
    private static Path realOfMissing(Path p) {
        Path existing = p;
        while (existing != null && !Files.exists(existing)) existing = existing.getParent();
        if (existing == null) return p;
        if (!Files.isDirectory(existing))
            throw new UsageException("cannot create destination " + p + ": " + existing + " is not a directory");
        return real(existing, existing.toString()).resolve(existing.relativize(p));
    }
}
