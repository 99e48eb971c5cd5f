package io.sparkdcp.copy.decision;

import io.sparkdcp.copy.decision.Decision.Kind;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one rule, table by table: every pair of types, and each difference, in each mode. */
@Tag("fast")
class DecisionTest {
    private static final int ROOT = 0;
    private static final int USER = 1001;
    private static final CopyModes COPY = CopyModes.COPY;
    private static final CopyModes SYNC = CopyModes.of(CopyModes.Mode.SYNC);
    private static final CopyModes CONTENTS = CopyModes.of(CopyModes.Mode.SYNC, CopyModes.Mode.CONTENTS);
    private static final CopyModes ATOMIC = CopyModes.of(CopyModes.Mode.ATOMIC);

    /** Source against a destination of each type that is otherwise identical (same mode, owner, size, times). */
    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource(useHeadersInDisplayName = false, delimiter = '|', textBlock = """
            # source   | destination | copy    | sync    | --contents | --atomic
            FILE       | missing     | CREATE  | CREATE  | CREATE     | CREATE
            FILE       | FILE        | SKIP    | SKIP    | SKIP       | SKIP
            FILE       | DIRECTORY   | REFUSE  | REFUSE  | REFUSE     | REFUSE
            FILE       | SYMLINK     | REPLACE | REPLACE | REPLACE    | REPLACE
            FILE       | FIFO        | REPLACE | REPLACE | REPLACE    | REPLACE
            FILE       | CHAR_DEVICE | REPLACE | REPLACE | REPLACE    | REPLACE
            DIRECTORY  | missing     | CREATE  | CREATE  | CREATE     | CREATE
            DIRECTORY  | FILE        | REFUSE  | REFUSE  | REFUSE     | REFUSE
            DIRECTORY  | DIRECTORY   | SKIP    | SKIP    | SKIP       | SKIP
            DIRECTORY  | SYMLINK     | REFUSE  | REFUSE  | REFUSE     | REFUSE
            DIRECTORY  | FIFO        | REFUSE  | REFUSE  | REFUSE     | REFUSE
            DIRECTORY  | CHAR_DEVICE | REFUSE  | REFUSE  | REFUSE     | REFUSE
            SYMLINK    | missing     | CREATE  | CREATE  | CREATE     | CREATE
            SYMLINK    | FILE        | REPLACE | REPLACE | REPLACE    | REPLACE
            SYMLINK    | DIRECTORY   | REFUSE  | REFUSE  | REFUSE     | REFUSE
            SYMLINK    | SYMLINK     | SKIP    | SKIP    | SKIP       | SKIP
            SYMLINK    | FIFO        | REPLACE | REPLACE | REPLACE    | REPLACE
            SYMLINK    | CHAR_DEVICE | REPLACE | REPLACE | REPLACE    | REPLACE
            FIFO       | missing     | CREATE  | CREATE  | CREATE     | CREATE
            FIFO       | FILE        | REPLACE | REPLACE | REPLACE    | REPLACE
            FIFO       | DIRECTORY   | REFUSE  | REFUSE  | REFUSE     | REFUSE
            FIFO       | SYMLINK     | REPLACE | REPLACE | REPLACE    | REPLACE
            FIFO       | FIFO        | SKIP    | SKIP    | SKIP       | SKIP
            FIFO       | CHAR_DEVICE | REPLACE | REPLACE | REPLACE    | REPLACE
            CHAR_DEVICE| missing     | CREATE  | CREATE  | CREATE     | CREATE
            CHAR_DEVICE| FILE        | REPLACE | REPLACE | REPLACE    | REPLACE
            CHAR_DEVICE| DIRECTORY   | REFUSE  | REFUSE  | REFUSE     | REFUSE
            CHAR_DEVICE| SYMLINK     | REPLACE | REPLACE | REPLACE    | REPLACE
            CHAR_DEVICE| FIFO        | REPLACE | REPLACE | REPLACE    | REPLACE
            CHAR_DEVICE| CHAR_DEVICE | SKIP    | SKIP    | SKIP       | SKIP
            """)
    void everyPairOfTypes(FileType source, String destination, Kind copy, Kind sync, Kind contents, Kind atomic) {
        Stat src = stat(source, 0644, ROOT, 5, 9, 0);
        Stat dst = destination.equals("missing") ? null : stat(FileType.valueOf(destination), 0644, ROOT, 5, 9, 0);
        assertModes(src, dst, ROOT, copy, sync, contents, atomic);
    }

