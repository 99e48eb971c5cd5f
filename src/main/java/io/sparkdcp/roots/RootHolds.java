package io.sparkdcp.roots;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a run keeps the roots its copies held ({@link HeldRoots}) until its report is out: the command
 * releases DST's lock only after it has written the report, so no run into, inside or above that DST
 * starts while the report still tells of it. Closing releases every hold.
 */
public final class RootHolds implements AutoCloseable {
    private final List<HeldRoots> held = new ArrayList<>();

    synchronized void keep(HeldRoots roots) {
        held.add(roots);
    }

    /** Releases {@code roots} at once when nobody keeps them ({@code holds} null), else when {@code holds} closes. */
    public static void release(HeldRoots roots, RootHolds holds) {
        if (holds == null) roots.close();
        else holds.keep(roots);
    }

    @Override
    public synchronized void close() {
        held.forEach(HeldRoots::close);
        held.clear();
    }
}
