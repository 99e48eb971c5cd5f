package io.sparkdcp.store;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which places are this machine's, and what the local store makes of them. */
@Tag("fast")
class LocalStoreTest {
    @TempDir
    Path tmp;

    @Test
    void aPlainPathOrAFileUriIsLocalAndAnyOtherSchemeIsNot() throws IOException {
        for (String local : List.of("state", "/abs/state", "./a:b", "dir/with:colon", "file:/abs", "file:///abs", "FILE:/abs", "file://localhost/abs"))
            assertTrue(Store.isLocal(local), local);
        for (String other : List.of("hdfs://namenode/state", "hdfs:/state", "s3a://bucket/state", "webhdfs://host/x", "a:b"))
            assertFalse(Store.isLocal(other), other);
        Store store = Store.of("file:/x");
        assertTrue(store.local());
        assertEquals("/abs/dir", store.qualify("file:///abs/dir"));
        assertEquals("/abs/dir", store.qualify("file:/abs/dir"));
        assertEquals("/abs/dir", store.qualify("file://localhost/abs/dir"));
        assertEquals(Path.of("rel").toAbsolutePath().toString(), store.qualify("rel"));
        IOException host = assertThrows(IOException.class, () -> store.qualify("file://elsewhere/abs"));
        assertTrue(host.getMessage().contains("names host elsewhere"), host.getMessage());
    }

    @Test
    void filesAreMadeWithTheirAccessAndReplacedByOneRename() throws IOException {
        Store store = Store.of(tmp.toString());
        String dir = store.child(tmp.toString(), "own/deeper");
        String file = store.child(dir, "f");
        try (Store.Output out = store.create(file, Store.Access.OWNER)) {
            out.write("first".getBytes());
            out.sync();
        }
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(dir))), "parents made with it");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(file))));
        assertThrows(FileAlreadyExistsException.class, () -> store.createNew(file, Store.Access.OWNER));
        String shared = store.child(tmp.toString(), "shared");
        try (Store.Output out = store.createNew(shared, Store.Access.SHARED)) {
            out.write("second".getBytes());
        }
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(shared))));
        store.rename(shared, file);
        try (InputStream in = store.open(file)) {
            assertArrayEquals("second".getBytes(), in.readAllBytes());
        }
        assertEquals(List.of(new Store.Listed("f", 6, false)), store.list(dir));
        store.makeDurable(file);
        store.makeDurable(dir);
        store.delete(store.child(tmp.toString(), "own"));
        assertFalse(store.exists(dir));
        store.delete(dir); // nothing there: nothing to do
    }

    @Test
    void aSymlinkAtTheNameWrittenIsNotWrittenThrough() throws IOException {
        Path target = Files.writeString(tmp.resolve("target"), "kept");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
        Store store = Store.of(tmp.toString());
        assertThrows(IOException.class, () -> store.create(link.toString(), Store.Access.SHARED));
        assertEquals("kept", Files.readString(target));
        store.delete(link.toString());
        assertTrue(Files.exists(target), "deleting a link leaves its target");
    }
}
