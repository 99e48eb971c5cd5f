package io.sparkdcp.posix;

/** A failed system call: which call, the errno, and the path it concerned (bytes, shown decoded). */
public final class PosixException extends RuntimeException {
    private final String call;
    private final int errno;
    private final byte[] path;
    private final String reason;

    public PosixException(String call, int errno, byte[] path, String reason) {
        super(call + "(" + PathBytes.display(path) + "): " + Errno.name(errno) + " (" + reason + ")");
        this.call = call;
        this.errno = errno;
        this.path = path;
        this.reason = reason;
    }

    public String call() { return call; }

    public int errno() { return errno; }

    public String errnoName() { return Errno.name(errno); }

    public byte[] path() { return path; }

    /** Why, in words: strerror's text or the copy's own explanation. */
    public String reason() { return reason; }
}