    /** Same type, one difference each. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # type     | difference  | copy    | sync         | --contents   | --atomic
            FILE       | size        | REPLACE | REPLACE      | REPLACE      | REPLACE
            FILE       | mtime       | REPLACE | REPLACE      | FIX_METADATA | REPLACE
            FILE       | mode        | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            FILE       | owner       | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            DIRECTORY  | size        | SKIP    | SKIP         | SKIP         | SKIP
            DIRECTORY  | mtime       | FIX_METADATA | FIX_METADATA | FIX_METADATA | FIX_METADATA
            DIRECTORY  | mode        | FIX_METADATA | FIX_METADATA | FIX_METADATA | FIX_METADATA
            DIRECTORY  | owner       | FIX_METADATA | FIX_METADATA | FIX_METADATA | FIX_METADATA
            SYMLINK    | size        | REPLACE | REPLACE      | REPLACE      | REPLACE
            SYMLINK    | mtime       | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            SYMLINK    | mode        | SKIP    | SKIP         | SKIP         | SKIP
            SYMLINK    | owner       | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            FIFO       | mtime       | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            FIFO       | mode        | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            FIFO       | owner       | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            CHAR_DEVICE| rdev        | REPLACE | REPLACE      | REPLACE      | REPLACE
            CHAR_DEVICE| mode        | REPLACE | FIX_METADATA | FIX_METADATA | REPLACE
            """)
    void oneDifference(FileType type, String difference, Kind copy, Kind sync, Kind contents, Kind atomic) {
        Stat src = stat(type, 0644, 1, 5, 9, 3);
        Stat dst = switch (difference) {
            case "size" -> stat(type, 0644, 1, 6, 9, 3);
            case "mtime" -> stat(type, 0644, 1, 5, 8, 3);
            case "mode" -> stat(type, 0600, 1, 5, 9, 3);
            case "owner" -> stat(type, 0644, 2, 5, 9, 3);
            case "rdev" -> stat(type, 0644, 1, 5, 9, 4);
            default -> throw new IllegalArgumentException(difference);
        };
        assertModes(src, dst, ROOT, copy, sync, contents, atomic);
    }

    @Test
    void aUserCannotGiveFilesToOthersSoThatIsNoDifference() {
        Stat src = stat(FileType.FILE, 0644, ROOT, 5, 9, 0);
        Stat dst = stat(FileType.FILE, 0644, USER, 5, 9, 0);
        assertModes(src, dst, USER, Kind.SKIP, Kind.SKIP, Kind.SKIP, Kind.SKIP);
        assertModes(src, dst, ROOT, Kind.REPLACE, Kind.FIX_METADATA, Kind.FIX_METADATA, Kind.REPLACE);
    }

    @Test
    void aDeviceAsNonRootIsSkippedWithANoticeWhateverIsThere() {
        for (CopyModes modes : new CopyModes[] {COPY, SYNC, CONTENTS, ATOMIC}) {
            for (Stat dst : new Stat[] {null, stat(FileType.FILE, 0644, USER, 5, 9, 0), stat(FileType.DIRECTORY, 0755, USER, 0, 9, 0)}) {
                Decision d = Decision.of(stat(FileType.BLOCK_DEVICE, 0600, USER, 0, 9, 7), dst, modes, USER);
                assertEquals(Kind.SKIP, d.kind());
                assertNotNull(d.reason());
            }
        }
    }

    @Test
    void aCharacterDeviceAsNonRootIsSkippedToo() {
        Stat device = stat(FileType.CHAR_DEVICE, 0600, USER, 0, 9, 7);
        assertEquals(Kind.SKIP, Decision.of(device, null, COPY, USER).kind());
        assertEquals(Kind.CREATE, Decision.of(device, null, COPY, ROOT).kind(), "root makes it");
        assertEquals(Kind.CREATE, Decision.of(stat(FileType.FIFO, 0600, USER, 0, 9, 0), null, COPY, USER).kind(), "a user makes a FIFO");
    }

    /** As a user only the group of one's own files can change, as rsync and cp -a as a user do; root changes both. */
    @Test
    void ownershipDiffersOnlyWhereTheCopyMayChangeIt() {
        Stat own = stat(FileType.FILE, 0644, USER, 5, 9, 0);
        Stat others = stat(FileType.FILE, 0644, 2002, 5, 9, 0);
        assertAll(
                () -> assertTrue(Ownership.differs(own, USER, 7, USER), "the group of one's own file"),
                () -> assertFalse(Ownership.differs(own, USER, USER, USER), "the same group"),
                () -> assertFalse(Ownership.differs(own, 2002, USER, USER), "another owner cannot be given"),
                () -> assertFalse(Ownership.differs(others, 2002, 7, USER), "another's file"),
                () -> assertTrue(Ownership.differs(others, USER, 2002, ROOT), "root: the owner"),
                () -> assertTrue(Ownership.differs(others, 2002, 7, ROOT), "root: the group"),
                () -> assertFalse(Ownership.differs(others, 2002, 2002, ROOT)));
    }

