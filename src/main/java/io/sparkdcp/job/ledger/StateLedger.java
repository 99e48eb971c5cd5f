package io.sparkdcp.job.ledger;

import io.sparkdcp.posix.Linux;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.roots.OutputPlaces;
import io.sparkdcp.roots.Roots;
import io.sparkdcp.roots.UsageException;
import io.sparkdcp.store.Store;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.DigestInputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state ledger's directory ({@code --state DIR}: a local path, or any path Hadoop reaches: {@link Store}), in
 * the project's own format, version {@value #VERSION}. The ledger is a cache, never an authority: a generation that is missing, partial, damaged,
 * another writer's or another version's is not used (the run says so once and writes a new one), and nothing in
 * it can make a run fail.
 *
 * <pre>
 * DIR/LOCK           held by the run that uses DIR ({@link StateLock}): one writer at a time
 * DIR/state-N        the generation in force (N: ten digits)
 * DIR/.writing-N     a generation being written; dropped by the next run that puts one in force
 *
 * state-N/HEADER     UTF-8 text, one field a line:
 *                      spark-dcp state ledger 3
 *                      writer pid P, host H, started T
 *                      fingerprint SHA-256 (hex) of {@link LedgerFingerprint#identity}: what decides "identical"
 *                      scope SHA-256 of {@link LedgerFingerprint#scope}: the filters
 *                      part NAME BYTES SHA-256     (one line a part file: its name, length and digest)
 *                      sha256 SHA-256 of every line above, newlines included
 * state-N/part-X     binary, big-endian: the magic "SDCPLDGR", the version (int), then per directory an int
 *                    length (greater than 0) and a {@link LedgerBlock}'s bytes, then an int 0, the block count
 *                    (long) and the SHA-256 of every byte before it
 * </pre>
 *
 * A generation counts only when its HEADER's digest holds, its version and fingerprint are this run's (its scope
 * may differ: other filters narrow what it proves, see {@link LedgerFingerprint}), and its
 * directory holds exactly the parts the HEADER names, of those lengths; each part's bytes are then checked
 * against both digests where it is read. A run writes its generation as {@code .writing-N}, each task one part
 * (written under a temporary name, fsynced, renamed), and the driver, once the whole run succeeded, writes the
 * HEADER from what the tasks handed back, fsyncs it and the generation's directory, renames it to
 * {@code state-N} and fsyncs DIR; then drops the older ones. A run that fails or is killed leaves the previous
 * generation in force, and a reader never takes a partial one. The fingerprint is a digest compared for
 * equality only: when another version of spark-dcp computes it differently, its ledger is not used.
 */
public final class StateLedger {
    static final int VERSION = 3;
    static final String FIRST_LINE_BEFORE_VERSION = "spark-dcp state ledger ";
    static final String FIRST_LINE = FIRST_LINE_BEFORE_VERSION + VERSION;
    private static final byte[] MAGIC = "SDCPLDGR".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGEST_BYTES = 32;
    private static final long MAX_HEADER = 64L << 20;
    private static final String HEADER = "HEADER";
    private static final String DONE = "state-";
    private static final String WRITING = ".writing-";
    private static final Pattern GENERATION = Pattern.compile("(state-|\\.writing-)(\\d{10})");
    private static final Pattern PART = Pattern.compile("part-[0-9a-f]{24}");
    /** Tests: a file made once the parts are written, after which the swap waits as long as this file exists. */
    static final String PAUSE_BEFORE_SWAP = "sparkdcp.test.state.pauseBeforeSwap";
    /** It holds the names of SRC's and DST's entries, and only its writer's user uses it. */
    private static final Store.Access ACCESS = Store.Access.OWNER;

    /** One part file as its writer left it: what the HEADER says of it. */
    public record Part(String name, long bytes, String sha256) implements Serializable {}

    /**
     * A generation found whole: its directory and its parts, each to be checked against its digest where it is read.
     *
     * @param sameScope whether it was made with this run's filters; if not, a hard-linked file is proven by none of its
     *                  records ({@link LedgerFingerprint#scope})
     */
    public record Generation(String path, List<Part> parts, boolean sameScope) implements Serializable {
        public Generation(String path, List<Part> parts) {
            this(path, parts, true);
        }
    }

    /** What a HEADER says that a run uses: its parts, and whether it was made with the run's filters. */
    record Header(List<Part> parts, boolean sameScope) {}

    /** Why a ledger is not used, in words that follow "the state ledger in DIR". */
    static final class Unusable extends Exception {
        Unusable(String why) {
            super(why);
        }
    }

    private StateLedger() {}

    /**
     * {@code --state DIR} before anything is written: made absolute where the driver runs, and on this machine's
     * file system outside every SRC and DST (a sync would copy or delete it there) and writable.
     */
    public static String check(String dir, List<Roots> pairs) {
        try {
            Store store = Store.of(dir);
            String qualified = store.qualify(dir);
            if (store.local()) OutputPlaces.checkDirectory("--state", PathBytes.of(qualified), pairs);
            return qualified;
        } catch (IOException e) {
            throw new UsageException("cannot check --state " + dir + ": " + e.getMessage());
        }
    }

    /**
     * The generation in force in {@code dir} when it is whole and was made with this {@code fingerprint}; null when
     * there is none, or (said once through {@code notice}) when it cannot be used: the run then writes a new one.
     */
    public static Generation current(String dir, LedgerFingerprint fingerprint, Consumer<String> notice) {
        try {
            Store store = Store.of(dir);
            String newest = store.exists(dir) ? newest(store, dir, DONE) : null;
            return newest == null ? null : open(store, newest, fingerprint);
        } catch (Unusable e) {
            notice.accept("notice: the state ledger in " + dir + " " + e.getMessage() + ": not used; this run writes a new one");
        } catch (IOException | RuntimeException e) {
            notice.accept("notice: the state ledger in " + dir + " cannot be read (" + e.getMessage() + "): not used; this run writes a new one");
        }
        return null;
    }

    /** The generation at {@code generation} when its HEADER holds and its directory holds exactly the parts it names. */
    static Generation open(Store store, String generation, LedgerFingerprint fingerprint) throws IOException, Unusable {
        List<Store.Listed> files = store.list(generation);
        Store.Listed header = files.stream().filter(f -> f.name().equals(HEADER)).findFirst().orElse(null);
        if (header == null) throw new Unusable("is incomplete (" + store.name(generation) + " has no HEADER)");
        if (header.bytes() > MAX_HEADER) throw new Unusable("is damaged (its HEADER is too long)");
        byte[] bytes;
        try (InputStream in = store.open(store.child(generation, HEADER))) {
            bytes = in.readAllBytes();
        }
        Header read = parseHeader(bytes, fingerprint);
        List<Part> parts = read.parts();
        Set<String> named = new HashSet<>();
        for (Part p : parts) named.add(p.name());
        for (Store.Listed s : files) {
            String name = s.name();
            if (name.equals(HEADER)) continue;
            if (!named.remove(name)) throw new Unusable("holds " + name + ", which its HEADER does not name (another writer's)");
            Part p = parts.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
            if (s.bytes() != p.bytes())
                throw new Unusable("is damaged (" + name + " has " + s.bytes() + " bytes, its HEADER says " + p.bytes() + ")");
        }
        if (!named.isEmpty()) throw new Unusable("is incomplete (" + named.iterator().next() + " is missing)");
        return new Generation(generation, parts, read.sameScope());
    }

    /** A HEADER's parts and scope, when its digest, version and identity hold. */
    static Header parseHeader(byte[] bytes, LedgerFingerprint fingerprint) throws Unusable {
        String text = new String(bytes, StandardCharsets.UTF_8);
        int firstEnd = text.indexOf('\n');
        String first = firstEnd < 0 ? text : text.substring(0, firstEnd);
        if (!first.equals(FIRST_LINE)) throw new Unusable(otherFormat(first));
        int last = text.lastIndexOf("sha256 ");
        if (last < 0 || !text.endsWith("\n") || !text.substring(last, text.length() - 1).equals("sha256 " + sha256(text.substring(0, last))))
            throw new Unusable("is damaged (its HEADER's digest does not hold)");
        List<Part> parts = new ArrayList<>();
        boolean fingerprinted = false;
        Boolean sameScope = null;
        for (String line : text.substring(firstEnd + 1, last).split("\n")) {
            String[] f = line.split(" ");
            if (f[0].equals("fingerprint") && f.length == 2) {
                if (!f[1].equals(sha256(fingerprint.identity())))
                    throw new Unusable("was made with other roots, other kept kinds or --contents, or by another user");
                fingerprinted = true;
            } else if (f[0].equals("scope") && f.length == 2 && sameScope == null) {
                sameScope = f[1].equals(sha256(fingerprint.scope()));
            } else if (f[0].equals("part") && f.length == 4 && PART.matcher(f[1]).matches()) {
                parts.add(new Part(f[1], Long.parseLong(f[2]), f[3]));
            } else if (!f[0].equals("writer")) {
                throw new Unusable("is damaged (its HEADER holds a line spark-dcp does not write: " + shown(line) + ")");
            }
        }
        if (!fingerprinted) throw new Unusable("is damaged (its HEADER has no fingerprint)");
        if (sameScope == null) throw new Unusable("is damaged (its HEADER has no scope)");
        return new Header(parts, sameScope);
    }

    /**
     * Why a HEADER whose first line is not this version's is refused: a ledger of an older or newer format (it is
     * not read; the run compares in full and writes one of this version), or not a ledger at all.
     */
    private static String otherFormat(String first) {
        if (first.startsWith(FIRST_LINE_BEFORE_VERSION)) {
            String version = first.substring(FIRST_LINE_BEFORE_VERSION.length());
            return version.matches("\\d{1,9}") ? "is of format version " + version + ", and this spark-dcp reads version " + VERSION
                    : "was written by another version of spark-dcp (" + shown(first) + ")";
        }
        return first.startsWith("spark-dcp") ? "was written by another version of spark-dcp (" + shown(first) + ")"
                : "is not a spark-dcp state ledger of version " + VERSION;
    }

    /** The HEADER of a generation of these parts, made with this fingerprint by this writer. */
    static byte[] header(LedgerFingerprint fingerprint, String writer, List<Part> parts) {
        StringBuilder s = new StringBuilder(FIRST_LINE).append('\n');
        s.append("writer ").append(writer.replace('\n', ' ')).append('\n');
        s.append("fingerprint ").append(sha256(fingerprint.identity())).append('\n');
        s.append("scope ").append(sha256(fingerprint.scope())).append('\n');
        List<Part> sorted = new ArrayList<>(parts);
        sorted.sort((a, b) -> a.name().compareTo(b.name()));
        for (Part p : sorted) s.append("part ").append(p.name()).append(' ').append(p.bytes()).append(' ').append(p.sha256()).append('\n');
        String body = s.toString();
        return (body + "sha256 " + sha256(body) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Starts a new generation beside the one in force: its directory, to which the tasks add parts. */
    public static String begin(String dir) {
        try {
            Store store = Store.of(dir);
            store.mkdirs(dir, ACCESS);
            long next = 1;
            for (Store.Listed s : store.list(dir)) {
                Matcher m = GENERATION.matcher(s.name());
                if (m.matches()) next = Math.max(next, Long.parseLong(m.group(2)) + 1);
            }
            String writing = store.child(dir, WRITING + String.format("%010d", next));
            store.mkdirs(writing, ACCESS);
            return writing;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state ledger in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * One task's blocks as a part of the generation being written, named after its first directory so that an
     * attempt run again replaces its earlier part; written under a temporary name, fsynced and renamed complete.
     * Returns what the HEADER says of it (null: no blocks, no part).
     */
    public static Part writePart(String writing, List<LedgerBlock> blocks) {
        if (blocks.isEmpty()) return null;
        List<LedgerBlock> sorted = new ArrayList<>(blocks);
        sorted.sort((a, b) -> Arrays.compareUnsigned(a.path(), b.path()));
        String name = "part-" + HexFormat.of().formatHex(sha256().digest(sorted.get(0).path()), 0, 12);
        try {
            Store store = Store.of(writing);
            String temporary = store.child(writing, "." + name + "." + java.util.UUID.randomUUID());
            String part = store.child(writing, name);
            MessageDigest digest = sha256();
            long length;
            try (Store.Output file = store.create(temporary, ACCESS)) {
                DataOutputStream out = new DataOutputStream(new DigestOutputStream(new BufferedOutputStream(file, 1 << 16), digest));
                out.write(MAGIC);
                out.writeInt(VERSION);
                for (LedgerBlock b : sorted) {
                    byte[] bytes = b.toBytes();
                    out.writeInt(bytes.length);
                    out.write(bytes);
                }
                out.writeInt(0);
                out.writeLong(sorted.size());
                out.write(((MessageDigest) digest.clone()).digest());
                out.flush();
                file.sync();
                length = out.size();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException(e);
            }
            // Durable with the generation's directory, which the commit fsyncs.
            store.rename(temporary, part);
            return new Part(name, length, HexFormat.of().formatHex(digest.digest()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state ledger in " + writing + ": " + e.getMessage(), e);
        }
    }

    /**
     * A part's blocks, once its bytes are proved to be the ones its HEADER names; an IOException says what is
     * wrong with them (the part is then not to be used, nor the ledger it belongs to).
     */
    public static List<LedgerBlock> readPart(Generation generation, Part part) throws IOException {
        Store store = Store.of(generation.path());
        MessageDigest digest = sha256();
        List<LedgerBlock> blocks = new ArrayList<>();
        try (InputStream raw = store.open(store.child(generation.path(), part.name()));
             DataInputStream in = new DataInputStream(new DigestInputStream(new BufferedInputStream(raw, 1 << 16), digest))) {
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) throw new IOException(part.name() + " is not a part of a spark-dcp state ledger");
            int version = in.readInt();
            if (version != VERSION) throw new IOException(part.name() + " is of version " + version + ", not " + VERSION);
            long read = MAGIC.length + 4;
            for (int length; (length = in.readInt()) != 0; ) {
                read += 4;
                if (length < 0 || length > part.bytes() - read) throw new IOException(part.name() + " is damaged (a block of " + length + " bytes)");
                byte[] bytes = new byte[length];
                in.readFully(bytes);
                read += length;
                blocks.add(LedgerBlock.fromBytes(bytes));
            }
            long count = in.readLong();
            byte[] before = ((MessageDigest) digest.clone()).digest();
            byte[] trailer = new byte[DIGEST_BYTES];
            in.readFully(trailer);
            if (count != blocks.size() || !Arrays.equals(before, trailer)) throw new IOException(part.name() + " is damaged (its digest does not hold)");
            if (in.read() != -1) throw new IOException(part.name() + " is damaged (bytes after its end)");
            if (!HexFormat.of().formatHex(digest.digest()).equals(part.sha256()))
                throw new IOException(part.name() + " is not the part its HEADER names");
            return blocks;
        } catch (EOFException e) {
            throw new IOException(part.name() + " is damaged (it ends early)", e);
        } catch (IllegalArgumentException e) {
            throw new IOException(part.name() + " is damaged (" + e.getMessage() + ")", e);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Puts the generation written in force: its HEADER (naming {@code parts}) written and fsynced with the
     * generation's directory, one rename, DIR fsynced; then drops the older ones and any left by a run that stopped.
     */
    public static void commit(String writing, LedgerFingerprint fingerprint, String writer, List<Part> parts) {
        try {
            Store store = Store.of(writing);
            Matcher m = GENERATION.matcher(store.name(writing));
            if (!m.matches() || !m.group(1).equals(WRITING)) throw new IllegalArgumentException("not a generation being written: " + writing);
            String dir = store.parent(writing);
            try (Store.Output out = store.create(store.child(writing, HEADER), ACCESS)) {
                out.write(header(fingerprint, writer, parts));
                out.sync();
            }
            store.makeDurable(writing);
            pauseForTests();
            String to = store.child(dir, DONE + m.group(2));
            store.rename(writing, to);
            store.makeDurable(dir);
            for (Store.Listed s : store.list(dir)) {
                Matcher g = GENERATION.matcher(s.name());
                if (g.matches() && !s.name().equals(store.name(to))) store.delete(store.child(dir, s.name()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot put the state ledger " + writing + " in force: " + e.getMessage(), e);
        }
    }

    /** Drops a generation that will not be put in force (the run failed). */
    public static void abandon(String writing) {
        try {
            Store.of(writing).delete(writing);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + writing + ": " + e.getMessage(), e);
        }
    }

    private static String newest(Store store, String dir, String kind) throws IOException {
        String newest = null;
        long highest = -1;
        for (Store.Listed s : store.list(dir)) {
            Matcher m = GENERATION.matcher(s.name());
            if (m.matches() && m.group(1).equals(kind) && Long.parseLong(m.group(2)) > highest) {
                highest = Long.parseLong(m.group(2));
                newest = store.child(dir, s.name());
            }
        }
        return newest;
    }

    private static String shown(String line) {
        return line.length() > 60 ? line.substring(0, 60) + "..." : line;
    }

    static String sha256(String text) {
        return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void pauseForTests() {
        String marker = System.getProperty(PAUSE_BEFORE_SWAP);
        if (marker == null) return;
        try {
            java.nio.file.Path file = java.nio.file.Path.of(marker);
            java.nio.file.Files.writeString(file, "paused");
            while (java.nio.file.Files.exists(file)) Thread.sleep(50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
