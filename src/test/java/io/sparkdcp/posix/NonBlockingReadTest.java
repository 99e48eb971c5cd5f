package io.sparkdcp.posix;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import static io.sparkdcp.posix.Linux.*;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A read that answers EAGAIN on a descriptor opened O_NONBLOCK clears the flag and waits. A file
 * system that honours the flag is hard to come by; /dev/kmsg honours it for real and supports pread:
 * at its end, with no new record, a non-blocking pread answers EAGAIN.
 */
@Tag("fast")
class NonBlockingReadTest {
    private static final Path KMSG = Path.of("/dev/kmsg");
    private static final int SEEK_END = 2;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anEagainClearsONonblockAndTheReadWaitsForTheData() throws Exception {
        assumeTrue(Files.isReadable(KMSG) && Files.isWritable(KMSG), "needs /dev/kmsg to read and write (root)");
        String marker = "spark-dcp-nonblocking-read-" + System.nanoTime();
        try (Fd dev = Posix.open(PathBytes.of("/dev"), O_RDONLY | O_DIRECTORY);
             Fd kmsg = Posix.openat(dev, PathBytes.of("kmsg"), O_RDONLY | O_NONBLOCK, 0)) {
            Posix.seek(kmsg, 0, SEEK_END); // past every record: the next read has nothing yet
            assertTrue(kmsg.nonBlocking());
            // Later than the pauses Posix gives other EAGAINs (about 1.3 s): only a blocking read sees it.
            Thread writer = new Thread(() -> {
                try {
                    Thread.sleep(2_500);
                    Files.writeString(KMSG, "<7>" + marker + "\n", StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
                } catch (InterruptedException | IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            NativeBuffer buf = new NativeBuffer(8192);
            String record;
            do { // a record the kernel logs meanwhile may come first
                int n = Posix.pread(kmsg, buf, buf.capacity(), 0);
                record = new String(buf.copyOut(0, n), StandardCharsets.US_ASCII);
            } while (!record.contains(marker));
            writer.join();
            assertFalse(kmsg.nonBlocking(), "the read cleared O_NONBLOCK");
        }
    }
}
