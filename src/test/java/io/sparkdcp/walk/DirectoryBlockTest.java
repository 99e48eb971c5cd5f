package io.sparkdcp.walk;

import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.testing.Listings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packed listing: every field and any name survive packing, slices ship only their bytes, and it stays small. */
@Tag("fast")
class DirectoryBlockTest {
    private static final byte[] NOT_UTF8 = {'d', (byte) 0xff, (byte) 0xfe, '\n'};

    static Stat stat(FileType type, long n) {
        return Stat.of(type).permissions(07777 & (int) n).uid((int) n + 1).gid((int) n + 2).size(Long.MAX_VALUE - n).blocks(n * 8)
                .nlink(3 + n).dev(-1L - n).ino(Long.MIN_VALUE + n).rdev(0x1234_5678_9abcL + n).atime(-5_000_000_000L - n, 999_999_999)
                .mtime(5_000_000_000L + n, (int) n).ctime(7_000_000_000L + n, 999_999_998).build();
    }

    @Test
    void everyFieldAndNonUtf8NamesSurvivePacking() {
        byte[] dirPath = PathBytes.join(PathBytes.of("top"), NOT_UTF8);
        Entry dir = new Entry(dirPath, stat(FileType.DIRECTORY, 7), new FsXattr(0x200, 0, 0, 4242, 0));
        List<Entry> files = new ArrayList<>();
        FileType[] types = {FileType.FILE, FileType.SYMLINK, FileType.FIFO, FileType.CHAR_DEVICE, FileType.BLOCK_DEVICE, FileType.SOCKET};
        for (int i = 0; i < types.length; i++)
            files.add(new Entry(PathBytes.join(dirPath, i == 0 ? NOT_UTF8 : PathBytes.of("f" + i)), stat(types[i], 100 + i), null));
        files.add(new Entry(PathBytes.join(dirPath, PathBytes.of("with-project")), stat(FileType.FILE, 3), new FsXattr(0, 0, 0, -1, 0)));

        DirectoryBlock block = DirectoryBlock.fromBytes(DirectoryBlock.of(dirPath, dir, files).bytes());

        assertArrayEquals(dirPath, block.path());
        assertSame(dir, block.directory());
        List<Entry> back = block.files();
        assertEquals(files.size(), back.size());
        List<Entry> sorted = new ArrayList<>(files);
        sorted.sort((a, b) -> PathBytes.compare(a.name(), b.name()));
        for (int i = 0; i < sorted.size(); i++) assertSame(sorted.get(i), back.get(i));
        assertEquals(files.size() + 1, block.entryCount());
    }

    @Test
    void aBlockWithoutItsDirectoryHoldsFilesOnly() {
        Entry f = new Entry(PathBytes.of("a/x"), stat(FileType.FILE, 1), null);
        DirectoryBlock block = DirectoryBlock.of(PathBytes.of("a"), null, List.of(f));
        assertNull(block.directory());
        assertEquals(1, block.entryCount());
        assertSame(f, block.files().get(0));
    }

    @Test
    void corruptBytesAreRefused() {
        Entry f = new Entry(PathBytes.of("a/x"), stat(FileType.FILE, 1), null);
        byte[] bytes = DirectoryBlock.of(PathBytes.of("a"), null, List.of(f)).bytes();
        assertThrows(RuntimeException.class, () -> DirectoryBlock.fromBytes(Arrays.copyOf(bytes, bytes.length - 3)));
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DirectoryBlock.fromBytes(longer));
        assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
    }

    @Test
    void aSliceShipsItsOwnFilesOnly() throws Exception {
        List<Entry> files = new ArrayList<>();
        for (int i = 0; i < 1000; i++) files.add(new Entry(PathBytes.of(String.format("d/f%04d", i)), stat(FileType.FILE, i), null));
        DirectoryBlock block = DirectoryBlock.of(PathBytes.of("d"), null, files);
        List<int[]> spans = new ArrayList<>();
        block.forEachFile((e, start, end) -> spans.add(new int[]{start, end}));
        EntrySlice slice = block.slice(spans.get(10)[0], spans.get(19)[1], 10);

        byte[] shipped = serialize(slice);
        EntrySlice received = (EntrySlice) new ObjectInputStream(new ByteArrayInputStream(shipped)).readObject();

        assertTrue(shipped.length < block.bytes().length / 50, shipped.length + " bytes shipped for 10 of 1000 files");
        assertEquals(10, received.count());
        for (int i = 0; i < 10; i++) assertSame(files.get(10 + i), received.entries().get(i));
    }

    @Test
    void aListingOfSmallFilesTakesWellUnder200BytesPerEntry() {
        List<Entry> entries = new ArrayList<>();
        entries.add(new Entry(PathBytes.EMPTY, stat(FileType.DIRECTORY, 0), new FsXattr(0x200, 0, 0, 7, 0)));
        for (int d = 0; d < 100; d++) {
            byte[] dir = PathBytes.of(String.format("projects/group-%03d", d));
            entries.add(new Entry(dir, stat(FileType.DIRECTORY, d), new FsXattr(0x200, 0, 0, 7, 0)));
            for (int f = 0; f < 100; f++)
                entries.add(new Entry(PathBytes.join(dir, PathBytes.of(String.format("result-%05d.dat", f))), stat(FileType.FILE, f), null));
        }
        Listing listing = Listing.of(entries, List.<Failure>of());
        assertEquals(entries.size(), listing.entryCount());
        double perEntry = (double) listing.retainedBytes() / listing.entryCount();
        assertTrue(perEntry < 110, perEntry + " bytes per entry");
    }

    private static byte[] serialize(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static void assertSame(Entry expected, Entry actual) {
        Listings.assertSameEntry(expected, actual, false);
    }
}
