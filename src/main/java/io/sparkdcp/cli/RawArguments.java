package io.sparkdcp.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Arguments that are not UTF-8. The JVM decodes its arguments as UTF-8 and puts U+FFFD for each byte
 * it cannot decode, so such a SRC or DST named another path ("does not exist", or worse, a new DST of
 * another name) and such a pattern matched other names. The real bytes are in /proc/self/cmdline, the
 * JVM's arguments last; only an argument holding U+FFFD is looked up there.
 */
final class RawArguments {
    private static final Path CMDLINE = Path.of("/proc/self/cmdline");

    private RawArguments() {}

    /** The usage error for the first argument that is not UTF-8, or null when they all are. */
    static String refusal(String[] args) {
        List<byte[]> raw = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].indexOf('\uFFFD') < 0) continue;
            if (raw == null) raw = tail(args.length);
            byte[] bytes = raw == null ? null : raw.get(i);
            if (bytes == null || !isUtf8(bytes) || !new String(bytes, StandardCharsets.UTF_8).equals(args[i]))
                return "argument " + (bytes == null ? args[i] : shown(bytes)) + " is not UTF-8, which the JVM cannot"
                        + " take unchanged from a command line; --files-from and --exclude-from files take any bytes";
        }
        return null;
    }

    /** The last n arguments of this process, or null when /proc cannot tell. */
    private static List<byte[]> tail(int n) {
        try {
            byte[] all = Files.readAllBytes(CMDLINE);
            List<byte[]> parts = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] != 0) continue;
                parts.add(Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
            return parts.size() < n ? null : parts.subList(parts.size() - n, parts.size());
        } catch (IOException e) {
            return null;
        }
    }

    /** Printable ASCII as it is, other bytes as \xNN (the cli reaches no further than the api, so not PathBytes.display). */
    private static String shown(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length + 16);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\') sb.append((char) c);
            else sb.append(String.format("\\x%02x", c));
        }
        return sb.toString();
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
