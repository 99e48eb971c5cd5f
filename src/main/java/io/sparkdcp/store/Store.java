package io.sparkdcp.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where the state ledger, the item log and a saved listing keep their files: a plain path or a {@code file:} URI is
 * this machine's file system, read and written with the project's own IO ({@link LocalStore}); any other scheme
 * ({@code hdfs:}, an object store's) goes through Hadoop's FileSystem ({@link HadoopStore}), whose classes a local
 * location never loads. Locations are strings: an absolute path for a local store, a qualified URI for Hadoop's.
 */
public interface Store {
    /** A URI scheme (RFC 3986) and its colon, before any slash: what Hadoop's Path reads as a scheme too. */
    Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*):");

    /** Who may read what is written: everyone (0644 files, 0755 directories) or the owner alone (0600, 0700); the umask applies. */
    enum Access { SHARED, OWNER }

    /** One name of a directory. */
    record Listed(String name, long bytes, boolean directory) {}

    /** A file being written: {@link #sync} makes what was written durable before it is closed. */
    final class Output extends OutputStream {
        /** What sync and close do beyond the stream's own flush. */
        interface Action {
            void run() throws IOException;
        }

        private final OutputStream out;
        private final Action sync;
        private final Action close;

        /** Bytes to out; sync makes what was written durable, close ends the file. */
        Output(OutputStream out, Action sync, Action close) {
            this.out = out;
            this.sync = sync;
            this.close = close;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        public void sync() throws IOException {
            sync.run();
        }

        @Override
        public void close() throws IOException {
            close.run();
        }
    }

    /** The store of {@code location}: this machine's own for a plain path or a {@code file:} URI, else Hadoop's. */
    static Store of(String location) throws IOException {
        return isLocal(location) ? LocalStore.INSTANCE : new HadoopStore(location);
    }

    /** Whether {@code location} is on this machine's file system: no scheme, or {@code file:}. */
    static boolean isLocal(String location) {
        var m = SCHEME.matcher(location);
        return !m.find() || m.group(1).equalsIgnoreCase("file");
    }

    /** Whether this is this machine's file system: then {@link #qualify} gives a plain absolute path. */
    boolean local();

    /** {@code location} made absolute where this JVM runs (tasks elsewhere have other working directories). */
    String qualify(String location) throws IOException;

    String child(String dir, String name);

    /** The last name of {@code path}. */
    String name(String path);

    String parent(String path);

    boolean exists(String path) throws IOException;

    boolean isDirectory(String path) throws IOException;

    /** The names in {@code dir}, in no order. */
    List<Listed> list(String dir) throws IOException;

    InputStream open(String file) throws IOException;

    /** {@code file} made or truncated, its missing parents made with the same access. */
    Output create(String file, Access access) throws IOException;

    /** {@code file} made only when it is not there; else {@link FileAlreadyExistsException}. */
    Output createNew(String file, Access access) throws IOException;

    /** {@code dir} and its missing parents. */
    void mkdirs(String dir, Access access) throws IOException;

    /** One rename, replacing a file at {@code to}. */
    void rename(String from, String to) throws IOException;

    /** {@code path} and all under it; nothing when it is not there. */
    void delete(String path) throws IOException;

    /** A file's bytes or a directory's names (a rename in it) made durable; nothing where the store's sync has done it. */
    void makeDurable(String path) throws IOException;
}
