package io.sparkdcp.job.ledger;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.SmallFiles;
import io.sparkdcp.roots.RootHolds;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.store.Store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One writer per state DIR: the run that uses {@code --state DIR} holds DIR's own lock from before its walk to
 * after its report, whatever its DST, and a second run on DIR is refused at once (exit 2) naming the holder. On
 * this machine's file systems (NFS too) it is an exclusive {@code flock} on {@code DIR/LOCK}, which the kernel
 * drops when the driver dies; the file holds the holder's pid, host and start for the refusal. Elsewhere (HDFS,
 * through {@link Store}'s Hadoop side) it is {@code DIR/LOCK} made exclusively and removed at the end: one left by a killed run is removed by hand.
 */
public final class StateLock implements AutoCloseable, RootHolds.Hold {
    static final String NAME = "LOCK";
    private final Fd held;
    private final Store store;
    private final String made;

    private StateLock(Fd held, Store store, String made) {
        this.held = held;
        this.store = store;
        this.made = made;
    }

    /**
     * {@code run} with DIR locked ({@code writes}: made if missing; else locked only when it is there), released as
     * DST's locks are: when it returns, or when {@code holds} closes after the report.
     */
    public static <R> R holding(String dir, boolean writes, RootHolds holds, java.util.function.Supplier<R> run) {
        StateLock lock = writes ? take(dir) : takeIfThere(dir);
        try {
            return run.get();
        } finally {
            RootHolds.release(lock, holds);
        }
    }

    /** DIR (made if missing) locked by this run until {@link #close}; null dir: nothing to lock. */
    public static StateLock take(String dir) {
        return take(dir, true);
    }

    /** For a dry run, which writes nothing: DIR locked when it exists (a missing one holds no ledger to read). */
    public static StateLock takeIfThere(String dir) {
        return take(dir, false);
    }

    private static StateLock take(String dir, boolean make) {
        if (dir == null) return new StateLock(null, null, null);
        try {
            Store store = Store.of(dir);
            if (!make && !store.exists(dir)) return new StateLock(null, null, null);
            if (store.local()) return new StateLock(flock(store.qualify(dir)), null, null);
            store.mkdirs(dir, Store.Access.SHARED);
            String lock = store.child(dir, NAME);
            try (Store.Output out = store.createNew(lock, Store.Access.SHARED)) {
                out.write(holder().getBytes(StandardCharsets.UTF_8));
            } catch (FileAlreadyExistsException e) {
                throw refused(dir, readHolder(store, lock) + "; if that run is gone, remove " + lock);
            }
            return new StateLock(null, store, lock);
        } catch (IOException e) {
            throw new UsageException("--state " + dir + " cannot be locked: " + e.getMessage());
        }
    }

    private static Fd flock(String local) throws IOException {
        String dir = local;
        Files.createDirectories(java.nio.file.Path.of(local));
        Fd lock;
        try (Fd d = Posix.open(PathBytes.of(local), Linux.O_RDONLY | Linux.O_DIRECTORY)) {
            lock = Posix.openat(d, PathBytes.of(NAME), Linux.O_RDWR | Linux.O_CREAT | Linux.O_NOFOLLOW, 0644);
        } catch (PosixException e) {
            throw new UsageException("--state " + dir + " cannot be locked: " + NAME + ": " + e.reason());
        }
        try {
            if (!Posix.tryLockExclusive(lock)) {
                String holder = new String(SmallFiles.read(PathBytes.of(local + "/" + NAME)), StandardCharsets.UTF_8).strip();
                throw refused(dir, holder.isEmpty() ? "holder not yet written" : holder);
            }
            // Through a descriptor of its own: a flock belongs to the open file, which closing another does not release.
            Files.writeString(java.nio.file.Path.of(local, NAME), holder() + "\n");
            return lock;
        } catch (PosixException e) {
            lock.close();
            if (e.errno() == Errno.ENOLCK || e.errno() == Errno.EOPNOTSUPP)
                throw new UsageException("--state " + dir + " cannot be locked: its file system has no flock (" + e.reason()
                        + "); put DIR where flock works");
            throw new UsageException("--state " + dir + " cannot be locked: " + e.reason());
        } catch (RuntimeException | IOException e) {
            lock.close();
            throw e;
        }
    }

    private static UsageException refused(String dir, String holder) {
        return new UsageException("another spark-dcp run holds --state " + dir + " (" + holder + "); wait for it to end, or stop it");
    }

    private static String readHolder(Store store, String lock) {
        try (InputStream in = store.open(lock)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "holder unknown";
        }
    }

    /** "pid P, host H, started T": what the refusal of another run shows. */
    static String holder() {
        String host;
        try {
            host = Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            host = "unknown";
        }
        return "pid " + ProcessHandle.current().pid() + ", host " + host + ", started " + Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }

    @Override
    public void close() {
        if (held != null) held.close();
        if (made != null) {
            try {
                store.delete(made);
            } catch (IOException e) {
                // the next run names this one as the holder, and says to remove the file
            }
        }
    }
}
