package io.sparkdcp.job.listing;

/**
 * Where the source is listed: on the driver by its threads, or by the executors in rounds of
 * subtrees (for trees too large for one node's metadata rate). Auto lists on the executors when
 * they may span several nodes (a cluster master), on the driver in local mode.
 */
public enum WalkMode {
    AUTO, DRIVER, DISTRIBUTED;

    public String word() { return name().toLowerCase(); }

    public static WalkMode parse(String word) {
        for (WalkMode m : values()) if (m.word().equals(word)) return m;
        throw new IllegalArgumentException("--walk must be auto, driver or distributed, not " + word);
    }
}
