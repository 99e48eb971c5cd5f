package io.sparkdcp.job.ledger;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.listing.ListingOptions;
import io.sparkdcp.job.listing.WalkMode;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.walk.Filter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ledger's records: their bytes, what proves an entry unchanged, and what makes a ledger another run's. */
@Tag("fast")
class LedgerBlockTest {
    private static Stat stat(FileType type, long ino, long size, long mtime, int ctimeNsec) {
        return Stat.of(type).permissions(0644).size(size).blocks(8).nlink(1).dev(7).ino(ino).mtime(mtime, 5).ctime(100, ctimeNsec).build();
    }

    @Test
    void aBlockComesBackFromItsBytesWithNamesThatAreNotUtf8() {
        byte[] name = {'f', (byte) 0xff, '\n'};
        LedgerBlock b = new LedgerBlock(PathBytes.of("a/b"), List.of(
                new LedgerBlock.Entry(PathBytes.EMPTY, FileType.DIRECTORY, LedgerBlock.Seen.of(stat(FileType.DIRECTORY, 1, 6, 9, 1)),
                        LedgerBlock.Seen.of(stat(FileType.DIRECTORY, 2, 6, 9, 2))),
                new LedgerBlock.Entry(name, FileType.SYMLINK, new LedgerBlock.Seen(3, 4, 5, 6, 0644, 1, 2, 1, 0), new LedgerBlock.Seen(7, 8, 9, 10, 0600, 3, 4, 2, 0))));
        LedgerBlock back = LedgerBlock.fromBytes(b.toBytes());
        assertArrayEquals(b.path(), back.path());
        assertEquals(2, back.entries().size());
        assertArrayEquals(name, back.entries().get(1).name());
        assertEquals(b.entries().get(1).destination(), back.entries().get(1).destination());
        byte[] cut = Arrays.copyOf(b.toBytes(), b.toBytes().length - 3);
        assertThrows(IllegalArgumentException.class, () -> LedgerBlock.fromBytes(cut));
    }

    @Test
    void onlyBothSidesAsRecordedProveAnEntryAndCtimeCounts() {
        Stat src = stat(FileType.FILE, 10, 4, 9, 1), dst = stat(FileType.FILE, 20, 4, 9, 2);
        LedgerBlock.Entry r = new LedgerBlock.Entry(PathBytes.of("f"), FileType.FILE, LedgerBlock.Seen.of(src), LedgerBlock.Seen.of(dst));
        assertTrue(r.holds(src, dst));
        assertFalse(r.holds(stat(FileType.FILE, 10, 4, 9, 3), dst), "SRC's ctime moved");
        assertFalse(r.holds(src, stat(FileType.FILE, 20, 4, 9, 3)), "DST's ctime moved");
        assertFalse(r.holds(src, stat(FileType.FILE, 21, 4, 9, 2)), "another inode at DST");
        assertFalse(r.holds(src, stat(FileType.SYMLINK, 20, 4, 9, 2)), "another type at DST");
    }

    @Test
    void theFingerprintsIdentityIsWhatDecidesIdenticalNotTheOperation() {
        LocalCopy defaults = LocalCopy.syncDefaults();
        CopyOptions sync = copyOf(defaults);
        LedgerFingerprint base = LedgerFingerprint.of(sync, ListingOptions.WALK);
        assertEquals(base, LedgerFingerprint.of(sync, ListingOptions.WALK));
        assertTrue(base.identity().startsWith("spark-dcp-state-" + StateLedger.VERSION + "\nsource "), base.identity());
        // copy, sync and sync --update record only entries found identical: one ledger serves them all.
        assertEquals(base, LedgerFingerprint.of(sync.withModes(CopyModes.COPY), ListingOptions.WALK));
        assertEquals(base, LedgerFingerprint.of(sync.withModes(sync.modes().with(CopyModes.Mode.UPDATE, true)), ListingOptions.WALK));
        assertEquals(base, LedgerFingerprint.of(sync.withModes(sync.modes().with(CopyModes.Mode.FSYNC, true)), ListingOptions.WALK));
        assertNotEquals(base.identity(), LedgerFingerprint.of(sync.withModes(sync.modes().with(CopyModes.Mode.CONTENTS, true)), ListingOptions.WALK).identity());
        assertNotEquals(base.identity(), LedgerFingerprint.of(copyOf(defaults.withoutProjectIds()), ListingOptions.WALK).identity());
        assertNotEquals(base.identity(), LedgerFingerprint.of(copyOf(defaults.withoutFlags()), ListingOptions.WALK).identity());
        assertNotEquals(base.identity(), LedgerFingerprint.of(copyOf(defaults.withXattrs(io.sparkdcp.copy.keep.XattrPolicy.none())), ListingOptions.WALK).identity());
        CopyOptions other = defaults.jobOptions(java.nio.file.Path.of("/nonexistent/src"), java.nio.file.Path.of("/nonexistent/dst2")).copy();
        assertNotEquals(base.identity(), LedgerFingerprint.of(other, ListingOptions.WALK).identity());
        // Filters are its scope: other ones narrow what is used, the identity stays.
        Filter excluding = new Filter(List.of(Filter.Rule.of(false, PathBytes.of("*.tmp"))), null);
        LedgerFingerprint filtered = LedgerFingerprint.of(sync, new ListingOptions(WalkMode.AUTO, null, null, excluding, false));
        assertEquals(base.identity(), filtered.identity());
        assertNotEquals(base.scope(), filtered.scope());
        Filter directoriesOnly = new Filter(List.of(Filter.Rule.of(false, PathBytes.of("*.tmp/"))), null);
        assertNotEquals(filtered.scope(), LedgerFingerprint.scope(directoriesOnly));
        assertNotEquals(filtered.scope(), LedgerFingerprint.scope(new Filter(List.of(Filter.Rule.of(true, PathBytes.of("*.tmp"))), null)));
        assertNotEquals(LedgerFingerprint.scope(Filter.NONE), LedgerFingerprint.scope(Filter.NONE.listing(List.of())));
        assertEquals(LedgerFingerprint.scope(excluding), LedgerFingerprint.scope(new Filter(List.of(Filter.Rule.of(false, PathBytes.of("*.tmp"))), null)));
    }

