package io.sparkdcp.testing;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This machine's files under a scheme of their own, {@value #SCHEME}: (registered in the tests' META-INF/services), so
 * that a place there goes through Hadoop's FileSystem as an hdfs: one would, and the tests see that it did.
 */
public final class OtherSchemeFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "otherfs";
    /** Files this JVM created through it. */
    public static final AtomicLong CREATED = new AtomicLong();

    /** {@code path} (absolute) as a place of this scheme. */
    public static String place(java.nio.file.Path path) {
        return SCHEME + "://" + path.toAbsolutePath();
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
                                     long blockSize, Progressable progress) throws IOException {
        CREATED.incrementAndGet();
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
                                     Progressable progress) throws IOException {
        CREATED.incrementAndGet();
        return super.create(f, overwrite, bufferSize, replication, blockSize, progress);
    }
}
