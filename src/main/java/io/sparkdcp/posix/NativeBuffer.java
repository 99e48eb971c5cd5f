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

    /** Puts length bytes of src, from srcOffset, at the start of the buffer (which must hold them). */
    void copyIn(byte[] src, int srcOffset, int length) {
        memory.put(0, src, srcOffset, length);
    }

    public byte[] copyOut(int offset, int length) {
        byte[] out = new byte[length];
        memory.get(offset, out, 0, length);
        return out;
    }
}