    /** A refusal's failure: protected at DST is EPERM, a directory over a file EEXIST, a file over a directory EISDIR. */
    @Test
    void aRefusalFailsWithTheCallAndErrnoOfItsKind() {
        byte[] path = io.sparkdcp.posix.PathBytes.of("a/b");
        Stat file = stat(FileType.FILE, 0644, ROOT, 5, 9, 0);
        Stat directory = stat(FileType.DIRECTORY, 0755, ROOT, 0, 9, 0);
        io.sparkdcp.posix.PosixException fileOverDirectory = Decision.of(file, directory, COPY, ROOT).refusal(file, path);
        io.sparkdcp.posix.PosixException directoryOverFile = Decision.of(directory, file, COPY, ROOT).refusal(directory, path);
        Decision locked = Decision.of(stat(FileType.FILE, 0644, ROOT, 6, 9, 0), locked(file, Linux.FS_XFLAG_APPEND), COPY, ROOT, 0, true);
        io.sparkdcp.posix.PosixException protectedOne = locked.refusal(file, path);
        assertAll(
                () -> assertEquals("replace", fileOverDirectory.call()),
                () -> assertEquals(io.sparkdcp.posix.Errno.EISDIR, fileOverDirectory.errno()),
                () -> assertEquals("mkdirat", directoryOverFile.call()),
                () -> assertEquals(io.sparkdcp.posix.Errno.EEXIST, directoryOverFile.errno()),
                () -> assertEquals("change", protectedOne.call()),
                () -> assertEquals(io.sparkdcp.posix.Errno.EPERM, protectedOne.errno()),
                () -> assertEquals("protected at DST (append-only)", protectedOne.reason()),
                () -> assertEquals("in a directory protected at DST (immutable, append-only)",
                        Protection.parentReason(Linux.FS_XFLAG_IMMUTABLE | Linux.FS_XFLAG_APPEND)),
                () -> assertTrue(Protection.isProtection(Protection.parentReason(Linux.FS_XFLAG_IMMUTABLE))),
                () -> assertFalse(Protection.isProtection(null)),
                () -> assertEquals(io.sparkdcp.posix.Errno.EPERM, Protection.refusal("unlinkat", path, "why").errno()));
    }

    @Test
    void aFileLinkedToMoreNamesAtTheDestinationThanAtTheSourceIsReplacedInEveryMode() {
        Stat src = stat(FileType.FILE, 0644, ROOT, 5, 9, 0).withNlink(2);
        assertModes(src, src.withNlink(3), ROOT, Kind.REPLACE, Kind.REPLACE, Kind.REPLACE, Kind.REPLACE);
        assertModes(src, src.withNlink(2), ROOT, Kind.SKIP, Kind.SKIP, Kind.SKIP, Kind.SKIP);
        assertModes(src, src.withNlink(1), ROOT, Kind.SKIP, Kind.SKIP, Kind.SKIP, Kind.SKIP); // a join is the links' to make
    }

