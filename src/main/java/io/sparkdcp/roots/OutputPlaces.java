package io.sparkdcp.roots;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.SmallFiles;
import io.sparkdcp.posix.Stat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Where a run writes besides DST (--state DIR, --log DIR, --report FILE), checked before anything is written,
 * symlinks included (one whose target is missing is refused, exit 2: nothing made through it):
 * outside every SRC and DST, decided by identity as the roots are ({@link Containment}), so the walk,
 * the copy and --delete never meet the log and the log's lines always tell the final tree; and, for
 * the log, writable, proved by a probe file made and removed where it goes (the report's own check,
 * {@code api.ReportFile}, probes beside it). A failure is a {@link UsageException}: one line naming
 * the option, the path and the reason.
 */
public final class OutputPlaces {
    private static final byte[] PROBE_NAME = PathBytes.of("probe");

    private OutputPlaces() {}

    /** --log DIR: a directory (made if missing) outside the trees, writable. */
    public static void checkDirectory(String option, byte[] dir, List<Roots> pairs) {
        String shown = PathBytes.display(dir);
        byte[] near = nearestDirectory(option, shown, absolute(dir));
        requireOutside(option, shown, near, absolute(dir), pairs);
        try {
            SmallFiles.probe(PathBytes.join(near, PROBE_NAME));
        } catch (PosixException e) {
            throw new UsageException(option + " " + shown + " cannot be written (" + PathBytes.display(near) + "): " + e.reason());
        }
    }

    /** --report FILE: outside the trees, and not locked (it is renamed over). */
    public static void checkFile(String option, byte[] file, List<Roots> pairs) {
        String shown = PathBytes.display(file);
        byte[] absolute = absolute(file);
        nearestDirectory(option, shown, parentOf(absolute));
        requireOutside(option, shown, parentOf(absolute), absolute, pairs);
        Stat there = stat(option, shown, absolute, false);
        if (there != null && there.type() == FileType.SYMLINK) there = followed(option, shown, absolute, true);
        if (there != null && there.type() == FileType.DIRECTORY) throw new UsageException(option + " " + shown + " is a directory");
        if (there != null && there.locks() != 0)
            throw new UsageException(option + " " + shown + " cannot be written: it is immutable or append-only");
    }

    /**
     * The path itself when it is a directory, else the deepest existing directory above it (where it would be made),
     * found without following a symlink first: a symlink there whose target is missing (or loops) is refused, since
     * making the path through it would fail after the copy.
     */
    private static byte[] nearestDirectory(String option, String shown, byte[] absolute) {
        byte[] p = absolute;
        Stat s;
        while ((s = stat(option, shown, p, false)) == null && p.length > 1) p = parentOf(p);
        if (s != null && s.type() == FileType.SYMLINK) s = followed(option, shown, p, p == absolute);
        if (s == null || s.type() != FileType.DIRECTORY)
            throw new UsageException(option + " " + shown + (p == absolute ? " is not a directory" : ": " + PathBytes.display(p) + " is not a directory"));
        return p;
    }

    /** What the symlink at p leads to; refused when that is missing. */
    private static Stat followed(String option, String shown, byte[] p, boolean itself) {
        Stat target = stat(option, shown, p, true);
        if (target == null)
            throw new UsageException(option + " " + shown + (itself ? " is" : ": " + PathBytes.display(p) + " is")
                    + " a symlink whose target does not exist: refused before anything is written; make its target, or name another path");
        return target;
    }

    /** stat or lstat of p, null when missing; a path that cannot be looked at (a loop, no permission) is refused. */
    private static Stat stat(String option, String shown, byte[] p, boolean follow) {
        try {
            return Posix.statIfExists(p, follow);
        } catch (PosixException e) {
            throw new UsageException(option + " " + shown + ": cannot use " + PathBytes.display(p) + ": " + e.reason());
        }
    }

    /**
     * Refused inside any pair's SRC or DST (a file as SRC is one entry, and nothing beside it is walked
     * or deleted): by identity from the nearest existing directory, and by the real path for a DST
     * that does not exist yet.
     */
    private static void requireOutside(String option, String shown, byte[] near, byte[] absolute, List<Roots> pairs) {
        MountTable mounts = MountTable.read();
        byte[] real = realOf(near, absolute);
        try (Fd dir = Posix.open(near, Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            for (Roots r : pairs) {
                if (r.file() != null) continue;
                if (Containment.inside(dir, r.sourceId(), mounts))
                    throw new UsageException(option + " " + shown + " is inside the source " + PathBytes.display(r.source())
                            + ": refused, the walk would list it; put it outside SRC and DST");
                boolean inDestination = beneath(real, r.destination())
                        || (r.destinationId() != null && Containment.inside(dir, r.destinationId(), mounts));
                if (inDestination)
                    throw new UsageException(option + " " + shown + " is inside the destination " + PathBytes.display(r.destination())
                            + ": refused, the copy and --delete would meet it; put it outside SRC and DST");
            }
        } catch (PosixException e) {
            throw new UsageException(option + " " + shown + ": cannot open " + PathBytes.display(near) + ": " + e.reason());
        }
    }

    /** The directory above an absolute path ("/" at the top). */
    private static byte[] parentOf(byte[] absolute) {
        int slash = absolute.length - PathBytes.name(absolute).length - 1;
        return slash <= 0 ? PathBytes.of("/") : Arrays.copyOf(absolute, slash);
    }

    private static byte[] absolute(byte[] path) {
        if (path.length > 0 && path[0] == '/') return path;
        return PathBytes.join(PathBytes.of(System.getProperty("user.dir")), path);
    }

    /** absolute with the symlinks of its existing part (near) resolved; as given where that cannot be told. */
    private static byte[] realOf(byte[] near, byte[] absolute) {
        try {
            byte[] realNear = PathBytes.of(Path.of(PathBytes.display(near)).toRealPath().toString());
            byte[] rest = Arrays.copyOfRange(absolute, Math.min(absolute.length, near.length), absolute.length);
            return rest.length == 0 ? realNear : PathBytes.join(realNear, rest[0] == '/' ? Arrays.copyOfRange(rest, 1, rest.length) : rest);
        } catch (IOException | RuntimeException e) {
            return absolute;
        }
    }

    /** Whether path is dir or lies below it, by name. */
    private static boolean beneath(byte[] path, byte[] dir) {
        if (path.length < dir.length || !Arrays.equals(path, 0, dir.length, dir, 0, dir.length)) return false;
        return path.length == dir.length || path[dir.length] == '/' || (dir.length == 1 && dir[0] == '/');
    }
}
