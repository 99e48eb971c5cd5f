package io.sparkdcp.plan;

import io.sparkdcp.walk.DirectoryBlock;
import io.sparkdcp.walk.Entry;
import io.sparkdcp.walk.EntrySlice;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One task's share of the non-directory entries: runs of files of the listing's directories in
 * packed form (views into the listing on the driver, so a plan holds no second copy of it), in
 * order of parent directory so consecutive entries reuse the same open directory pair.
 * {@code links} come after their targets' copies.
 */
public record FileBatch(int id, List<EntrySlice> slices, List<HardLink> links) implements Serializable {

    /** A batch of entries given as objects (tests, small trees), packed by parent directory. */
    public static FileBatch of(int id, List<Entry> entries, List<HardLink> links) {
        List<EntrySlice> slices = new ArrayList<>();
        int i = 0;
        while (i < entries.size()) {
            byte[] parent = entries.get(i).parent();
            int j = i + 1;
            while (j < entries.size() && Arrays.equals(entries.get(j).parent(), parent)) j++;
            slices.add(DirectoryBlock.of(parent, null, entries.subList(i, j)).slice());
            i = j;
        }
        return new FileBatch(id, slices, links);
    }

    /** The files, decoded: done by the task that copies them. */
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>(fileCount());
        for (EntrySlice s : slices) out.addAll(s.entries());
        return out;
    }

    public int fileCount() {
        int n = 0;
        for (EntrySlice s : slices) n += s.count();
        return n;
    }

    public int size() { return fileCount() + links.size(); }
}
