package io.sparkdcp.copy.options;

import java.io.Serializable;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * How the engine treats what it finds at the destination and how carefully it writes: the modes that
 * are on. A new mode is one {@link Mode}, its entry in {@link OptionTable} and the code that acts on it.
 *
 * @param on the modes given
 */
public record CopyModes(Set<Mode> on) implements Serializable {
    public static final CopyModes COPY = new CopyModes(Set.of());

    /** Each mode; its CLI word, its report key and whether it changes what counts as identical are in {@link OptionTable}. */
    public enum Mode {
        /**
         * An existing entry with the same data keeps it: only metadata that differs (owner, mode, times,
         * xattrs, project ID) is fixed, instead of replacing the entry.
         */
        SYNC,
        /** Data counts as the same only when the bytes are equal (not size and mtime alone). */
        CONTENTS,
        /**
         * {@code --atomic} was given: recorded in the report only, since every file is written where it has
         * no final name until complete (the engine's Temporaries).
         */
        ATOMIC,
        /** After each file, re-read both sides and compare CRC32C. */
        VERIFY,
        /** Data is made durable before the times are set. */
        FSYNC,
        /** {@code --update}: a file whose destination is a file with a newer mtime is left as it is. */
        UPDATE,
        /**
         * {@code --inplace}: a file is created under its final name and written there (no temporary, no
         * rename, no marker), so a run killed mid-file leaves a partial file, which differs from SRC's in
         * size or mtime (times are set last) and is copied again by the next run.
         */
        INPLACE;

        /** The mode a CLI word names: the command {@code sync}, or an option's name without its dashes. */
        public static Mode of(String word) {
            return OptionTable.modeOf(word);
        }

        public String reportKey() {
            return OptionTable.of(this).reportKey();
        }
    }

    public CopyModes {
        on = on.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(on));
    }

    public static CopyModes of(Mode... modes) {
        return new CopyModes(Set.copyOf(Arrays.asList(modes)));
    }

    public boolean has(Mode mode) {
        return on.contains(mode);
    }

    /** These modes with {@code mode} turned on or off. */
    public CopyModes with(Mode mode, boolean turnedOn) {
        EnumSet<Mode> modes = on.isEmpty() ? EnumSet.noneOf(Mode.class) : EnumSet.copyOf(on);
        if (turnedOn) modes.add(mode);
        else modes.remove(mode);
        return new CopyModes(modes);
    }

    public boolean sync() { return has(Mode.SYNC); }

    public boolean compareContents() { return has(Mode.CONTENTS); }

    public boolean atomic() { return has(Mode.ATOMIC); }

    public boolean verify() { return has(Mode.VERIFY); }

    public boolean fsync() { return has(Mode.FSYNC); }

    public boolean update() { return has(Mode.UPDATE); }

    public boolean inPlace() { return has(Mode.INPLACE); }
}
