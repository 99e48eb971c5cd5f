package io.sparkdcp.roots;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a run keeps the roots its copies held ({@link HeldRoots}) until its report is out: the command
 * releases DST's lock only after it has written the report, so no run into, inside or above that DST
 * starts while the report still tells of it; the state DIR's lock is kept the same way. Closing releases every hold.
 */
public final class RootHolds implements AutoCloseable {
    /** A lock of the run's: DST's roots, or the state DIR's. */
    public interface Hold {
        void close();
    }

    private final List<Hold> held = new ArrayList<>();

    synchronized void keep(Hold hold) {
        held.add(hold);
    }

    /** Releases {@code hold} at once when nobody keeps it ({@code holds} null), else when {@code holds} closes. */
    public static void release(Hold hold, RootHolds holds) {
        if (holds == null) hold.close();
        else holds.keep(hold);
    }

    /**
     * Releases the DST locks of this run's earlier pairs, before the next pair takes its own: a later pair's DST
     * may enclose an earlier one's (a file beside a directory goes into the directory's parent), and the run's own
     * locks must not refuse it. The state DIR's lock stays.
     */
    public synchronized void releaseEarlierRoots() {
        held.removeIf(hold -> {
            if (!(hold instanceof HeldRoots)) return false;
            hold.close();
            return true;
        });
    }

    @Override
    public synchronized void close() {
        held.forEach(Hold::close);
        held.clear();
    }
}
