package io.sparkdcp.copy;

import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;

/**
 * A file written in place carries an atime of 1970-01-01T00:00:01Z from its creation (a file copied in
 * chunks: from its prepare step) until its final times are set. Writes move its mtime to now but leave
 * the atime, so a file that a failed or killed run left half-written is told from one a user changed at
 * DST since: --update keeps the latter, and without this mark would keep the former too, newer than its
 * source. Whole seconds, so a destination that keeps coarse times holds the mark as well.
 *
 * <p>Files below {@link #FROM_BYTES} are marked only in a run with --update: their data is a call or two, and
 * one call more per small file costs a tenth of its copy, while a run that keeps newer files is the one
 * whose retry must not keep a half-written one. A run without --update killed while a small file was open
 * leaves it unmarked: its own retry copies it again (its times differ from SRC's), a later --update keeps it.
 * The mark is no step of its own: next to a MiB of data its call is noise, and the times step counts
 * one call per entry copied.
 */
final class IncompleteMark {
    private static final long ATIME_SEC = 1;
    static final long FROM_BYTES = 1 << 20;

    private IncompleteMark() {}

    static void mark(Fd file) {
        Posix.futimens(file, ATIME_SEC, 0, 0, Linux.UTIME_OMIT);
    }

    /** Whether a file of this size is marked while it is written in place in a run with these modes. */
    static boolean worthIt(long size, CopyModes modes) {
        return size >= FROM_BYTES || modes.update();
    }

    static boolean on(Stat file) {
        return file.atimeSec() == ATIME_SEC;
    }
}
