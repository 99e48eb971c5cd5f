package io.sparkdcp.roots;

import io.sparkdcp.posix.Linux;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mount table as /proc/self/mountinfo's lines give it: fields, escapes, and the questions Containment asks of it. */
@Tag("fast")
class MountTableTest {
    private static final long SDA1 = Linux.makedev(8, 1);
    private static final long LOOP = Linux.makedev(259, 65537);

    /** The root file system, an XFS image mounted twice (whole and a subdirectory bound), and a tmpfs. */
    private static final MountTable TABLE = MountTable.parse(List.of(
            "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
            "40 22 259:65537 / /mnt/xfs\\040image rw shared:5 - xfs /dev/loop0 rw",
            "41 22 259:65537 /dir/sub /srv/bound rw shared:5 - xfs /dev/loop0 rw",
            "42 22 259:65537 /dir /srv/dir rw shared:5 - xfs /dev/loop0 rw",
            "43 22 259:65537 /dirx /srv/dirx rw shared:5 - xfs /dev/loop0 rw",
            "44 22 0:50 / /mnt/tab\\011and\\134back rw - tmpfs tmpfs rw",
            "45 40 0:51 / /mnt/xfs\\040image/inner rw - tmpfs tmpfs rw",
            "46 40 0:52 / /mnt/xfs\\040image/inner rw - tmpfs tmpfs rw"));

    @Test
    void eachLineGivesTheMountsIdDeviceRootAndMountPoint() {
        assertEquals(new MountTable.Mount(22, SDA1, "/", "/"), TABLE.byId(22));
        assertEquals(new MountTable.Mount(41, LOOP, "/dir/sub", "/srv/bound"), TABLE.byId(41));
        assertEquals(0x801, SDA1, "major 8, minor 1");
    }

    @Test
    void octalEscapesInPathsAreUndone() {
        assertEquals("/mnt/xfs image", TABLE.byId(40).mountPoint());
        assertEquals("/mnt/tab\tand\\back", TABLE.byId(44).mountPoint());
        assertEquals("/a\\b", MountTable.parse(List.of("1 0 0:1 /a\\134b /m rw - x y rw")).byId(1).root(),
                "an escaped backslash stays one backslash, not the start of another escape");
    }

    @Test
    void anUnknownIdHasNoMount() {
        assertNull(TABLE.byId(99));
        assertNull(MountTable.parse(List.of()).byId(22));
    }

    @Test
    void theMountsOfOneDeviceAreFoundInTheirOrder() {
        assertEquals(List.of(40L, 41L, 42L, 43L), TABLE.ofDevice(LOOP).stream().map(MountTable.Mount::id).toList());
        assertEquals(List.of(TABLE.byId(22)), TABLE.ofDevice(SDA1));
        assertEquals(List.of(), TABLE.ofDevice(Linux.makedev(7, 7)));
    }

    @Test
    void theParentsOfABoundSubdirectoryShowThroughMountsOfWiderRoots() {
        assertEquals(List.of(40L, 42L), TABLE.showingParentsOf(TABLE.byId(41)).stream().map(MountTable.Mount::id).toList(),
                "the whole file system and its /dir, not /dirx, not the mount itself, not another device");
        assertEquals(List.of(40L), TABLE.showingParentsOf(TABLE.byId(42)).stream().map(MountTable.Mount::id).toList());
        assertEquals(List.of(), TABLE.showingParentsOf(TABLE.byId(40)), "a whole file system has no wider root");
    }

    @Test
    void mountPointsStrictlyBelowADirectoryAreRelativeAndListedOnce() {
        assertEquals(List.of("xfs image", "tab\tand\\back", "xfs image/inner"), TABLE.mountPointsBelow("/mnt"));
        assertEquals(List.of("xfs image", "tab\tand\\back", "xfs image/inner"), TABLE.mountPointsBelow("/mnt/"));
        assertEquals(List.of("inner"), TABLE.mountPointsBelow("/mnt/xfs image"), "the directory's own mount is not below it");
        assertEquals(List.of("bound", "dir", "dirx"), TABLE.mountPointsBelow("/srv"));
        assertEquals(List.of(), TABLE.mountPointsBelow("/srv/di"), "/srv/dir is not below /srv/di");
    }

    @Test
    void belowIsByWholeNames() {
        assertTrue(MountTable.below("/a/b", "/a"));
        assertTrue(MountTable.below("/a", "/a"));
        assertTrue(MountTable.below("/anything", "/"));
        assertFalse(MountTable.below("/ab", "/a"));
        assertFalse(MountTable.below("/a", "/a/b"));
    }
}
