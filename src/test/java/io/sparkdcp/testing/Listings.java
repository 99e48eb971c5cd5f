package io.sparkdcp.testing;

import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.FsXattr;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.Listing;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Compares listings entry by entry (entries hold arrays, so records' equals would compare identity). */
public final class Listings {
    private Listings() {}

    /** Same entries with the same metadata. A directory's atime may differ: listing it is a read. */
    public static void assertSameListing(Listing expected, Listing actual) {
        List<Entry> a = expected.entries(), b = actual.entries();
        assertEquals(a.size(), b.size(), "entries");
        for (int i = 0; i < a.size(); i++) assertSameEntry(a.get(i), b.get(i), a.get(i).type() == FileType.DIRECTORY);
        assertEquals(expected.errors(), actual.errors());
    }

    public static void assertSameEntry(Entry expected, Entry actual, boolean ignoreAtime) {
        assertArrayEquals(expected.path(), actual.path(), expected.display());
        assertEquals(ignoreAtime ? withoutAtime(expected.stat()) : expected.stat(),
                ignoreAtime ? withoutAtime(actual.stat()) : actual.stat(), expected.display());
        FsXattr p = expected.project(), q = actual.project();
        if (p == null) assertNull(q, expected.display());
        else {
            assertEquals(p.projid(), q.projid(), expected.display());
            assertEquals(p.projInherit(), q.projInherit(), expected.display());
        }
    }

    private static Stat withoutAtime(Stat s) {
        return s.toBuilder().atime(0, 0).locks(0).build();
    }
}
