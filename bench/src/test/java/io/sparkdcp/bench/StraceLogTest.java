package io.sparkdcp.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which strace lines are file calls and which of them resolve a name. */
class StraceLogTest {
    @Test
    void namesAreLookupsDescriptorsAndEmptyPathsAreNot() {
        List<String> lines = List.of(
                "1234  openat(5, \"f00001.dat\", O_RDONLY|O_NOFOLLOW|O_NOATIME|O_CLOEXEC) = 7",
                "1234  statx(7, \"\", AT_STATX_SYNC_AS_STAT|AT_EMPTY_PATH, STATX_BASIC_STATS, {}) = 0",
                "1234  statx(AT_FDCWD, \"/src/d0000\", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, {}) = 0",
                "1234  lgetxattr(\"/src/d0000/f00001.dat\", \"user.bench\", 0x7f, 256) = 8",
                "1234  fgetxattr(7, \"user.bench\", 0x7f, 256) = 8",
                "1234  ioctl(7, FS_IOC_FSGETXATTR, 0x7f) = 0",
                "1234  linkat(5, \"a\", 6, \"b\", 0) = 0",
                "1234  close(7 <unfinished ...>",
                "1235  <... close resumed>) = 0",
                "1234  futex(0x7f, FUTEX_WAKE, 1) = 0",
                "1234  +++ exited with 0 +++");
        StraceLog.Counts c = StraceLog.count(lines);
        assertEquals(8, c.fileCalls(), "futex is no file call; a resumed call counts once");
        assertEquals(5, c.pathLookups(), "openat, statx by path, lgetxattr, and linkat's two names");
    }
}
