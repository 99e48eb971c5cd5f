package io.sparkdcp.job.ledger;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The state ledger's own format: its version, its stable codes, damage of every byte found, and settled ctimes. */
@Tag("fast")
class StateLedgerFormatTest {
    private static final LedgerFingerprint FINGERPRINT = new LedgerFingerprint("spark-dcp-state-3\nsource x\n", "spark-dcp-state-3\n");
    private static final long SECOND = 1_000_000_000L;

    private static LedgerBlock block(String path, int entries) {
        List<LedgerBlock.Entry> list = new ArrayList<>();
        for (int i = 0; i < entries; i++)
            list.add(new LedgerBlock.Entry(PathBytes.of("f" + i), FileType.FILE, new LedgerBlock.Seen(i, 2, 3, 4, 0644, 5, 6, 1, 0),
                    new LedgerBlock.Seen(100 + i, 2, 3, 9, 0644, 5, 6, 1, 0)));
        return new LedgerBlock(PathBytes.of(path), list);
    }

    @Test
    void typeCodesArePosixsFormatBitsNotTheEnumsOrder() throws IOException {
        Map<FileType, Integer> codes = Map.of(FileType.FILE, 8, FileType.DIRECTORY, 4, FileType.SYMLINK, 10, FileType.FIFO, 1,
                FileType.CHAR_DEVICE, 2, FileType.BLOCK_DEVICE, 6, FileType.SOCKET, 12);
        for (FileType t : FileType.values()) {
            assertEquals(codes.get(t), LedgerBlock.typeCode(t), t.name());
            assertEquals(t, LedgerBlock.typeOf(codes.get(t)));
        }
        assertThrows(IOException.class, () -> LedgerBlock.typeOf(3));
    }

    @Test
    void aBlocksBytesAreFixed() {
        LedgerBlock b = new LedgerBlock(PathBytes.of("d"), List.of(new LedgerBlock.Entry(PathBytes.of("n"), FileType.SYMLINK,
                new LedgerBlock.Seen(1, 2, 3, 4, 5, 6, 7, 8, 9), new LedgerBlock.Seen(10, 11, 12, 13, 14, 15, 16, 17, 18))));
        String seen1 = "0000000000000001" + "0000000000000002" + "0000000000000003" + "0000000000000004" + "00000005" + "00000006"
                + "00000007" + "0000000000000008" + "0000000000000009";
        String seen2 = "000000000000000a" + "000000000000000b" + "000000000000000c" + "000000000000000d" + "0000000e" + "0000000f"
                + "00000010" + "0000000000000011" + "0000000000000012";
        assertEquals("00000001" + "64" + "00000001" + "00000001" + "6e" + "0a" + seen1 + seen2, HexFormat.of().formatHex(b.toBytes()));
        assertEquals(b.entries().get(0).destination(), LedgerBlock.fromBytes(b.toBytes()).entries().get(0).destination());
    }

    @Test
    void aHeaderComesBackWithItsPartsAndIsRefusedForAnotherVersionFingerprintOrAnyChangedByte() throws Exception {
        List<StateLedger.Part> parts = List.of(new StateLedger.Part("part-" + "0".repeat(24), 10, "ab"), new StateLedger.Part("part-" + "1".repeat(24), 20, "cd"));
        byte[] header = StateLedger.header(FINGERPRINT, "pid 1, host h, started t", parts);
        assertTrue(new String(header, StandardCharsets.UTF_8).startsWith("spark-dcp state ledger 3\n"));
        assertEquals(new StateLedger.Header(parts, true), StateLedger.parseHeader(header, FINGERPRINT));
        LedgerFingerprint otherFilters = new LedgerFingerprint(FINGERPRINT.identity(), FINGERPRINT.scope() + "exclude all Kg==\n");
        assertEquals(new StateLedger.Header(parts, false), StateLedger.parseHeader(header, otherFilters), "other filters narrow, they do not refuse");
        LedgerFingerprint otherIdentity = new LedgerFingerprint(FINGERPRINT.identity() + "other", FINGERPRINT.scope());
        assertTrue(assertThrows(StateLedger.Unusable.class, () -> StateLedger.parseHeader(header, otherIdentity))
                .getMessage().contains("other roots"));
        byte[] later = new String(header, StandardCharsets.UTF_8).replace("ledger 3", "ledger 4").getBytes(StandardCharsets.UTF_8);
        assertTrue(assertThrows(StateLedger.Unusable.class, () -> StateLedger.parseHeader(later, FINGERPRINT)).getMessage().contains("format version 4"));
        assertTrue(assertThrows(StateLedger.Unusable.class, () -> StateLedger.parseHeader("spark-dcp-state-1\nsource x\n".getBytes(StandardCharsets.UTF_8), FINGERPRINT))
                .getMessage().contains("another version"));
        for (int i = 0; i < header.length; i++) {
            byte[] changed = header.clone();
            changed[i] ^= 0x01;
            assertThrows(StateLedger.Unusable.class, () -> StateLedger.parseHeader(changed, FINGERPRINT), "byte " + i);
            byte[] cut = java.util.Arrays.copyOf(header, i);
            assertThrows(StateLedger.Unusable.class, () -> StateLedger.parseHeader(cut, FINGERPRINT), "cut at " + i);
        }
    }