    @Test
    void refusalsSayWhatIsInTheWay() {
        Decision fileOverDirectory = Decision.of(stat(FileType.FILE, 0644, 0, 1, 1, 0), stat(FileType.DIRECTORY, 0755, 0, 0, 1, 0), SYNC, ROOT);
        assertEquals("the destination has a directory where the source has a file", fileOverDirectory.reason());
        Decision directoryOverDevice = Decision.of(stat(FileType.DIRECTORY, 0755, 0, 0, 1, 0), stat(FileType.CHAR_DEVICE, 0644, 0, 0, 1, 0), SYNC, ROOT);
        assertEquals("the destination has a char device where the source has a directory; left as it is", directoryOverDevice.reason());
        assertEquals("EISDIR", fileOverDirectory.refusal(stat(FileType.FILE, 0644, 0, 1, 1, 0), new byte[] {'f'}).errnoName());
        assertEquals("EEXIST", directoryOverDevice.refusal(stat(FileType.DIRECTORY, 0755, 0, 0, 1, 0), new byte[] {'d'}).errnoName());
    }

    @Test
    void whatOnlyARealRunReadsRefinesTheDecision() {
        Stat file = stat(FileType.FILE, 0644, 0, 5, 9, 0);
        assertTrue(Decision.comparesData(stat(FileType.SYMLINK, 0777, 0, 5, 9, 0), COPY), "a symlink's target, always");
        assertTrue(Decision.comparesData(file, CONTENTS));
        assertFalse(Decision.comparesData(file, SYNC));
        assertFalse(Decision.comparesData(file, COPY));
        assertEquals(Decision.REPLACE, Decision.SKIP.afterComparingData(false));
        assertEquals(Decision.REPLACE, Decision.FIX_METADATA.afterComparingData(false));
        assertEquals(Decision.SKIP, Decision.SKIP.afterComparingData(true));
        assertEquals(Decision.CREATE, Decision.CREATE.afterComparingData(false));
        assertEquals(Decision.FIX_METADATA, Decision.SKIP.afterComparingExtras(true));
        assertEquals(Decision.SKIP, Decision.SKIP.afterComparingExtras(false));
        assertEquals(Decision.REPLACE, Decision.REPLACE.afterComparingExtras(true));
        assertEquals(Decision.FIX_METADATA, Decision.SKIP.afterChildrenChanged());
    }

    @Test
    void aFurtherHardLinkIsKeptOnlyWhenItIsTheSameInode() {
        Stat target = Stat.of(FileType.FILE).permissions(0644).size(5).nlink(2).dev(1).ino(42).mtime(9, 0).ctime(9, 0).build();
        Stat sameInode = target.toBuilder().build();
        Stat otherInode = target.toBuilder().nlink(1).ino(43).build();
        assertAll(
                () -> assertEquals(Kind.CREATE, Decision.ofLink(null, target).kind()),
                () -> assertEquals(Kind.SKIP, Decision.ofLink(sameInode, target).kind()),
                () -> assertEquals(Kind.REPLACE, Decision.ofLink(otherInode, target).kind()),
                () -> assertEquals(Kind.REPLACE, Decision.ofLink(otherInode, null).kind()),
                () -> assertEquals(Kind.REFUSE, Decision.ofLink(stat(FileType.DIRECTORY, 0755, 0, 0, 9, 0), target).kind()));
    }

    /** rsync --update: a file at DST with a later mtime stays; anything else is judged as without it. */
    @Test
    void updateKeepsOnlyANewerFileOverAFile() {
        CopyModes update = COPY.with(CopyModes.Mode.UPDATE, true);
        CopyModes syncUpdate = SYNC.with(CopyModes.Mode.UPDATE, true);
        Stat src = stat(FileType.FILE, 0644, 0, 5, 9, 0);
        assertAll(
                () -> assertEquals(Kind.KEEP_NEWER, Decision.of(src, stat(FileType.FILE, 0600, 0, 7, 10, 0), update, ROOT).kind()),
                () -> assertEquals(Kind.KEEP_NEWER, Decision.of(src, stat(FileType.FILE, 0600, 0, 7, 10, 0), syncUpdate, ROOT).kind()),
                () -> assertEquals(Kind.REPLACE, Decision.of(src, stat(FileType.FILE, 0644, 0, 7, 10, 0), COPY, ROOT).kind(),
                        "without --update"),
                () -> assertEquals(Kind.REPLACE, Decision.of(src, stat(FileType.FILE, 0644, 0, 5, 8, 0), update, ROOT).kind(), "older"),
                () -> assertEquals(Kind.REPLACE, Decision.of(src, stat(FileType.FILE, 0644, 0, 7, 9, 0), update, ROOT).kind(),
                        "same mtime, other size"),
                () -> assertEquals(Kind.SKIP, Decision.of(src, stat(FileType.FILE, 0644, 0, 5, 9, 0), update, ROOT).kind(), "identical"),
                () -> assertEquals(Kind.REPLACE, Decision.of(src, stat(FileType.SYMLINK, 0777, 0, 5, 10, 0), update, ROOT).kind(),
                        "another type is always replaced"),
                () -> assertEquals(Kind.REPLACE, Decision.of(stat(FileType.SYMLINK, 0777, 0, 5, 9, 0), stat(FileType.SYMLINK, 0777, 0, 4, 10, 0),
                        update, ROOT).kind(), "symlinks are not files"),
                () -> assertEquals(Kind.FIX_METADATA, Decision.of(stat(FileType.DIRECTORY, 0755, 0, 0, 9, 0),
                        stat(FileType.DIRECTORY, 0755, 0, 0, 10, 0), update, ROOT).kind(), "directories are not files"),
                () -> assertEquals(Kind.REPLACE, Decision.of(src, stat(FileType.FILE, 0644, 0, 7, 10, 0), update, ROOT, 2_000_000_000L).kind(),
                        "within the destination's time granularity the times are the same"),
                () -> assertEquals(Decision.KEEP_NEWER, Decision.KEEP_NEWER.afterComparingData(false)),
                () -> assertEquals(Decision.KEEP_NEWER, Decision.KEEP_NEWER.afterComparingExtras(true)));
    }

