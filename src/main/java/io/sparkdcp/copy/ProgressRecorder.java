package io.sparkdcp.copy;

/**
 * Where the engine reports work as it goes, for live progress on the driver: each entry once when it is
 * handled (whatever its outcome), file data as it is written, and how each entry moves the listing's
 * total of data bytes ({@link io.sparkdcp.progress.Work}): by the difference between the bytes the
 * copy counts for it (the summary's bytes copied) and the bytes the listing counted for it. So when the
 * copy ends the bytes done are the bytes copied, and the total equals them.
 */
public interface ProgressRecorder {
    ProgressRecorder NONE = new ProgressRecorder() {
        @Override
        public void done(long entries, long bytes) {}

        @Override
        public void replanned(long bytes) {}
    };

    /** Entries handled and bytes written (negative: written bytes of a file that failed, which are not copied). */
    void done(long entries, long bytes);

    /** The total's bytes move by {@code bytes}: negative where less is copied than the listing counted. */
    void replanned(long bytes);
}
