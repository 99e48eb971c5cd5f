package io.sparkdcp.copy;

import io.sparkdcp.copy.compare.Difference.Kind;
import io.sparkdcp.itemlog.ItemLine;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one rule of what sync sets on a kept entry, and the words its item log and dry run give the kinds. */
@Tag("fast")
class MetadataChangesTest {
    private static final Stat FILE = Stat.of(FileType.FILE).permissions(0644).uid(1000).gid(1000).size(10).blocks(8).nlink(1).dev(1)
            .ino(2).atime(100, 0).mtime(200, 5).ctime(300, 0).build();

    private static Stat with(int permissions, int uid, int gid, long mtimeSec, int locks) {
        return FILE.toBuilder().permissions(permissions).uid(uid).gid(gid).mtime(mtimeSec, 5).locks(locks).build();
    }

    private static Xattr x(String name, String value) {
        return new Xattr(name.getBytes(StandardCharsets.US_ASCII), value.getBytes(StandardCharsets.US_ASCII));
    }

    private static MetadataChanges byStat(Stat existing, int euid) {
        return MetadataChanges.byStat(FILE, existing, euid, 0, true);
    }

    @Test
    void theStatsNameModeOwnerGroupMtimeAndLocks() {
        assertEquals(Set.of(), byStat(FILE, 0).kinds());
        assertEquals(EnumSet.of(Kind.MODE), byStat(with(0600, 1000, 1000, 200, 0), 0).kinds());
        assertEquals(EnumSet.of(Kind.OWNER, Kind.GROUP), byStat(with(0644, 0, 0, 200, 0), 0).kinds());
        assertEquals(EnumSet.of(Kind.MTIME), byStat(with(0644, 1000, 1000, 201, 0), 0).kinds());
        assertEquals(EnumSet.of(Kind.FLAGS), byStat(with(0644, 1000, 1000, 200, Linux.FS_XFLAG_IMMUTABLE), 0).kinds());
        assertEquals(Set.of(), MetadataChanges.byStat(FILE, with(0644, 1000, 1000, 200, Linux.FS_XFLAG_IMMUTABLE), 0, 0, false).kinds(),
                "--no-flags: locks are not carried");
    }

    @Test
    void aUserFixesOnlyTheGroupOfItsOwnFiles() {
        assertEquals(Set.of(), byStat(with(0644, 0, 1000, 200, 0), 1234).kinds(), "not its file, another owner: not fixed");
        assertEquals(EnumSet.of(Kind.GROUP), byStat(with(0644, 1000, 0, 200, 0), 1000).kinds());
    }

    @Test
    void xattrsAndAclsAreSetOrRemovedApart() {
        MetadataChanges c = MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(x("user.a", "1"), x("system.posix_acl_access", "A")),
                List.of(x("user.a", "2"), x("user.gone", "g")), null, null);
        assertEquals(EnumSet.of(Kind.XATTR, Kind.ACL), c.kinds());
        assertEquals(List.of("user.a", "system.posix_acl_access"), c.toSet().stream().map(y -> PathBytes.display(y.name())).toList());
        assertEquals(List.of("user.gone"), c.toRemove().stream().map(y -> PathBytes.display(y.name())).toList());
        assertTrue(c.extrasDiffer());
        MetadataChanges same = MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(x("user.a", "1")), List.of(x("user.a", "1")), null, null);
        assertFalse(same.extrasDiffer());
        assertEquals(Set.of(), same.kinds());
    }

    @Test
    void aChownSetsEveryXattrAgainButNamesOnlyTheOwner() {
        MetadataChanges c = MetadataChanges.of(FILE, with(0644, 0, 0, 200, 0), 0, 0, true, List.of(x("security.capability", "c")),
                List.of(x("security.capability", "c")), null, null);
        assertEquals(EnumSet.of(Kind.OWNER, Kind.GROUP), c.kinds());
        assertEquals(1, c.toSet().size(), "chown drops security.capability: set again");
    }

    @Test
    void theStructNamesProjectIdProjinheritFlagsAndHints() {
        FsXattr source = new FsXattr(Linux.FS_XFLAG_PROJINHERIT | Linux.FS_XFLAG_NODUMP, 0, 0, 42, 0);
        WantedFsXattr wanted = new WantedFsXattr(source, true, true);
        assertEquals(EnumSet.of(Kind.PROJECT_ID, Kind.PROJINHERIT, Kind.FLAGS),
                MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(), List.of(), wanted, new FsXattr(0, 0, 0, 0, 0)).kinds());
        assertEquals(EnumSet.of(Kind.PROJECT_ID),
                MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(), List.of(), wanted, source.withProject(7, true)).kinds());
        assertFalse(MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(), List.of(), wanted, source).fsxDiffers());
        FsXattr hinted = new FsXattr(source.xflags() | Linux.FS_XFLAG_EXTSIZE, 1 << 20, 0, 42, 0);
        FsXattr otherHint = new FsXattr(hinted.xflags(), 1 << 16, 0, 42, 0);
        assertEquals(EnumSet.of(Kind.EXTENT_HINTS), MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(), List.of(),
                new WantedFsXattr(hinted, true, true), otherHint).kinds(), "the same flags, another hint");
        assertEquals(EnumSet.of(Kind.PROJECT_ID), MetadataChanges.of(FILE, FILE, 0, 0, true, List.of(), List.of(),
                new WantedFsXattr(new FsXattr(0, 0, 0, 42, 0), true, false), null).kinds(), "a DST without the struct cannot hold it");
    }

    @Test
    void aFixedLineCarriesTheKindsInCompareOrderAndReadsBack() {
        ItemLine line = ItemLine.ofFixed(FileType.FILE, PathBytes.EMPTY, PathBytes.of("a.txt"), EnumSet.of(Kind.PROJECT_ID, Kind.MODE, Kind.XATTR));
        assertEquals("fixed\tfile\ta.txt\tmode,xattr,project_id", line.format());
        assertEquals(line, ItemLine.parse(line.format()));
        assertEquals("fixed\tdirectory\t.", ItemLine.ofFixed(FileType.DIRECTORY, PathBytes.EMPTY, PathBytes.EMPTY, Set.of()).format());
    }
}
