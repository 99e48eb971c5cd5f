package io.sparkdcp.posix;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A stat built by name lands each value in its own component, and a copy changes only what it names. */
@Tag("fast")
class StatTest {
    private static final Stat EVERY_COMPONENT_ITS_OWN = Stat.of(FileType.FILE).permissions(1).uid(2).gid(3).size(4).blocks(5).nlink(6)
            .dev(7).ino(8).rdev(9).atime(10, 11).mtime(12, 13).ctime(14, 15).locks(16).build();

    @Test
    void eachNameSetsItsComponent() {
        assertEquals(new Stat(FileType.FILE, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), EVERY_COMPONENT_ITS_OWN);
    }

    @Test
    void whatIsNotGivenIsZero() {
        assertEquals(new Stat(FileType.DIRECTORY, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), Stat.of(FileType.DIRECTORY).build());
    }

    @Test
    void aCopyKeepsAllButWhatItNames() {
        Stat s = EVERY_COMPONENT_ITS_OWN;
        assertEquals(s, s.toBuilder().build());
        assertEquals(new Stat(FileType.FILE, 1, 2, 3, 4, 5, 99, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), s.withNlink(99));
    }
}
