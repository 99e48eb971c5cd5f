package io.sparkdcp.posix;

import java.io.Serializable;

/** One entry that could not be walked, copied or deleted: its path (relative, displayable), the call that failed, errno name and message. */
public record Failure(String path, String op, String errno, String message) implements Serializable {

    public static Failure of(byte[] relPath, PosixException e) {
        return new Failure(PathBytes.display(relPath), e.call(), e.errnoName(), e.reason());
    }

    public static Failure of(byte[] relPath, String op, String message) {
        return new Failure(PathBytes.display(relPath), op, "", message);
    }

    @Override
    public String toString() {
        return path + ": " + op + (errno.isEmpty() ? "" : " " + errno) + ": " + message;
    }
}
