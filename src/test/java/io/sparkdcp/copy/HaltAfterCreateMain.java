package io.sparkdcp.copy;

import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.walk.Entry;

import java.util.List;

/**
 * An --atomic copy of SRC/f to DST/f in a JVM of its own that stops dead, as SIGKILL stops it (no
 * finally block runs), right after its nth open_dst step returns. Args: SRC DST n; n 0 never stops.
 * Exits 0 when the copy ended with no failure, 1 with one.
 */
public final class HaltAfterCreateMain {
    /** The exit status of a halted run. */
    static final int HALTED = 99;

    private HaltAfterCreateMain() {}

    public static void main(String[] args) {
        byte[] src = PathBytes.of(args[0]);
        int haltAfter = Integer.parseInt(args[2]);
        CopyOptions options = new CopyOptions(src, PathBytes.of(args[1]), XattrPolicy.all(), MetadataAccess.FD, true, 1 << 20,
                new CopyModes(false, false, true, false, false));
        Entry f = new Entry(PathBytes.of("f"), Posix.lstat(PathBytes.join(src, PathBytes.of("f"))), null);
        try (CopyEngine engine = new CopyEngine(options, new HaltingSteps(haltAfter))) {
            List<?> failures = engine.copyFiles(List.of(f), List.of()).counts().failures();
            System.exit(failures.isEmpty() ? 0 : 1);
        }
    }

    private static final class HaltingSteps implements StepRecorder {
        private final int haltAfter;
        private int opens;

        HaltingSteps(int haltAfter) { this.haltAfter = haltAfter; }

        @Override
        public void record(Step step, long nanos) {}

        /** Right after the nth destination open (none of this test's throws). */
        @Override
        public void stop(Step step, long start) {
            if (step == Step.OPEN_DST && ++opens == haltAfter) Runtime.getRuntime().halt(HALTED);
        }
    }
}
