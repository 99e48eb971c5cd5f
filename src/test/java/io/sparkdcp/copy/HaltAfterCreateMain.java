package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.walk.Entry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An --atomic copy of SRC/f to DST/f in a JVM of its own that stops dead, as SIGKILL stops it (no
 * finally block runs), right after its nth open_dst step returns. Args: SRC DST n [STEP]; n 0 never
 * stops; with STEP (a {@link Step} name) the copy is --inplace and stops after the nth STEP instead.
 * Exits 0 when the copy ended with no failure, 1 with one.
 */
public final class HaltAfterCreateMain {
    /** The exit status of a halted run. */
    static final int HALTED = 99;

    private HaltAfterCreateMain() {}

    /** Runs this class in a child JVM of the test's class path with jvmOptions and args; its exit status. */
    static int runInChild(List<String> jvmOptions, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path")));
        command.addAll(jvmOptions);
        command.add(HaltAfterCreateMain.class.getName());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the copy ends");
        return p.exitValue();
    }

    public static void main(String[] args) {
        byte[] src = PathBytes.of(args[0]);
        int haltAfter = Integer.parseInt(args[2]);
        boolean inPlace = args.length > 3;
        Step haltStep = inPlace ? Step.valueOf(args[3]) : Step.OPEN_DST;
        CopyOptions options = CopyOptions.between(src, PathBytes.of(args[1]), LocalCopy.EVERYTHING,
                CopyModes.COPY.with(CopyModes.Mode.ATOMIC, !inPlace).with(CopyModes.Mode.INPLACE, inPlace), 1 << 20);
        Entry f = new Entry(PathBytes.of("f"), Posix.lstat(PathBytes.join(src, PathBytes.of("f"))), null);
        try (CopyEngine engine = new CopyEngine(options, new HaltingSteps(haltStep, haltAfter))) {
            List<?> failures = engine.copyFiles(List.of(f), List.of()).counts().failures();
            System.exit(failures.isEmpty() ? 0 : 1);
        }
    }

    private static final class HaltingSteps implements StepRecorder {
        private final Step haltStep;
        private final int haltAfter;
        private int seen;

        HaltingSteps(Step haltStep, int haltAfter) {
            this.haltStep = haltStep;
            this.haltAfter = haltAfter;
        }

        @Override
        public void record(Step step, long nanos) {}

        /** Right after the nth haltStep (none of this test's throws). */
        @Override
        public void stop(Step step, long start) {
            if (step == haltStep && ++seen == haltAfter) Runtime.getRuntime().halt(HALTED);
        }
    }
}
