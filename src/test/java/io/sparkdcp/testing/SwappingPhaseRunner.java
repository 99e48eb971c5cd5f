package io.sparkdcp.testing;

import io.sparkdcp.copy.BatchResult;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.job.exec.PhaseRunner;
import io.sparkdcp.job.exec.TaskWork;

import java.util.List;

/** Runs phases through another runner and, once, does something to the trees just before a chosen phase: a race made repeatable. */
public final class SwappingPhaseRunner implements ForwardingPhaseRunner {
    private final PhaseRunner delegate;
    private final String phasePrefix;
    private Runnable before;

    public SwappingPhaseRunner(PhaseRunner delegate, String phasePrefix, Runnable before) {
        this.delegate = delegate;
        this.phasePrefix = phasePrefix;
        this.before = before;
    }

    @Override
    public PhaseRunner delegate() { return delegate; }

    @Override
    public <T> List<BatchResult> run(String phase, List<T> tasks, CopyOptions options, TaskWork<T> work) {
        if (before != null && phase.startsWith(phasePrefix)) {
            before.run();
            before = null;
        }
        return delegate.run(phase, tasks, options, work);
    }

    /** Whether the swap has happened. */
    public boolean swapped() { return before == null; }
}
