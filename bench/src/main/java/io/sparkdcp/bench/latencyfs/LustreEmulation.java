package io.sparkdcp.bench.latencyfs;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Linux;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the latency file system emulates of Lustre's layouts, so that a copy's layout handling can be
 * rehearsed without a Lustre server: {@code lustre.*} xattrs are kept here (the file system below has
 * no such namespace), a file created without O_LOV_DELAY_CREATE takes its directory's default layout
 * at once, a delayed one at its first write or truncate, and a {@code lustre.lov} set on a file that
 * has its layout is refused with EEXIST. (Lustre's client eats that EEXIST and returns 0, so there a
 * late set is lost silently; the emulation says it, so a test sees it.) Not listed by listxattr.
 */
final class LustreEmulation {
    static final String LOV = "lustre.lov";
    /** A plain layout as getxattr shows one: v1, RAID0, 1 MiB stripes, one stripe, offset chosen by the MDS. */
    static final byte[] DEFAULT_LAYOUT = defaultLayout();

    private final Map<String, Map<String, byte[]>> xattrs = new ConcurrentHashMap<>();
    /** Regular files whose layout can no longer change. */
    private final Set<String> fixed = ConcurrentHashMap.newKeySet();

    static boolean handles(String name) {
        return name.startsWith("lustre.");
    }

    /** A file made by create(2) with these open flags. */
    void created(String path, int flags) {
        if ((flags & Linux.O_LOV_DELAY_CREATE) == 0) instantiate(path);
    }

    /** Data reached the file (write, or a truncate to a non-zero size). */
    void written(String path) {
        if (!fixed.contains(path)) instantiate(path);
    }

    /** 0, or -errno. */
    int set(String path, String name, byte[] value, boolean directory) {
        if (name.equals(LOV) && !directory && !fixed.add(path)) return -Errno.EEXIST;
        xattrs.computeIfAbsent(path, p -> new ConcurrentHashMap<>()).put(name, value);
        return 0;
    }

    /** The value, or null (ENODATA). */
    byte[] get(String path, String name) {
        Map<String, byte[]> of = xattrs.get(path);
        return of == null ? null : of.get(name);
    }

    int remove(String path, String name) {
        Map<String, byte[]> of = xattrs.get(path);
        return of != null && of.remove(name) != null ? 0 : -Errno.ENODATA;
    }

    void renamed(String from, String to) {
        Map<String, byte[]> of = xattrs.remove(from);
        if (of != null) xattrs.put(to, of);
        else xattrs.remove(to);
        if (fixed.remove(from)) fixed.add(to);
        else fixed.remove(to);
    }

    /** A second name of a file: both names show one inode's xattrs and layout, as a hard link does. */
    void linked(String from, String to) {
        xattrs.put(to, xattrs.computeIfAbsent(from, p -> new ConcurrentHashMap<>()));
        if (fixed.contains(from)) fixed.add(to);
    }

    void removed(String path) {
        xattrs.remove(path);
        fixed.remove(path);
    }

    private void instantiate(String path) {
        fixed.add(path);
        int slash = path.lastIndexOf('/');
        byte[] inherited = get(slash <= 0 ? "/" : path.substring(0, slash), LOV);
        xattrs.computeIfAbsent(path, p -> new ConcurrentHashMap<>()).put(LOV, inherited != null ? inherited : DEFAULT_LAYOUT);
    }

    private static byte[] defaultLayout() {
        ByteBuffer b = ByteBuffer.allocate(32 + 24).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 0x0BD10BD0).putInt(4, 1).putInt(24, 1 << 20).putShort(28, (short) 1).putShort(30, (short) -1);
        return b.array();
    }
}
