package io.sparkdcp.posix;

/** An open file descriptor and the path it was opened by (for messages). Closing twice is harmless. */
public final class Fd implements AutoCloseable {
    private final int fd;
    private final byte[] path;
    private boolean closed;
    /** The status flags that make this descriptor blocking, while it is opened O_NONBLOCK; else -1. */
    private int blockingFlags;

    Fd(int fd, byte[] path) {
        this(fd, path, 0);
    }

    /** A descriptor opened with these flags. */
    Fd(int fd, byte[] path, int openFlags) {
        this.fd = fd;
        this.path = path;
        this.blockingFlags = (openFlags & Linux.O_NONBLOCK) == 0 ? -1 : openFlags & ~Linux.O_NONBLOCK;
    }

    public int fd() {
        if (closed) throw new IllegalStateException("fd of " + PathBytes.display(path) + " already closed");
        return fd;
    }

    public byte[] path() { return path; }

    /** Whether reads may answer EAGAIN instead of waiting (opened O_NONBLOCK, not cleared since). */
    public boolean nonBlocking() { return blockingFlags != -1; }

    /** The flags for fcntl(F_SETFL) that clear O_NONBLOCK; from then on the descriptor counts as blocking. */
    int clearNonBlocking() {
        int flags = blockingFlags;
        blockingFlags = -1;
        return flags;
    }

    /** Hands the descriptor to a new owner; this handle no longer closes it. */
    int release() {
        int raw = fd();
        closed = true;
        return raw;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        Posix.close(fd, path);
    }
}
