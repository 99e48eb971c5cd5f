package io.sparkdcp.job.exec;

import org.junit.jupiter.api.Tag;

/** {@link SpreadContract} on the driver's lists, their phases on this JVM's threads. */
@Tag("fast")
class LocalSpreadContractTest extends SpreadContract.Tests {
    @Override
    protected Listed listing(JobOptions options) {
        return new LocalPhaseRunner(2).list(options, message -> {}, block -> {}, 0);
    }

    @Override
    protected boolean lose(Spread<?> kept) { return false; }
}
