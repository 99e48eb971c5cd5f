package io.sparkdcp.walk;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of files of one directory, in packed form: on the driver a view into its {@link DirectoryBlock}'s
 * bytes (no copy of the listing), shipped to an executor as just its own bytes.
 */
public final class EntrySlice implements Serializable {
    private byte[] parent;
    private transient byte[] bytes;
    private transient int start;
    private transient int end;
    private int count;

    EntrySlice(byte[] parent, byte[] bytes, int start, int end, int count) {
        this.parent = parent;
        this.bytes = bytes;
        this.start = start;
        this.end = end;
        this.count = count;
    }

    public int count() { return count; }

    /** The files, decoded. */
    public List<Entry> entries() {
        EntryCodec.Reader r = new EntryCodec.Reader(bytes, start, end);
        List<Entry> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) out.add(r.entry(parent));
        return out;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeInt(end - start);
        out.write(bytes, start, end - start);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        bytes = new byte[in.readInt()];
        in.readFully(bytes);
        start = 0;
        end = bytes.length;
    }
}
