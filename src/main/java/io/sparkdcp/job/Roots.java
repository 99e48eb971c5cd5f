package io.sparkdcp.job;

import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The two roots of a copy, resolved once and checked before anything is written: neither is empty,
 * the source is an existing directory, the destination is a directory if it exists, and neither lies
 * inside the other — decided by identity ({@link Containment}), so symlinks and bind mounts cannot
 * hide it. Symlinks in the named roots are resolved, as cp -a SRC/. DST resolves them; from then on
 * the real paths are opened without following symlinks and checked against the identities found here.
 *
 * <p>SRC inside DST is refused for every command, not only {@code sync --delete}: the copy would write
 * into SRC whenever SRC has an entry named like the path from DST down to SRC, and --delete would
 * remove SRC. (rsync allows {@code rsync -a t/sub/ t/}; spark-dcp takes the safe side.)
 *
 * @param destinationId null while the destination does not exist (it is pinned when the job creates it)
 */
public record Roots(Path source, Path destination, boolean destinationExists, DirectoryIdentity sourceId,
                    DirectoryIdentity destinationId) {

    public static Roots check(String source, String destination) {
        if (source == null || source.isEmpty()) throw new UsageException("source must not be empty (an empty SRC is not the current directory)");
        if (destination == null || destination.isEmpty())
            throw new UsageException("destination must not be empty (an empty DST is not the current directory)");
        Path src = Path.of(source).toAbsolutePath().normalize();
        if (!Files.exists(src)) throw new UsageException("source " + source + " does not exist");
        if (!Files.isDirectory(src)) throw new UsageException("source " + source + " is not a directory");
        Path realSrc = real(src, source);
        Path dst = Path.of(destination).toAbsolutePath().normalize();
        boolean exists = Files.exists(dst, LinkOption.NOFOLLOW_LINKS);
        if (exists && !Files.isDirectory(dst))
            throw new UsageException("destination " + destination + " exists and is not a directory");
        Path realDst = exists ? real(dst, destination) : realOfMissing(dst);
        MountTable mounts = MountTable.read();
        try (Fd s = open(realSrc, source)) {
            DirectoryIdentity srcId = Posix.identity(s);
            // DST, or the deepest directory that exists on its way: DST will be made there.
            Path existing = exists ? realDst : deepestExisting(realDst);
            try (Fd d = open(existing, destination)) {
                DirectoryIdentity dstId = Posix.identity(d);
                if (exists && dstId.sameInode(srcId)) throw new UsageException("destination " + destination + " is the source itself");
                if (Containment.inside(d, srcId, mounts))
                    throw new UsageException("destination " + destination + " is inside the source " + source
                            + (realDst.startsWith(realSrc) ? "" : " (through a bind mount)"));
                String through = mountShowing(d, realSrc, mounts);
                if (through != null)
                    throw new UsageException("destination " + destination + " is inside the source " + source
                            + " (through the mount at " + through + ")");
                if (exists && (Containment.inside(s, dstId, mounts) || mountShowing(s, realDst, mounts) != null))
                    throw new UsageException("source " + source + " is inside the destination " + destination
                            + ": refused, the copy would write into SRC (and --delete remove it); copy into a directory beside SRC");
                return new Roots(realSrc, realDst, exists, srcId, exists ? dstId : null);
            }
        }
    }

    /**
     * A walk of {@code tree} enters the mounts below it: the mount point below tree whose directory
     * holds {@code dir} (a bind mount of DST's parent inside SRC, say), or null.
     */
    private static String mountShowing(Fd dir, Path tree, MountTable mounts) {
        for (String below : mounts.mountPointsBelow(tree.toString())) {
            Path mountPoint = tree.resolve(below);
            try (Fd m = Posix.openNoSymlinks(PathBytes.of(mountPoint.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
                if (Containment.inside(dir, Posix.identity(m), mounts)) return mountPoint.toString();
            } catch (PosixException e) {
                // covered by another mount, or not a directory: no walk goes through it
            }
        }
        return null;
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

    private static Fd open(Path realPath, String named) {
        try {
            return Posix.openNoSymlinks(PathBytes.of(realPath.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY);
        } catch (PosixException e) {
            throw new UsageException("cannot open " + named + " (" + realPath + "): " + e.reason());
        }
    }

    private static Path real(Path p, String named) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new UsageException("cannot resolve " + named + ": " + e.getMessage());
        }
    }

    private static Path deepestExisting(Path p) {
        Path existing = p;
        while (existing.getParent() != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) existing = existing.getParent();
        return existing;
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
