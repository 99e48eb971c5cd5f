package io.sparkdcp.itemlog;

import io.sparkdcp.copy.ItemLog.Action;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The log's line format: any name is one line and one field, and reads back to its bytes. */
@Tag("fast")
class ItemLineTest {
    private static final byte[][] NAMES = {
            PathBytes.of("plain/name.txt"), PathBytes.of("tab\there"), PathBytes.of("new\nline"), PathBytes.of("back\\slash"),
            PathBytes.of("looks\\x41escaped"), {'n', (byte) 0xff, 'g', (byte) 0xc3}, PathBytes.of("ünïcödé/日本"),
            {'c', 'r', '\r', 0x7f, 0x01}, PathBytes.of("space at end ")};

    @Test
    void everyNameIsOneLineAndOneFieldAndReadsBackToItsBytes() {
        for (byte[] name : NAMES) {
            String line = ItemLine.of(Action.COPIED, FileType.FILE, PathBytes.EMPTY, name, null).format();
            assertFalse(line.contains("\n") || line.contains("\r"), line);
            assertEquals(3, line.split("\t", -1).length, line);
            assertArrayEquals(name, ItemLine.parse(line).path(), line);
        }
    }

    @Test
    void failuresCarryTheirCallErrnoAndMessageAndPathsGoUnderTheSourcesName() {
        Failure f = new Failure("x", "openat", "EACCES", "Permission denied");
        ItemLine line = ItemLine.parse(ItemLine.of(Action.FAILED, FileType.DIRECTORY, PathBytes.of("a"), PathBytes.of("d/x"), f).format());
        assertEquals(List.of("failed", "directory", "a/d/x", List.of("openat", "EACCES", "Permission denied")),
                List.of(line.action(), line.what(), PathBytes.display(line.path()), line.details()));
        assertEquals("failed\t-\ta\tdelete\t-\trefused:\\x09why", ItemLine.ofJobFailure(PathBytes.of("a"),
                new Failure(".", "delete", "", "refused:\twhy")).format());
        assertEquals("copied\tdirectory\t.", ItemLine.of(Action.COPIED, FileType.DIRECTORY, PathBytes.EMPTY, PathBytes.EMPTY, null).format());
        assertArrayEquals(NAMES[5], ItemLine.ofJobFailure(PathBytes.EMPTY, new Failure(PathBytes.display(NAMES[5]), "openat", "EIO", "")).path());
    }
}
