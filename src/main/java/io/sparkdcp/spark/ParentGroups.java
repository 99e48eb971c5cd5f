package io.sparkdcp.spark;

import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.job.PathKey;
import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Two listings on the executors keyed by the directory each entry is named in, for a co-group that
 * sees one directory's entries on both sides at once: a block's files under its own path, and each
 * directory's own entry under its parent's (the root's under its own, with its entries).
 */
final class ParentGroups {
    private ParentGroups() {}

    /** What sits in one directory's group. */
    enum Part { SOURCE_FILES, SOURCE_DIRECTORY, DESTINATION_FILES, DESTINATION_DIRECTORY, DELETED }

    /** A side's block of files, or one entry (a side's subdirectory, or a deletion). */
    record Side(Part part, DirectoryBlock files, Entry entry) implements Serializable {}

    static JavaPairRDD<PathKey, Side> byParent(JavaRDD<DirectoryBlock> blocks, boolean source) {
        return blocks.flatMapToPair(b -> {
            List<Tuple2<PathKey, Side>> out = new ArrayList<>(2);
            out.add(new Tuple2<>(new PathKey(b.path()), new Side(source ? Part.SOURCE_FILES : Part.DESTINATION_FILES, b, null)));
            Entry directory = b.directory();
            if (directory != null)
                out.add(new Tuple2<>(parentKey(directory), new Side(source ? Part.SOURCE_DIRECTORY : Part.DESTINATION_DIRECTORY, null, directory)));
            return out.iterator();
        });
    }

    /** The directory an entry is named in; the root's own. */
    static PathKey parentKey(Entry e) {
        return new PathKey(e.isRoot() ? PathBytes.EMPTY : e.parent());
    }
}
