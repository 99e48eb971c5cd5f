package io.sparkdcp.copy;

import io.sparkdcp.posix.Errno;
import io.sparkdcp.posix.Fd;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.posix.Stat;
import io.sparkdcp.walk.Entry;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one create-or-replace sequence of every entry that is not a directory: create at once (a fresh
 * copy learns all it needs from that); when the name is taken, stat what is there and let the
 * {@link Decision} say: keep it, refuse, or remove it and create again.
 */
final class CreateOrReplace {
    /**
     * What is done with an entry the decision keeps: compare what a stat cannot tell, set the
     * metadata that differs, count it, and return the final decision (REPLACE when the data differs).
     */
    @FunctionalInterface
    interface Keeper {
        Decision keep(Entry e, Fd dir, Stat existing, Decision d, CopyCounts counts);
    }

    private final CopyContext ctx;

    CreateOrReplace(CopyContext ctx) { this.ctx = ctx; }

    /**
     * @param call   the create call, for the failure when the name is taken again after the removal
     * @param create makes the entry, or returns null when the name is taken
     * @return what create made, or null when the entry there was kept
     */
    <T> T run(Entry e, Fd dir, String call, Supplier<T> create, Keeper keeper, CopyCounts counts) {
        return run(e, dir, call, create, existing -> ctx.decide(e, existing), keeper, counts);
    }

    /** As {@link #run(Entry, Fd, String, Supplier, Keeper, CopyCounts)}, with another rule (hard links). */
    <T> T run(Entry e, Fd dir, String call, Supplier<T> create, Function<Stat, Decision> decide, Keeper keeper,
              CopyCounts counts) {
        T made = ctx.unlockingParent(dir, create);
        if (made != null) return made;
        Stat existing = ctx.statDestination(dir, e.name());
        if (existing != null) {
            Decision d = settle(e, dir, existing, decide.apply(existing), keeper, counts);
            if (d.keeps()) return null;
            unlockToReplace(dir, e.name(), existing, d);
            ctx.steps.time(Step.UNLINK, () -> ctx.unlockingParent(dir, () -> Posix.unlinkat(dir, e.name(), false)));
        }
        made = ctx.unlockingParent(dir, create);
        if (made == null) throw Posix.failure(call, Errno.EEXIST, e.path());
        return made;
    }

    /** An immutable or append-only entry to be replaced can be neither removed nor renamed over: cleared first. */
    void unlockToReplace(Fd dir, byte[] name, Stat existing, Decision d) {
        if (ctx.options.flags() && d.unlocksFirst(existing.locks())) ctx.unlock(dir, name);
    }

    /** Applies a decision on an existing entry: kept (by the keeper), refused (thrown), or to be replaced. */
    Decision settle(Entry e, Fd dir, Stat existing, Decision d, Keeper keeper, CopyCounts counts) {
        if (d.keeps()) d = keeper.keep(e, dir, existing, d, counts);
        if (d.kind() == Decision.Kind.REFUSE) throw d.refusal(e.stat(), e.path());
        return d;
    }
}
