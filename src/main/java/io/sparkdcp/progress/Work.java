package io.sparkdcp.progress;

import java.io.Serializable;

/**
 * An amount of copy work: entries, and bytes of file data (holes not counted), either done so far or in total.
 *
 * <p>A total is the listing's, each file's data bytes as its stat tells them. What is done moves the total too:
 * a file kept as it is, or one that failed, takes its bytes out (they are not copied after all), and a file whose
 * data turned out other than its stat said moves it by the difference. {@code replannedBytes} is that move, summed
 * over the work done, so that at the end the bytes done and the total are both the bytes copied.
 *
 * @param replannedBytes what this work done moved the total's bytes by (negative: less to copy); zero in a total
 */
public record Work(long entries, long bytes, long replannedBytes) implements Serializable {
    public static final Work NONE = new Work(0, 0);

    public Work(long entries, long bytes) {
        this(entries, bytes, 0);
    }

    public Work plus(Work other) {
        return new Work(entries + other.entries, bytes + other.bytes, replannedBytes + other.replannedBytes);
    }

    /** The listed total as this work done has moved it: {@code this} is a total, {@code done} what was done of it. */
    public Work replannedBy(Work done) {
        return new Work(entries, bytes + done.replannedBytes);
    }
}
