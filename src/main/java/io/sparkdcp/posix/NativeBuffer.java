package io.sparkdcp.posix;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;

/** A reusable direct buffer for calls that fill memory (xattr values, directory entries, read/write). Not thread-safe. */
public final class NativeBuffer {
    private Pointer memory;
    private int capacity;

    public NativeBuffer(int capacity) {
        allocate(capacity);
    }

    private void allocate(int size) {
        this.memory = Memory.allocateDirect(Posix.RUNTIME, size, false);
        this.capacity = size;
    }

    Pointer pointer() { return memory; }

    public int capacity() { return capacity; }

    /** Makes room for at least size bytes, dropping the old contents. */
    void ensure(long size) {
        if (size > capacity) allocate((int) Math.min(Integer.MAX_VALUE - 8, Math.max(size, 2L * capacity)));
    }

    public byte[] copyOut(int offset, int length) {
        byte[] out = new byte[length];
        memory.get(offset, out, 0, length);
        return out;
    }
}
