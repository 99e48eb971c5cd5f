package io.sparkdcp.roots;

/**
 * A request that cannot be carried out as asked (exit code 2); nothing has been written. An
 * IllegalArgumentException, like a bad option value: callers of the API catch one type for both.
 */
public final class UsageException extends IllegalArgumentException {
    public UsageException(String message) {
        super(message);
    }
}