    @Test
    void aPartComesBackWholeAndAnyChangedOrMissingByteIsFound(@TempDir Path dir) throws IOException {
        StateLedger.Part part = StateLedger.writePart(dir.toString(), List.of(block("b", 2), block("a", 1)));
        StateLedger.Generation g = new StateLedger.Generation(dir.toString(), List.of(part));
        List<LedgerBlock> back = StateLedger.readPart(g, part);
        assertEquals(List.of("a", "b"), back.stream().map(b -> new String(b.path(), StandardCharsets.UTF_8)).toList(), "sorted by path");
        assertEquals(2, back.get(1).entries().size());
        Path file = dir.resolve(part.name());
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(part.bytes(), bytes.length);
        assertEquals("SDCPLDGR", new String(bytes, 0, 8, StandardCharsets.US_ASCII));
        for (int i = 0; i < bytes.length; i++) {
            byte[] changed = bytes.clone();
            changed[i] ^= 0x40;
            Files.write(file, changed);
            assertThrows(IOException.class, () -> StateLedger.readPart(g, part), "byte " + i);
            Files.write(file, java.util.Arrays.copyOf(bytes, i));
            assertThrows(IOException.class, () -> StateLedger.readPart(g, part), "cut at " + i);
        }
        Files.write(file, bytes);
        StateLedger.Part other = new StateLedger.Part(part.name(), part.bytes(), "0".repeat(64));
        assertThrows(IOException.class, () -> StateLedger.readPart(g, other), "not the part the HEADER names");
    }

    @Test
    void aGenerationIsInForceOnlyWholeAndAnyDamageIsOneNotice(@TempDir Path dir) throws IOException {
        List<String> notices = new ArrayList<>();
        assertNull(StateLedger.current(dir.resolve("none").toString(), FINGERPRINT, notices::add));
        assertEquals(List.of(), notices, "no ledger yet: nothing to say");
        String writing = StateLedger.begin(dir.toString());
        StateLedger.Part part = StateLedger.writePart(writing, List.of(block("a", 2)));
        assertNull(StateLedger.current(dir.toString(), FINGERPRINT, notices::add), "a generation being written is not in force");
        StateLedger.commit(writing, FINGERPRINT, "pid 1", List.of(part));
        StateLedger.Generation g = StateLedger.current(dir.toString(), FINGERPRINT, notices::add);
        assertEquals(List.of(part), g.parts());
        assertEquals(List.of(), notices);

        Path generation = dir.resolve("state-0000000001");
        Files.writeString(generation.resolve("part-" + "f".repeat(24)), "another writer's");
        assertNull(StateLedger.current(dir.toString(), FINGERPRINT, notices::add));
        Files.delete(generation.resolve("part-" + "f".repeat(24)));
        Files.delete(generation.resolve(part.name()));
        assertNull(StateLedger.current(dir.toString(), FINGERPRINT, notices::add));
        assertEquals(2, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains("which its HEADER does not name") && notices.get(1).contains("is missing"), notices.toString());
    }

    @Test
    void onWholeSecondTimesARecordWaitsForItsSecondToBeOver() {
        long ctime = 1_700_000_000L * SECOND;
        assertFalse(LedgerBlock.settled(ctime, ctime + SECOND / 2), "a change later in that second keeps the ctime");
        assertFalse(LedgerBlock.settled(ctime, ctime + SECOND + SECOND / 2), "FAT keeps 2 s");
        assertTrue(LedgerBlock.settled(ctime, ctime + 2 * SECOND));
        long fine = ctime + 123_456_789;
        assertFalse(LedgerBlock.settled(fine, fine), "a finer ctime is settled once it is in the past");
        assertTrue(LedgerBlock.settled(fine, fine + 1));
        assertFalse(LedgerBlock.settled(fine, fine - SECOND), "a ctime ahead of the clock is not settled");
    }

