package io.sparkdcp.copy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Names of the files --atomic writes before renaming them into place:
 * {@code .spark-dcp.<name>.<16 hex digits>.tmp}, in the destination directory itself, so the
 * temporary inherits that directory's project ID and the rename stays within one directory.
 * The name alone proves nothing (a user's file may look like that): a temporary also carries a
 * marker xattr from its creation until just before its rename, and only a marked regular file is
 * ever removed as a leftover.
 */
final class TemporaryNames {
    /** Root marks with a trusted.* name no other user can set; others with user.*, on files they own. */
    private static final byte[] TRUSTED_MARKER = "trusted.spark-dcp.temporary".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USER_MARKER = "user.spark-dcp.temporary".getBytes(StandardCharsets.US_ASCII);
    static final byte[] MARKER_VALUE = "1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PREFIX = ".spark-dcp.".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SUFFIX = ".tmp".getBytes(StandardCharsets.US_ASCII);
    private static final int RANDOM_DIGITS = 16;
    /** Room for the name's start within NAME_MAX (255) once the prefix, random part and suffix are added. */
    private static final int NAME_PART_MAX = 255 - PREFIX.length - 1 - RANDOM_DIGITS - SUFFIX.length;

    private TemporaryNames() {}

    /** The marker xattr's name for a run with these privileges. */
    static byte[] marker(boolean privileged) {
        return privileged ? TRUSTED_MARKER : USER_MARKER;
    }

    static byte[] next(byte[] name) {
        return named(name, ThreadLocalRandom.current().nextLong());
    }

    /**
     * The temporary of a file copied in chunks, named by its source's identity and state: every attempt of
     * its prepare step (the retry of a task that failed after it) takes this one name, so a retry replaces
     * the temporary an attempt before it made instead of leaving it beside its own.
     */
    static byte[] forSource(byte[] name, io.sparkdcp.posix.Stat source) {
        long hash = 0xcbf29ce484222325L; // 64-bit FNV-1a
        for (long v : new long[]{source.dev(), source.ino(), source.size(), source.mtimeSec(), source.mtimeNsec(),
                source.ctimeSec(), source.ctimeNsec()})
            for (int i = 0; i < Long.BYTES; i++) hash = (hash ^ ((v >>> (8 * i)) & 0xff)) * 0x100000001b3L;
        return named(name, hash);
    }

    private static byte[] named(byte[] name, long digits) {
        byte[] part = Arrays.copyOf(name, Math.min(name.length, NAME_PART_MAX));
        byte[] tail = String.format(".%016x", digits).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[PREFIX.length + part.length + tail.length + SUFFIX.length];
        System.arraycopy(PREFIX, 0, out, 0, PREFIX.length);
        System.arraycopy(part, 0, out, PREFIX.length, part.length);
        System.arraycopy(tail, 0, out, PREFIX.length + part.length, tail.length);
        System.arraycopy(SUFFIX, 0, out, out.length - SUFFIX.length, SUFFIX.length);
        return out;
    }

    /** Whether a name is one of ours, left by a run that was killed before its rename. */
    static boolean isTemporary(byte[] name) {
        int minimum = PREFIX.length + 1 + RANDOM_DIGITS + SUFFIX.length;
        if (name.length < minimum) return false;
        if (!Arrays.equals(name, 0, PREFIX.length, PREFIX, 0, PREFIX.length)) return false;
        if (!Arrays.equals(name, name.length - SUFFIX.length, name.length, SUFFIX, 0, SUFFIX.length)) return false;
        int randomStart = name.length - SUFFIX.length - RANDOM_DIGITS;
        if (name[randomStart - 1] != '.') return false;
        for (int i = randomStart; i < randomStart + RANDOM_DIGITS; i++) {
            byte b = name[i];
            if (!((b >= '0' && b <= '9') || (b >= 'a' && b <= 'f'))) return false;
        }
        return true;
    }
}