    @Test
    void onlyRefusalsAndNoticesCarryAReason() {
        assertNull(Decision.of(stat(FileType.FILE, 0644, 0, 5, 9, 0), null, COPY, ROOT).reason());
        assertNull(Decision.of(stat(FileType.FILE, 0644, 0, 5, 9, 0), stat(FileType.FIFO, 0644, 0, 5, 9, 0), COPY, ROOT).reason());
    }

    private static void assertModes(Stat src, Stat dst, int euid, Kind copy, Kind sync, Kind contents, Kind atomic) {
        assertAll(
                () -> assertEquals(copy, Decision.of(src, dst, COPY, euid).kind(), "copy"),
                () -> assertEquals(sync, Decision.of(src, dst, SYNC, euid).kind(), "sync"),
                () -> assertEquals(contents, Decision.of(src, dst, CONTENTS, euid).kind(), "sync --contents"),
                () -> assertEquals(atomic, Decision.of(src, dst, ATOMIC, euid).kind(), "copy --atomic"));
    }

    @Test
    void immutableAndAppendOnlyCountAsMetadataUnlessFlagsAreOff() {
        Stat plain = stat(FileType.FILE, 0644, USER, 10, 100, 0);
        Stat locked = locked(plain, Linux.FS_XFLAG_IMMUTABLE);
        assertAll(
                () -> assertEquals(Kind.SKIP, Decision.of(locked, locked, COPY, ROOT, 0, true).kind()),
                () -> assertEquals(Kind.REPLACE, Decision.of(locked, plain, COPY, ROOT, 0, true).kind()),
                () -> assertEquals(Kind.FIX_METADATA, Decision.of(locked, plain, SYNC, ROOT, 0, true).kind(), "a lock added"),
                () -> assertEquals(Kind.SKIP, Decision.of(plain, locked, SYNC, ROOT, 0, false).kind(), "--no-flags"));
    }

    @Test
    void anEntryLockedAtTheDestinationChangesOnlyToItsSourcesOwnLocks() {
        Stat plain = stat(FileType.FILE, 0644, USER, 10, 100, 0);
        Stat locked = locked(plain, Linux.FS_XFLAG_IMMUTABLE);
        Stat otherMode = locked(stat(FileType.FILE, 0600, USER, 10, 100, 0), Linux.FS_XFLAG_IMMUTABLE);
        Stat otherData = locked(stat(FileType.FILE, 0644, USER, 20, 200, 0), Linux.FS_XFLAG_IMMUTABLE);
        assertAll(
                () -> assertEquals(new Decision(Kind.REFUSE, "protected at DST (immutable)"), Decision.of(plain, locked, SYNC, ROOT, 0, true)),
                () -> assertEquals(Kind.REFUSE, Decision.of(stat(FileType.FILE, 0644, USER, 20, 200, 0), locked, COPY, ROOT, 0, true).kind(), "replace"),
                () -> assertEquals(new Decision(Kind.REFUSE, "protected at DST (immutable)"),
                        Decision.of(locked(plain, Linux.FS_XFLAG_APPEND), locked, SYNC, ROOT, 0, true), "another lock"),
                () -> assertEquals(new Decision(Kind.REFUSE, "protected at DST (append-only)"),
                        Decision.of(dir(0), dir(Linux.FS_XFLAG_APPEND), SYNC, ROOT, 0, true)),
                () -> assertEquals(Kind.REFUSE, Decision.of(otherMode, locked, SYNC, ROOT, 0, false).kind(), "--no-flags replicates no lock"),
                () -> assertEquals(Kind.FIX_METADATA, Decision.of(otherMode, locked, SYNC, ROOT, 0, true).kind(), "the source's own lock"),
                () -> assertEquals(Kind.REPLACE, Decision.of(otherData, locked, COPY, ROOT, 0, true).kind(), "the source's own lock"),
                () -> assertTrue(Decision.of(plain, locked, SYNC, ROOT, 0, true).protectedAtDestination()));
    }