    @Test
    void onWholeSecondTimesAChangeWithinTheSecondIsStillSeenByTheStat() {
        Stat src = Stat.of(FileType.FILE).permissions(0644).uid(1).gid(1).size(4).blocks(8).nlink(1).dev(7).ino(10)
                .mtime(1_700_000_000L, 0).ctime(1_700_000_000L, 0).build();
        Stat dst = src.toBuilder().ino(20).build();
        LedgerBlock.Entry r = new LedgerBlock.Entry(PathBytes.of("f"), FileType.FILE, LedgerBlock.Seen.of(src), LedgerBlock.Seen.of(dst));
        assertTrue(r.holds(src, dst));
        // The same second's ctime, as a whole-second file system keeps it after a chmod or chown in that second.
        assertFalse(r.holds(src, dst.toBuilder().permissions(0600).build()), "mode");
        assertFalse(r.holds(src, dst.toBuilder().uid(2).build()), "owner");
        assertFalse(r.holds(src.toBuilder().nlink(2).build(), dst), "a link more");
    }

    /** A HEADER as spark-dcp writes it, with these lines between the first and the digest. */
    private static byte[] headerOf(String first, String... lines) {
        StringBuilder body = new StringBuilder(first).append('\n');
        for (String line : lines) body.append(line).append('\n');
        return (body + "sha256 " + StateLedger.sha256(body.toString()) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static String refusal(byte[] header) {
        return assertThrows(StateLedger.Unusable.class, () -> StateLedger.parseHeader(header, FINGERPRINT)).getMessage();
    }

    @Test
    void aHeadersPartsAreListedByNameAndItsRefusalsSayWhy() throws Exception {
        StateLedger.Part b = new StateLedger.Part("part-" + "b".repeat(24), 20, "cd"), a = new StateLedger.Part("part-" + "a".repeat(24), 10, "ab");
        String text = new String(StateLedger.header(FINGERPRINT, "pid 1,\nhost h", List.of(b, a)), StandardCharsets.UTF_8);
        assertTrue(text.contains("writer pid 1, host h\nfingerprint " + StateLedger.sha256(FINGERPRINT.identity()) + "\nscope "
                + StateLedger.sha256(FINGERPRINT.scope()) + "\npart " + a.name() + " 10 ab\npart " + b.name() + " 20 cd\nsha256 "), text);
        assertEquals("is of format version 2, and this spark-dcp reads version 3", refusal(headerOf("spark-dcp state ledger 2")));
        assertEquals("was written by another version of spark-dcp (spark-dcp state ledger 3b)", refusal(headerOf("spark-dcp state ledger 3b")));
        assertEquals("is not a spark-dcp state ledger of version 3", refusal(headerOf("rsync")));
        String fingerprint = "fingerprint " + StateLedger.sha256(FINGERPRINT.identity());
        assertEquals("is damaged (its HEADER has no fingerprint)", refusal(headerOf(StateLedger.FIRST_LINE, "writer w")));
        assertEquals("is damaged (its HEADER has no scope)", refusal(headerOf(StateLedger.FIRST_LINE, "writer w", fingerprint)));
        String sixty = "x".repeat(60);
        assertEquals("is damaged (its HEADER holds a line spark-dcp does not write: " + sixty + ")",
                refusal(headerOf(StateLedger.FIRST_LINE, fingerprint, sixty)));
        assertEquals("is damaged (its HEADER holds a line spark-dcp does not write: " + sixty + "...)",
                refusal(headerOf(StateLedger.FIRST_LINE, fingerprint, sixty + "y")));
        assertEquals("is damaged (its HEADER holds a line spark-dcp does not write: part part-x 1 ab)",
                refusal(headerOf(StateLedger.FIRST_LINE, fingerprint, "part part-x 1 ab")));
    }

    /** A part of two blocks, with the length field at {@code at} set to {@code length}: what reading it says. */
    private static String readWithLength(Path dir, int at, long length) throws IOException {
        StateLedger.Part part = StateLedger.writePart(dir.toString(), List.of(block("a", 1), block("b", 1)));
        Path file = dir.resolve(part.name());
        byte[] bytes = Files.readAllBytes(file);
        java.nio.ByteBuffer.wrap(bytes).putInt(at, (int) length);
        Files.write(file, bytes);
        StateLedger.Generation g = new StateLedger.Generation(dir.toString(), List.of(part));
        return assertThrows(IOException.class, () -> StateLedger.readPart(g, part)).getMessage();
    }

    @Test
    void aBlockLongerThanWhatIsLeftOfItsPartIsRefusedBeforeItIsRead(@TempDir Path dir) throws IOException {
        int first = block("a", 1).toBytes().length, second = block("b", 1).toBytes().length;
        long size = 8 + 4 + 4 + first + 4 + second + 4 + 8 + 32;
        String name = StateLedger.writePart(dir.toString(), List.of(block("a", 1), block("b", 1))).name();
        assertEquals(name + " is damaged (a block of " + (size - 15) + " bytes)", readWithLength(dir, 12, size - 15));
        String tooShortForABlock = name + " is damaged (corrupt state ledger: bytes after a block's last entry)";
        assertEquals(tooShortForABlock, readWithLength(dir, 12, size - 16), "as long as all that is left: read as the block");
        long afterFirst = 16 + first + 4;
        assertEquals(name + " is damaged (a block of " + (size - afterFirst + 1) + " bytes)", readWithLength(dir, (int) afterFirst - 4, size - afterFirst + 1));
        assertEquals(tooShortForABlock, readWithLength(dir, (int) afterFirst - 4, size - afterFirst));
        assertEquals(name + " is damaged (a block of -1 bytes)", readWithLength(dir, 12, -1));
    }

    @Test
    void aLocalLedgerHasNoChecksumFilesBesideIt(@TempDir Path dir) throws IOException {
        String writing = StateLedger.begin(dir.toString());
        StateLedger.commit(writing, FINGERPRINT, "w", List.of(StateLedger.writePart(writing, List.of(block("a", 1)))));
        try (var files = Files.walk(dir)) {
            assertEquals(List.of(), files.map(Path::toString).filter(f -> f.endsWith(".crc")).toList());
        }
    }

    @Test
    void eachPartIsMeasuredAgainstItsOwnLine(@TempDir Path dir) throws IOException {
        String writing = StateLedger.begin(dir.toString());
        StateLedger.Part small = StateLedger.writePart(writing, List.of(block("a", 1)));
        StateLedger.Part large = StateLedger.writePart(writing, List.of(block("b", 5)));
        StateLedger.commit(writing, FINGERPRINT, "w", List.of(small, large));
        List<String> notices = new ArrayList<>();
        assertEquals(java.util.Set.of(small, large), java.util.Set.copyOf(StateLedger.current(dir.toString(), FINGERPRINT, notices::add).parts()));
        assertEquals(List.of(), notices);
    }

    @Test
    void aNewGenerationIsNumberedAfterEveryOneThereAndPuttingItInForceDropsThemAlone(@TempDir Path dir) throws IOException {
        Files.createDirectory(dir.resolve("state-0000000003"));
        Files.createDirectory(dir.resolve(".writing-0000000007")); // left by a run that stopped
        Files.createDirectory(dir.resolve("state-7"));
        Files.writeString(dir.resolve("LOCK"), "pid 1");
        String writing = StateLedger.begin(dir.toString());
        assertEquals(dir.resolve(".writing-0000000008").toString(), writing);
        StateLedger.commit(writing, FINGERPRINT, "w", List.of(StateLedger.writePart(writing, List.of(block("a", 1)))));
        try (var names = Files.list(dir)) {
            assertEquals(List.of("LOCK", "state-0000000008", "state-7"),
                    names.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals(dir.resolve(".writing-0000000009").toString(), StateLedger.begin(dir.toString()));
    }

    @Test
    void aGenerationThatCannotBeReadIsOneNotice(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("state-0000000001/HEADER"));
        List<String> notices = new ArrayList<>();
        assertNull(StateLedger.current(dir.toString(), FINGERPRINT, notices::add));
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).startsWith("notice: the state ledger in " + dir + " cannot be read (")
                && notices.get(0).endsWith("): not used; this run writes a new one"), notices.get(0));
    }

    @Test
    void theStateDirIsCheckedAndMadeAbsolute(@TempDir Path dir) throws IOException {
        assertEquals(dir.resolve("state").toString(), StateLedger.check(dir.resolve("state").toString(), List.of()));
        assertEquals(dir.resolve("state").toString(), StateLedger.check("file:" + dir.resolve("state"), List.of()), "a file: URI is a local path");
        Path file = Files.writeString(dir.resolve("file"), "x");
        io.sparkdcp.roots.UsageException refused = assertThrows(io.sparkdcp.roots.UsageException.class,
                () -> StateLedger.check(file.toString(), List.of()));
        assertEquals("--state " + file + " is not a directory", refused.getMessage());
    }
}
