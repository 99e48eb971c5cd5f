package io.sparkdcp.job;

import io.sparkdcp.copy.RootFile;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

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
 * <p>A source that is not a directory (a file, or a symlink, copied as the link as rsync -a does) is a
 * {@link RootFile}: the roots are then the directory holding it and the directory its copy goes into,
 * both checked and pinned the same way, and the source is opened there by name without following it.
 *
 * @param destinationId null while the destination does not exist (it is pinned when the job creates it)
 * @param file          the one entry copied when the source is not a directory; null when the roots are the trees
 */
public record Roots(Path source, Path destination, boolean destinationExists, DirectoryIdentity sourceId,
                    DirectoryIdentity destinationId, RootFile file) {

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
                return new Roots(realSrc, realDst, exists, srcId, exists ? dstId : null, null);
            }
        }
    }

    /**
     * A source that is not a directory, copied to {@code target} (DST itself, or a name in it): the
     * directories holding each are the roots. Refused when the target is the source's own inode.
     */
    public static Roots checkFile(String source, String target) {
        Path src = Path.of(source).toAbsolutePath().normalize();
        Path dst = Path.of(target).toAbsolutePath().normalize();
        if (dst.getParent() == null) throw new UsageException("destination " + target + " cannot become the file " + source);
        Path realParent = real(src.getParent(), source);
        Path parent = dst.getParent();
        boolean exists = Files.exists(parent, LinkOption.NOFOLLOW_LINKS);
        if (exists && !Files.isDirectory(parent))
            throw new UsageException("destination " + parent + " exists and is not a directory");
        Path realDst = exists ? real(parent, parent.toString()) : realOfMissing(parent);
        RootFile file = new RootFile(PathBytes.of(src.getFileName().toString()), PathBytes.of(dst.getFileName().toString()));
        try (Fd s = open(realParent, source)) {
            DirectoryIdentity srcId = Posix.identity(s);
            Stat stat = Posix.statAtIfExists(s, file.sourceName());
            if (stat == null) throw new UsageException("source " + source + " does not exist");
            if (stat.type() == FileType.DIRECTORY) throw new UsageException("source " + source + " became a directory; run again");
            if (!exists) return new Roots(realParent, realDst, false, srcId, null, file);
            try (Fd d = open(realDst, target)) {
                Stat there = Posix.statAtIfExists(d, file.destinationName());
                if (there != null && there.dev() == stat.dev() && there.ino() == stat.ino())
                    throw new UsageException("destination " + target + " is the source " + source + " itself");
                // /dev/null as a careless sink: rsync would replace the machine's device by a file, cp write into it.
                // A device copied onto a device of its kind (a re-run, say) is a copy like any other.
                if (there != null && (there.type() == FileType.CHAR_DEVICE || there.type() == FileType.BLOCK_DEVICE)
                        && there.type() != stat.type())
                    throw new UsageException("destination " + target + " is a " + (there.type() == FileType.CHAR_DEVICE ? "character" : "block")
                            + " device: a copy does not replace a device named as its destination (nothing was written; "
                            + "remove it first to replace it)");
                return new Roots(realParent, realDst, true, srcId, Posix.identity(d), file);
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
        DestinationLock.checkBeforeCreating(deepestExisting(destination), PathBytes.of(destination.toString()));
        try {
            Files.createDirectories(destination);
        } catch (IOException e) {
            throw new UsageException("cannot create destination " + destination + ": " + e.getMessage());
        }
    }

    public byte[] sourceBytes() { return PathBytes.of(source.toString()); }

    /** What the source maps to: the destination root, or the file's place in it. */
    public Path target() { return file == null ? destination : destination.resolve(PathBytes.display(file.destinationName())); }

    /** The source as named (symlinks above it resolved): the root, or the file in it. */
    public Path named() { return file == null ? source : source.resolve(PathBytes.display(file.sourceName())); }

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
