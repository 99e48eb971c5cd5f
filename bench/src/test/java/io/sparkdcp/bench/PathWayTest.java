package io.sparkdcp.bench;

import io.sparkdcp.copy.keep.MetadataAccess;
import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.report.CopyReport;
import io.sparkdcp.testing.Commands;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.testing.MountedSource;
import io.sparkdcp.testing.TreeComparator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bench's path way ({@link PathMetadataIO}), found by the engine through the bench's services
 * entry, on a real XFS holding every kind of entry: the same tree as the fd way, with its second opens.
 */
class PathWayTest {
    private static final CopyModes ATOMIC = CopyModes.of(CopyModes.Mode.ATOMIC);

    @RegisterExtension
    static final MountedSource source = MountedSource.richTree("pathway");

    private static Path newDestination() throws IOException {
        return Files.createDirectory(source.newDestinationPath());
    }

    private static CopyReport copy(LocalCopy how, Path dst) throws IOException {
        return how.run(source.tree().root(), dst);
    }

    private static List<Path> temporaries(Path dst) throws IOException {
        try (Stream<Path> s = Files.walk(dst)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".spark-dcp.")).toList();
        }
    }

    @Test
    void pathWayGivesTheSameTreeAsTheFdWay() throws IOException {
        Path byFd = newDestination();
        Path byPath = newDestination();
        copy(LocalCopy.defaults(), byFd);
        CopyReport report = copy(LocalCopy.defaults().withAccess(MetadataAccess.PATH), byPath);
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), byPath);
        TreeComparator.assertSameTree(byFd, byPath);
    }

    @Test
    void pathWayOpensEachFileASecondTimeOnBothSides() throws IOException {
        CopyReport byFd = copy(LocalCopy.defaults(), newDestination());
        CopyReport byPath = copy(LocalCopy.defaults().withAccess(MetadataAccess.PATH), newDestination());
        long files = byFd.counts().copied(FileType.FILE);
        assertEquals(files, byFd.steps().count(Step.OPEN_SRC));
        assertTrue(byPath.steps().count(Step.OPEN_SRC) >= 2 * files, "path way: a second source open per file");
        assertTrue(byPath.steps().count(Step.IOCTL_SET) > byFd.steps().count(Step.IOCTL_SET),
                "path way sets project IDs that the fd way knows were inherited");
    }

    /** The path way with --atomic sets xattrs and project IDs on the temporary, by its name in its directory. */
    @Test
    void atomicWithThePathWayGivesTheExactTree() throws IOException {
        LocalCopy byPath = LocalCopy.defaults().withModes(ATOMIC).withAccess(MetadataAccess.PATH);
        Path dst = newDestination();
        CopyReport report = byPath.run(source.tree().root(), dst);
        assertEquals(List.of(), report.counts().failures());
        TreeComparator.assertSameTree(source.tree().root(), dst);
        assertEquals(List.of(), temporaries(dst));
    }

    @Test
    void atomicWithThePathWayKeepsTheXattrsOfAFileReplacedByARerun() throws IOException {
        LocalCopy byPath = LocalCopy.defaults().withModes(ATOMIC).withAccess(MetadataAccess.PATH);
        Path src = Files.createDirectories(source.mount().dir().resolve("src-path-atomic"));
        Path file = Files.writeString(src.resolve("f"), "first");
        Commands.run("setfattr", "-n", "user.colour", "-v", "red", file.toString());
        Path dst = newDestination();
        assertEquals(List.of(), byPath.run(src, dst).counts().failures());
        Files.writeString(file, "second, longer");
        Commands.run("setfattr", "-n", "user.colour", "-v", "blue", file.toString());
        CopyReport again = byPath.run(src, dst);
        assertEquals(List.of(), again.counts().failures());
        assertEquals(1, again.counts().copied(FileType.FILE));
        TreeComparator.assertSameTree(src, dst);
        assertEquals("blue", Commands.run("getfattr", "--only-values", "-n", "user.colour", dst.resolve("f").toString()).trim());
    }
}
