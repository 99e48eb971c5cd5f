package io.sparkdcp.job;

import io.sparkdcp.job.SyncPreview.Action;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The dry run's rule for one entry, as root and as a user. */
class SyncPreviewTest {
    private static final int ROOT = 0;

    private static Entry entry(FileType type, int mode, int uid, long size, long mtime, FsXattr project) {
        return new Entry(PathBytes.of("e"), new Stat(type, mode, uid, uid, size, 0, 1, 0, 0, 0, 0, 0, mtime, 0, 0, 0), project);
    }

    private static Entry file(int mode, int uid, long size, long mtime) {
        return entry(FileType.FILE, mode, uid, size, mtime, null);
    }

    @Test
    void missingOrOtherTypeIsCopied() {
        assertEquals(Action.COPY, SyncPreview.decide(file(0644, 1, 5, 9), null, false, ROOT));
        assertEquals(Action.COPY, SyncPreview.decide(file(0644, 1, 5, 9), entry(FileType.SYMLINK, 0777, 1, 5, 9, null), false, ROOT));
    }

    @Test
    void sizeOrMtimeDifferenceRecopiesDataUnlessContentsDecide() {
        assertEquals(Action.COPY, SyncPreview.decide(file(0644, 1, 5, 9), file(0644, 1, 6, 9), false, ROOT));
        assertEquals(Action.COPY, SyncPreview.decide(file(0644, 1, 5, 9), file(0644, 1, 5, 8), false, ROOT));
        assertEquals(Action.FIX_METADATA, SyncPreview.decide(file(0644, 1, 5, 9), file(0644, 1, 5, 8), true, ROOT));
    }

    @Test
    void modeOwnerOrDirectoryProjectDifferenceOnlyFixesMetadata() {
        assertEquals(Action.FIX_METADATA, SyncPreview.decide(file(0644, 1, 5, 9), file(0600, 1, 5, 9), false, ROOT));
        assertEquals(Action.FIX_METADATA, SyncPreview.decide(file(0644, 1, 5, 9), file(0644, 2, 5, 9), false, ROOT));
        FsXattr p77 = new FsXattr(Linux.FS_XFLAG_PROJINHERIT, 0, 0, 77, 0);
        FsXattr p5 = new FsXattr(Linux.FS_XFLAG_PROJINHERIT, 0, 0, 5, 0);
        assertEquals(Action.FIX_METADATA, SyncPreview.decide(entry(FileType.DIRECTORY, 0755, 1, 0, 9, p77),
                entry(FileType.DIRECTORY, 0755, 1, 0, 9, p5), false, ROOT));
        assertEquals(Action.UNCHANGED, SyncPreview.decide(file(0644, 1, 5, 9), file(0644, 1, 5, 9), false, ROOT));
    }

    @Test
    void aUserCannotGiveFilesToOthersSoThatIsNoDifference() {
        int user = 1001;
        assertEquals(Action.UNCHANGED, SyncPreview.decide(file(0644, 0, 5, 9), file(0644, user, 5, 9), false, user));
    }
}