    private static CopyOptions copyOf(LocalCopy copy) {
        return copy.jobOptions(java.nio.file.Path.of("/nonexistent/src"), java.nio.file.Path.of("/nonexistent/dst")).copy();
    }

    @Test
    void aSeenTimeIsItsSecondsAndNanosecondsInNanoseconds() {
        Stat s = Stat.of(FileType.FILE).permissions(0640).uid(11).gid(12).size(13).blocks(8).nlink(2).dev(7).ino(14).rdev(15)
                .atime(1, 2).mtime(3, 4).ctime(5, 6).build();
        assertEquals(new LedgerBlock.Seen(14, 13, 3_000_000_004L, 5_000_000_006L, 0640, 11, 12, 2, 15), LedgerBlock.Seen.of(s));
    }

    @Test
    void aBlockWithNoEntriesComesBackAndItsEntriesAreFoundByName() {
        LedgerBlock empty = LedgerBlock.fromBytes(new LedgerBlock(PathBytes.of("d"), List.of()).toBytes());
        assertEquals(List.of(), empty.entries());
        LedgerBlock.Entry f = new LedgerBlock.Entry(PathBytes.of("f"), FileType.FILE, new LedgerBlock.Seen(1, 2, 3, 4, 5, 6, 7, 8, 9),
                new LedgerBlock.Seen(1, 2, 3, 4, 5, 6, 7, 8, 9));
        assertEquals(java.util.Map.of(java.nio.ByteBuffer.wrap(PathBytes.of("f")), f), new LedgerBlock(PathBytes.of("d"), List.of(f)).byName());
    }

    @Test
    void aCountOrALengthAsLongAsTheWholeBlockIsReadAndFoundShort() throws Exception {
        byte[] bytes = new LedgerBlock(PathBytes.of("d"), List.of()).toBytes(); // int 1, 'd', int 0
        java.nio.ByteBuffer.wrap(bytes).putInt(5, bytes.length);
        assertEquals("corrupt state ledger: a block ends inside an entry",
                assertThrows(IllegalArgumentException.class, () -> LedgerBlock.fromBytes(bytes)).getMessage());
        java.nio.ByteBuffer.wrap(bytes).putInt(5, bytes.length + 1);
        assertEquals("corrupt state ledger: a block claims " + (bytes.length + 1) + " entries",
                assertThrows(IllegalArgumentException.class, () -> LedgerBlock.fromBytes(bytes)).getMessage());
        java.nio.ByteBuffer.wrap(bytes).putInt(0, bytes.length);
        assertEquals("corrupt state ledger: a block ends inside an entry",
                assertThrows(IllegalArgumentException.class, () -> LedgerBlock.fromBytes(bytes)).getMessage());
        java.nio.ByteBuffer.wrap(bytes).putInt(0, bytes.length + 1);
        assertEquals("corrupt state ledger: a name of " + (bytes.length + 1) + " bytes",
                assertThrows(IllegalArgumentException.class, () -> LedgerBlock.fromBytes(bytes)).getMessage());
        assertEquals("unknown entry type code 3", assertThrows(java.io.IOException.class, () -> LedgerBlock.typeOf(0x103)).getMessage());
    }
}
