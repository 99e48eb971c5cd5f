package io.sparkdcp.spark;

import io.sparkdcp.job.listing.ListingSummary;
import io.sparkdcp.copy.CopyCounts;
import io.sparkdcp.posix.Failure;
import io.sparkdcp.walk.SubtreeWalk;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What the driver keeps of the executors' walk: every error counted, the first ones in full. */
@Tag("fast")
class ListingSummaryTest {
    private static ListingSummary task(int errors, String prefix) {
        List<Failure> failures = IntStream.range(0, errors)
                .mapToObj(i -> new Failure(prefix + i, "openat", "EACCES", "Permission denied")).toList();
        return ListingSummary.of(new SubtreeWalk.Result(List.of(), List.of(), failures));
    }

    @Test
    void walkErrorsPastTheKeptOnesAreCountedAsFailuresOfTheCopy() {
        int kept = CopyCounts.MAX_FAILURES_KEPT;
        ListingSummary listing = ListingSummary.EMPTY.plus(task(kept + 1, "a")).plus(task(2, "b"));
        assertEquals(kept + 3, listing.errorCount());
        assertEquals(kept, listing.errors().size());
        assertFalse(listing.complete());

        CopyCounts counts = new CopyCounts();
        listing.addErrorsTo(counts, f -> new Failure(f.path(), f.op(), f.errno(), "destination: " + f.message()));
        assertEquals(kept + 3, counts.failed());
        assertEquals(kept, counts.failures().size());
        assertEquals(new Failure("a0", "openat", "EACCES", "destination: Permission denied"), counts.failures().get(0));
    }
}
