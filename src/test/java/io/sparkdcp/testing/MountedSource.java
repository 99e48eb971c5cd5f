package io.sparkdcp.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test class's source tree on a fresh XFS mount, in {@code src}: made before the class's tests,
 * unmounted after them. Register with {@code @RegisterExtension}.
 */
public final class MountedSource implements BeforeAllCallback, AfterAllCallback {
    /** Fills the source directory; returns the rich tree it built, or null. */
    private interface Builder {
        RichTree build(Path src) throws Exception;
    }

    private final String name;
    private final long sizeMiB;
    private final boolean reflink;
    private final Builder builder;
    private final AtomicInteger destinations = new AtomicInteger();
    private LoopMount mount;
    private Path source;
    private RichTree tree;

    private MountedSource(String name, long sizeMiB, boolean reflink, Builder builder) {
        this.name = name;
        this.sizeMiB = sizeMiB;
        this.reflink = reflink;
        this.builder = builder;
    }

    /** Every kind of entry and metadata ({@link RichTree}). */
    public static MountedSource richTree(String name) {
        return richTree(name, 1024);
    }

    public static MountedSource richTree(String name, long sizeMiB) {
        return new MountedSource(name, sizeMiB, true, RichTree::build);
    }

    /** Many equal files in many directories, without reflink so that copies really move data. */
    public static MountedSource manyFiles(String name, int directories, int filesPerDirectory, int fileSize) {
        return new MountedSource(name, 1024, false, src -> {
            TreeFiles.buildMany(src, directories, filesPerDirectory, fileSize);
            return null;
        });
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        LoopMount.requireRootAndXfs();
        mount = reflink ? LoopMount.create(name, sizeMiB) : LoopMount.createWithoutReflink(name, sizeMiB);
        source = Files.createDirectory(mount.dir().resolve("src"));
        tree = builder.build(source);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (mount != null) mount.close();
    }

    public Path source() { return source; }

    public RichTree tree() {
        if (tree == null) throw new IllegalStateException(name + " holds no rich tree");
        return tree;
    }

    public LoopMount mount() { return mount; }

    /** A new name beside the source on the same file system (not created). */
    public Path newDestinationPath() {
        return mount.dir().resolve("dst" + destinations.incrementAndGet());
    }
}
