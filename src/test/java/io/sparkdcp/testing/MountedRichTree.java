package io.sparkdcp.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test class's source tree: a fresh XFS mount holding a {@link RichTree} in {@code src}, made
 * before the class's tests and unmounted after them. Register with {@code @RegisterExtension}.
 */
public final class MountedRichTree implements BeforeAllCallback, AfterAllCallback {
    private final String name;
    private final long sizeMiB;
    private final AtomicInteger destinations = new AtomicInteger();
    private LoopMount mount;
    private RichTree tree;

    public MountedRichTree(String name) {
        this(name, 1024);
    }

    public MountedRichTree(String name, long sizeMiB) {
        this.name = name;
        this.sizeMiB = sizeMiB;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create(name, sizeMiB);
        tree = RichTree.build(Files.createDirectory(mount.dir().resolve("src")));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (mount != null) mount.close();
    }

    public RichTree tree() { return tree; }

    public LoopMount mount() { return mount; }

    /** A new name beside the source on the same file system (not created). */
    public Path newDestinationPath() {
        return mount.dir().resolve("dst" + destinations.incrementAndGet());
    }
}
