package io.sparkdcp.roots;

import io.sparkdcp.copy.options.RootFile;
import io.sparkdcp.posix.DirectoryIdentity;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

import java.util.List;

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
 * <p>Roots are bytes from the command line to the open calls ({@link RootPaths}): a SRC or DST that is not UTF-8
 * is resolved and opened as it was given, and shown with {@code \xNN} for the bytes that are not.
 *
 * @param source        the source directory's real path
 * @param destination   the destination directory's real path (of its deepest existing directory, then the missing names)
 * @param destinationId null while the destination does not exist (it is pinned when the job creates it)
 * @param file          the one entry copied when the source is not a directory; null when the roots are the trees
 */
public record Roots(byte[] source, byte[] destination, boolean destinationExists, DirectoryIdentity sourceId,
                    DirectoryIdentity destinationId, RootFile file) {

    public static Roots check(String source, String destination) {
        return check(PathBytes.of(source), PathBytes.of(destination));
    }

    public static Roots check(byte[] source, byte[] destination) {
        if (source == null || source.length == 0) throw new UsageException("source must not be empty (an empty SRC is not the current directory)");
        if (destination == null || destination.length == 0)
            throw new UsageException("destination must not be empty (an empty DST is not the current directory)");
        String srcShown = PathBytes.display(source);
        String dstShown = PathBytes.display(destination);
        byte[] src = RootPaths.absolute(source);
        if (RootPaths.stat(src, true, source) == null) throw new UsageException("source " + srcShown + " does not exist");
        if (!RootPaths.isDirectory(src, source)) throw new UsageException("source " + srcShown + " is not a directory");
        byte[] realSrc = RootPaths.real(src, source);
        byte[] dst = RootPaths.absolute(destination);
        boolean exists = RootPaths.exists(dst, destination);
        if (exists && !RootPaths.isDirectory(dst, destination))
            throw new UsageException("destination " + dstShown + " exists and is not a directory");
        byte[] realDst = exists ? RootPaths.real(dst, destination) : realOfMissing(dst, destination);
        MountTable mounts = MountTable.read();
        try (Fd s = open(realSrc, source)) {
            DirectoryIdentity srcId = Posix.identity(s);
            // DST, or the deepest directory that exists on its way: DST will be made there.
            byte[] existing = exists ? realDst : deepestExisting(realDst, destination);
            try (Fd d = open(existing, destination)) {
                DirectoryIdentity dstId = Posix.identity(d);
                if (exists && dstId.sameInode(srcId)) throw new UsageException("destination " + dstShown + " is the source itself");
                // The mount below SRC that shows DST first: it names the way in more exactly than "a bind mount".
                String through = RootPaths.below(realDst, realSrc) ? null : mountShowing(d, realSrc, mounts);
                if (through != null)
                    throw new UsageException("destination " + dstShown + " is inside the source " + srcShown
                            + " (through the mount at " + through + ")");
                if (Containment.inside(d, srcId, mounts))
                    throw new UsageException("destination " + dstShown + " is inside the source " + srcShown
                            + (RootPaths.below(realDst, realSrc) ? "" : " (through a bind mount)"));
                if (exists && (Containment.inside(s, dstId, mounts) || mountShowing(s, realDst, mounts) != null))
                    throw new UsageException("source " + srcShown + " is inside the destination " + dstShown
                            + ": refused, the copy would write into SRC (and --delete remove it); copy into a directory beside SRC");
                return new Roots(realSrc, realDst, exists, srcId, exists ? dstId : null, null);
            }
        }
    }

    /**
     * A source that is not a directory, copied to {@code target} (DST itself, or a name in it): the
     * directories holding each are the roots. Refused when the target is the source's own inode.
     */
    public static Roots checkFile(byte[] source, byte[] target) {
        String srcShown = PathBytes.display(source);
        String targetShown = PathBytes.display(target);
        byte[] src = RootPaths.absolute(source);
        byte[] dst = RootPaths.absolute(target);
        byte[] parent = RootPaths.parent(dst);
        if (parent == null) throw new UsageException("destination " + targetShown + " cannot become the file " + srcShown);
        byte[] realParent = RootPaths.real(RootPaths.parent(src), source);
        boolean exists = RootPaths.exists(parent, parent);
        if (exists && !RootPaths.isDirectory(parent, parent))
            throw new UsageException("destination " + PathBytes.display(parent) + " exists and is not a directory");
        byte[] realDst = exists ? RootPaths.real(parent, parent) : realOfMissing(parent, parent);
        RootFile file = new RootFile(RootPaths.name(src), RootPaths.name(dst));
        try (Fd s = open(realParent, source)) {
            DirectoryIdentity srcId = Posix.identity(s);
            Stat stat = Posix.statAtIfExists(s, file.sourceName());
            if (stat == null) throw new UsageException("source " + srcShown + " does not exist");
            if (stat.type() == FileType.DIRECTORY) throw new UsageException("source " + srcShown + " became a directory; run again");
            if (!exists) return new Roots(realParent, realDst, false, srcId, null, file);
            try (Fd d = open(realDst, target)) {
                Stat there = Posix.statAtIfExists(d, file.destinationName());
                if (there != null && there.dev() == stat.dev() && there.ino() == stat.ino())
                    throw new UsageException("destination " + targetShown + " is the source " + srcShown + " itself");
                // /dev/null as a careless sink: rsync would replace the machine's device by a file, cp write into it.
                // A device copied onto a device of its kind (a re-run, say) is a copy like any other.
                if (there != null && (there.type() == FileType.CHAR_DEVICE || there.type() == FileType.BLOCK_DEVICE)
                        && there.type() != stat.type())
                    throw new UsageException("destination " + targetShown + " is a " + (there.type() == FileType.CHAR_DEVICE ? "character" : "block")
                            + " device: a copy does not replace a device named as its destination (nothing was written; "
                            + "remove it first to replace it)");
                return new Roots(realParent, realDst, true, srcId, Posix.identity(d), file);
            }
        }
    }

    /**
     * A walk of {@code tree} enters the mounts below it: the mount point below tree whose directory
     * holds {@code dir} (a bind mount of DST's parent inside SRC, say), or null. The mount table holds
     * UTF-8 mount points only (it is read as UTF-8), so none lies below a tree whose path is not.
     */
    private static String mountShowing(Fd dir, byte[] tree, MountTable mounts) {
        String treeName = RootPaths.utf8(tree);
        if (treeName == null) return null;
        List<String> below = mounts.mountPointsBelow(treeName);
        for (String name : below) {
            byte[] mountPoint = RootPaths.child(tree, PathBytes.of(name));
            try (Fd m = Posix.openNoSymlinks(mountPoint, Linux.O_RDONLY | Linux.O_DIRECTORY)) {
                if (Containment.inside(dir, Posix.identity(m), mounts)) return PathBytes.display(mountPoint);
            } catch (PosixException e) {
                // covered by another mount, or not a directory: no walk goes through it
            }
        }
        return null;
    }

    /** Creates the destination (and missing parents) when it does not exist yet. */
    public void createDestination() {
        if (destinationExists) return;
        DestinationLock.checkBeforeCreating(deepestExisting(destination, destination), destination);
        RootPaths.createDirectories(destination, destination);
    }

    public byte[] sourceBytes() { return source; }

    /** What the source maps to: the destination root, or the file's place in it. */
    public byte[] target() { return file == null ? destination : RootPaths.child(destination, file.destinationName()); }

    /** The source as named (symlinks above it resolved): the root, or the file in it. */
    public byte[] named() { return file == null ? source : RootPaths.child(source, file.sourceName()); }

    public byte[] destinationBytes() { return destination; }

    /** The last name of the destination root: for a directory source, its name in DST. */
    public byte[] destinationName() { return RootPaths.name(destination); }

    private static Fd open(byte[] realPath, byte[] named) {
        try {
            return Posix.openNoSymlinks(realPath, Linux.O_RDONLY | Linux.O_DIRECTORY);
        } catch (PosixException e) {
            throw new UsageException("cannot open " + PathBytes.display(named) + " (" + PathBytes.display(realPath) + "): " + e.reason());
        }
    }

    private static byte[] deepestExisting(byte[] p, byte[] named) {
        byte[] existing = p;
        while (RootPaths.parent(existing) != null && !RootPaths.exists(existing, named)) existing = RootPaths.parent(existing);
        return existing;
    }

    /** The real path of the deepest existing ancestor, with the missing names after it. */
    private static byte[] realOfMissing(byte[] p, byte[] named) {
        byte[] existing = p;
        while (existing != null && RootPaths.stat(existing, true, named) == null) existing = RootPaths.parent(existing);
        if (existing == null) return p;
        if (!RootPaths.isDirectory(existing, named))
            throw new UsageException("cannot create destination " + PathBytes.display(p) + ": " + PathBytes.display(existing)
                    + " is not a directory");
        byte[] real = RootPaths.real(existing, existing);
        return existing.length == p.length ? real : RootPaths.child(real, RootPaths.relative(p, existing));
    }
}