    @Test
    void onlyAChangeOfALockedEntryClearsItsLocksFirst() {
        int immutable = Linux.FS_XFLAG_IMMUTABLE;
        assertAll(
                () -> assertTrue(Decision.FIX_METADATA.unlocksFirst(immutable)),
                () -> assertTrue(Decision.REPLACE.unlocksFirst(Linux.FS_XFLAG_APPEND)),
                () -> assertFalse(Decision.SKIP.unlocksFirst(immutable)),
                () -> assertFalse(Decision.CREATE.unlocksFirst(immutable)),
                () -> assertFalse(Decision.FIX_METADATA.unlocksFirst(0)));
    }

    /**
     * --update compares whole times, seconds then nanoseconds: a DST file later by a fraction of a second is newer,
     * one of an earlier second is older whatever its nanoseconds, and within the DST's granularity none is newer.
     */
    @ParameterizedTest(name = "SRC {0}.{1}, DST {2}.{3}, window {4} ns: {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # src s | src ns      | dst s | dst ns      | window        | kind
            9       | 100         | 9     | 101         | 0             | KEEP_NEWER
            9       | 500_000_000 | 9     | 499_999_999 | 0             | REPLACE
            9       | 100         | 8     | 999_999_999 | 0             | REPLACE
            9       | 999_999_999 | 10    | 0           | 0             | KEEP_NEWER
            9       | 999_999_999 | 10    | 0           | 1_000_000_000 | REPLACE
            9       | 100         | 9     | 900_000_000 | 1_000_000_000 | REPLACE
            9       | 0           | 10    | 1           | 1_000_000_000 | KEEP_NEWER
            9       | 0           | 10    | 999_999_999 | 2_000_000_000 | REPLACE
            9       | 0           | 11    | 0           | 2_000_000_000 | KEEP_NEWER
            """)
    void updateComparesSecondsThenNanoseconds(long srcSec, String srcNsec, long dstSec, String dstNsec, String window, Kind kind) {
        CopyModes update = COPY.with(CopyModes.Mode.UPDATE, true);
        Stat src = timed(FileType.FILE, 5, srcSec, nanos(srcNsec));
        Stat dst = timed(FileType.FILE, 7, dstSec, nanos(dstNsec));
        assertEquals(kind, Decision.of(src, dst, update, ROOT, Long.parseLong(window.replace("_", ""))).kind());
    }

    private static int nanos(String s) {
        return Integer.parseInt(s.replace("_", ""));
    }

    private static Stat timed(FileType type, long size, long mtimeSec, int mtimeNsec) {
        return Stat.of(type).permissions(0644).uid(ROOT).gid(ROOT).size(size).nlink(1).atime(mtimeSec, mtimeNsec)
                .mtime(mtimeSec, mtimeNsec).ctime(mtimeSec, mtimeNsec).build();
    }

    private static Stat dir(int locks) {
        return locked(stat(FileType.DIRECTORY, 0755, USER, 0, 100, 0), locks);
    }

    private static Stat locked(Stat s, int locks) {
        return s.toBuilder().locks(locks).build();
    }

    private static Stat stat(FileType type, int mode, int uid, long size, long mtime, long rdev) {
        return Stat.of(type).permissions(mode).uid(uid).gid(uid).size(size).nlink(1).rdev(rdev).mtime(mtime, 0).ctime(mtime, 0).build();
    }
}
