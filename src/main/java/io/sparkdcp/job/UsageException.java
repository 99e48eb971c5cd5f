package io.sparkdcp.job;

/** A request that cannot be carried out as asked (exit code 2); nothing has been written. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
