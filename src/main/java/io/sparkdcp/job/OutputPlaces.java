package io.sparkdcp.job;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;

/**
 * Where a run writes besides DST (--log DIR, --report FILE), checked before anything is written:
 * outside every SRC and DST, decided by identity as the roots are ({@link Containment}), so the walk,
 * the copy and --delete never meet the log and the log's lines always tell the final tree; and
 * writable, proved by a probe file created, written and removed where the output will go. A
 * failure is a {@link UsageException}: one line naming the option, the path and the reason.
 */
public final class OutputPlaces {
    private static final String PROBE = ".spark-dcp-probe-";

    private OutputPlaces() {}

    /** --log DIR: a directory (made if missing) outside the trees, writable. */
    public static void checkDirectory(String option, Path dir, List<Roots> pairs) {
        Path absolute = dir.toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute))
            throw new UsageException(option + " " + dir + " is not a directory");
        Path near = nearestDirectory(option, dir, absolute);
        requireOutside(option, dir, near, realOf(near).resolve(near.relativize(absolute)), pairs);
        probe(option, dir, near);
    }

    /** --report FILE: a file (replaced if there) outside the trees, in a writable directory. */
    public static void checkFile(String option, Path file, List<Roots> pairs) {
        Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) throw new UsageException(option + " " + file + " is a directory");
        Path parent = absolute.getParent();
        if (parent == null || !Files.isDirectory(parent)) throw new UsageException(option + " " + file + ": its directory does not exist");
        requireOutside(option, file, parent, realOf(parent).resolve(absolute.getFileName()), pairs);
        probe(option, file, parent);
        // The report is renamed over an earlier one, which a lock keeps.
        if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS) && Posix.lstat(PathBytes.of(absolute.toString())).locks() != 0)
            throw new UsageException(option + " " + file + " cannot be written: it is immutable or append-only");
    }

    /** The path itself when it is a directory, else the deepest existing directory above it (where it would be made). */
    private static Path nearestDirectory(String option, Path named, Path absolute) {
        Path p = absolute;
        while (!Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p)) p = p.getParent();
        if (!Files.isDirectory(p)) throw new UsageException(option + " " + named + ": " + p + " is not a directory");
        return p;
    }

    /**
     * Refused inside any pair's SRC or DST (a file as SRC is one entry, and nothing beside it is walked
     * or deleted). real: the output's path with the symlinks of its existing part resolved, for a DST
     * that does not exist yet.
     */
    private static void requireOutside(String option, Path named, Path near, Path real, List<Roots> pairs) {
        MountTable mounts = MountTable.read();
        try (Fd dir = Posix.open(PathBytes.of(near.toString()), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            for (Roots r : pairs) {
                if (r.file() != null) continue;
                if (Containment.inside(dir, r.sourceId(), mounts))
                    throw new UsageException(option + " " + named + " is inside the source " + r.source()
                            + ": refused, the walk would list it; put it outside SRC and DST");
                boolean inDestination = real.startsWith(r.destination())
                        || (r.destinationId() != null && Containment.inside(dir, r.destinationId(), mounts));
                if (inDestination)
                    throw new UsageException(option + " " + named + " is inside the destination " + r.destination()
                            + ": refused, the copy and --delete would meet it; put it outside SRC and DST");
            }
        } catch (PosixException e) {
            throw new UsageException(option + " " + named + ": cannot open " + near + ": " + e.reason());
        }
    }

    /** Creates, writes and removes a file of a name no one uses in dir. */
    private static void probe(String option, Path named, Path dir) {
        Path probe = dir.resolve(PROBE + UUID.randomUUID());
        try {
            try (SeekableByteChannel c = Files.newByteChannel(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                c.write(ByteBuffer.wrap(new byte[]{'\n'}));
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException e) {
            throw new UsageException(option + " " + named + " cannot be written (" + dir + "): " + reason(e));
        }
    }

    /** The kernel's words for a failed call, never a Java exception's name. */
    private static String reason(IOException e) {
        if (e instanceof AccessDeniedException) return "Permission denied";
        if (e instanceof NoSuchFileException) return "No such file or directory";
        if (e instanceof NotDirectoryException) return "Not a directory";
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage() != null ? e.getMessage() : "cannot write";
    }

    private static Path realOf(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir;
        }
    }
}
