package io.sparkdcp.posix;

/** An open file descriptor and the path it was opened by (for messages). Closing twice is harmless. */
public final class Fd implements AutoCloseable {
    private final int fd;
    private final byte[] path;
    private boolean closed;

    Fd(int fd, byte[] path) {
        this.fd = fd;
        this.path = path;
    }

    public int fd() {
        if (closed) throw new IllegalStateException("fd of " + PathBytes.display(path) + " already closed");
        return fd;
    }

    public byte[] path() { return path; }

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
