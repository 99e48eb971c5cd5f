package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.PosixException;
import io.sparkdcp.posix.Stat;

/** How a source file opened for copying differs from what the walk saw, in words. */
final class SourceChange {
    static final String MESSAGE = "source changed during copy";

    private SourceChange() {}

    /** Null when the open file is still the walk's: same type, inode number, size, mtime and ctime. */
    static String describe(Stat walked, Stat now) {
        if (now.type() != walked.type()) return "it is now a " + now.type().name().toLowerCase().replace('_', ' ');
        // st_dev is left out: a Lustre client numbers its mount itself, so the walk's node may differ.
        if (now.ino() != walked.ino()) return "another file now has its name";
        if (now.size() != walked.size()) return "it has " + now.size() + " bytes, the walk saw " + walked.size();
        if (!now.sameMtime(walked)) return "its mtime moved since the walk";
        if (now.ctimeSec() != walked.ctimeSec() || now.ctimeNsec() != walked.ctimeNsec()) return "its ctime moved since the walk";
        return null;
    }

    static PosixException failure(byte[] relPath, String change) {
        return new PosixException("copy", Errno.EIO, relPath, MESSAGE + ": " + change);
    }
}
