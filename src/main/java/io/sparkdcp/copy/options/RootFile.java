package io.sparkdcp.copy.options;

import io.sparkdcp.posix.PathBytes;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A source that is not a directory (a file, a symlink, a FIFO, a device): the copy's roots are then
 * the directories that hold it on each side, and its listing is this one entry, listed under its
 * name in DST. The names differ when DST itself becomes the file ({@code copy f.dat B}, B not a
 * directory), so the source side looks it up by its own name ({@link #sourcePath}).
 *
 * @param sourceName      its name in the source root
 * @param destinationName its name in the destination root, and the entry's path in the listing
 */
public record RootFile(byte[] sourceName, byte[] destinationName) implements Serializable {

    public RootFile {
        if (sourceName.length == 0 || destinationName.length == 0 || PathBytes.depth(sourceName) != 1
                || PathBytes.depth(destinationName) != 1)
            throw new IllegalArgumentException("a root file is one name on each side");
    }

    /** Where the entry listed at relPath is in the source root. */
    public byte[] sourcePath(byte[] relPath) {
        return Arrays.equals(relPath, destinationName) ? sourceName : relPath;
    }
}
