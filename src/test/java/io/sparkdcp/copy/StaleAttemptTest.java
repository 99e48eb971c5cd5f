package io.sparkdcp.copy;

import io.sparkdcp.copy.options.CopyModes;
import io.sparkdcp.copy.options.CopyOptions;
import io.sparkdcp.copy.steps.Step;
import io.sparkdcp.copy.steps.StepRecorder;
import io.sparkdcp.testing.LocalCopy;
import io.sparkdcp.plan.Chunk;
import io.sparkdcp.plan.LargeFile;
import io.sparkdcp.posix.FileType;
import io.sparkdcp.posix.PathBytes;
import io.sparkdcp.posix.Posix;
import io.sparkdcp.testing.LoopMount;
import io.sparkdcp.testing.TreeComparator;
import io.sparkdcp.walk.Entry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two attempts of one batch at once, as Spark runs them when an executor cut off from its killed
 * worker keeps running its task while the retry runs elsewhere. The
 * older attempt is held at a chosen step, the newer one runs to its end or until it waits for the
 * older's lock on the file, then the older resumes or dies there (its finally blocks run, as in a task
 * Spark interrupts). Whatever the older one did, the file must end complete under its name, data and
 * times, as the newer attempt, whose result Spark keeps, reported it; and the older must have died
 * where it was told to, or ended counting only a copy it made.
 */
class StaleAttemptTest {
    /** Only bounds a hang: an attempt reaches the state the test waits for in milliseconds. */
    private static final long DEADLINE_SECONDS = 60;
    /** f is 300,000 bytes: three chunks of this size when it is copied in chunks. */
    private static final long CHUNK = 100_000;
    private static LoopMount mount;
    private static final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    static void mount() {
        LoopMount.requireRootAndXfs();
        mount = LoopMount.create("stale-attempt", LoopMount.MIN_SIZE_MIB);
    }

    @AfterAll
    static void unmount() {
        if (mount != null) mount.close();
    }

    /** The older attempt created the file and dies before its data: its clean-up must not remove the newer's copy. */
    @Test
    void anOlderAttemptDyingAfterItsCreateLeavesTheNewerAttemptsCopy() throws Exception {
        Case c = new Case(CopyModes.COPY, false);
        c.run(List.of(new Pause(Step.OPEN_SRC, Then.DIE)), Newer.RUNS_ALONE, Older.DIES);
    }

    /**
     * A copy over an older file, as sync makes it: the older attempt chose to replace the old file, then
     * waited before it opened it to claim it (its first open_dst).
     */
    @Test
    void anOlderAttemptThatChoseToReplaceAnOldFileNeverReplacesTheNewerAttemptsCopy() throws Exception {
        Case c = new Case(CopyModes.of(CopyModes.Mode.SYNC), true);
        c.run(List.of(new Pause(Step.OPEN_DST, Then.RESUME), new Pause(Step.TIMES, Then.DIE)), Newer.RUNS_ALONE, Older.COPIES_NOTHING);
    }

    /** The same resumed to its end: it must not count the newer attempt's copy, or any copy it did not make, as its own. */
    @Test
    void anOlderAttemptResumedToItsEndLeavesOneCompleteCopy() throws Exception {
        Case c = new Case(CopyModes.of(CopyModes.Mode.SYNC), true);
        c.run(List.of(new Pause(Step.OPEN_DST, Then.RESUME)), Newer.RUNS_ALONE, Older.COPIES_NOTHING);
    }

    /**
     * The older attempt chose to replace the old file, then waited; the retry claimed it and is writing
     * its own copy when the older one goes on: the old file is locked, so the older one waits, finds it
     * replaced by a finished copy and keeps that (unlocked, the older one would rename its own over it).
     */
    @Test
    void anOlderAttemptWaitsForTheFileTheRetryIsWriting() throws Exception {
        Case c = new Case(CopyModes.of(CopyModes.Mode.SYNC), true);
        // Its first open_dst: the one of the file there, to lock it and look again.
        PausingSteps olderSteps = new PausingSteps(List.of(new Pause(Step.OPEN_DST, Then.RESUME), new Pause(Step.TIMES, Then.DIE)));
        PausingSteps newerSteps = new PausingSteps(List.of(new Pause(Step.OPEN_SRC, Then.RESUME)));
        CompletableFuture<CopyCounts> older = c.attempt(olderSteps);
        olderSteps.awaitPause();
        CompletableFuture<CopyCounts> newer = c.attempt(newerSteps);
        newerSteps.awaitPause();
        olderSteps.goOn();
        // Unguarded, it would go on to replace the file and die before its times instead.
        awaitState(olderSteps::waitingForALock, older, "the older attempt waits for the lock of the file the retry is writing");
        newerSteps.goOn();
        c.check(newer, older, Older.COPIES_NOTHING);
    }

    /** A chunk task still running after the file's finish (its retry was done): it writes nothing, the times stay. */
    @Test
    void aChunkTaskArrivingAfterTheFinishLeavesTheFileAsFinished() throws Exception {
        Case c = new Case(CopyModes.COPY, false);
        try (CopyEngine engine = new CopyEngine(c.options, (step, nanos) -> {})) {
            LargeFile f = c.prepared(engine);
            List<Chunk> chunks = c.chunks(f);
            assertEquals(List.of(), engine.copyChunks(chunks).chunkFailures());
            assertEquals(List.of(), engine.finishLargeFiles(List.of(f)).counts().failures());
            assertEquals(List.of(), engine.copyChunks(chunks.subList(1, 2)).chunkFailures(), "the stale chunk task");
        }
        TreeComparator.assertSameEntry(c.src.resolve("f"), c.dst.resolve("f"));
    }

    /** A chunk task that is writing when the finish comes: the finish waits for it, so the times come last. */
    @Test
    void theFinishWaitsForAChunkTaskStillWriting() throws Exception {
        Case c = new Case(CopyModes.COPY, false);
        LockWatch engineSteps = new LockWatch();
        try (CopyEngine engine = new CopyEngine(c.options, engineSteps)) {
            LargeFile f = c.prepared(engine);
            List<Chunk> chunks = c.chunks(f);
            PausingSteps staleSteps = new PausingSteps(List.of(new Pause(Step.DATA, Then.RESUME)));
            CompletableFuture<BatchResult> stale = CompletableFuture.supplyAsync(() -> {
                try (CopyEngine own = new CopyEngine(c.options, staleSteps)) {
                    return own.copyChunks(chunks.subList(0, 1));
                }
            }, runnable -> new Thread(runnable, "stale chunk").start());
            staleSteps.awaitPause();
            assertEquals(List.of(), engine.copyChunks(chunks).chunkFailures(), "the retried chunks");
            CompletableFuture<BatchResult> finish = CompletableFuture.supplyAsync(() -> engine.finishLargeFiles(List.of(f)));
            awaitState(engineSteps::waitingForALock, finish, "the finish waits for the lock the chunk task holds");
            staleSteps.goOn();
            assertEquals(List.of(), stale.get(60, TimeUnit.SECONDS).chunkFailures());
            assertEquals(List.of(), finish.get(60, TimeUnit.SECONDS).counts().failures());
        }
        TreeComparator.assertSameEntry(c.src.resolve("f"), c.dst.resolve("f"));
    }

    /** Held just before its rename (the old file claimed), resumed or dying there: one complete copy, no temporary. */
    @Test
    void anOlderAttemptResumedOrDyingBeforeItsRenameLeavesACompleteCopy() throws Exception {
        CopyModes sync = CopyModes.of(CopyModes.Mode.SYNC);
        new Case(sync, true).run(List.of(new Pause(Step.RENAME, Then.RESUME)), Newer.WAITS_FOR_THE_OLDER, Older.COPIES_IT);
        new Case(sync, true).run(List.of(new Pause(Step.RENAME, Then.DIE)), Newer.WAITS_FOR_THE_OLDER, Older.DIES);
    }

    private enum Then { RESUME, DIE }

    /** What the newer attempt does while the older one is held: copies the file, or waits for the older's lock on it. */
    private enum Newer { RUNS_ALONE, WAITS_FOR_THE_OLDER }

    /** How the older attempt ends: dead where it was told to die, or counting no copy, or the copy it made. */
    private enum Older { DIES, COPIES_NOTHING, COPIES_IT }

    /** Polls until state holds; fails if the attempt ends first, or at the deadline. */
    private static void awaitState(BooleanSupplier state, CompletableFuture<?> attempt, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!state.getAsBoolean()) {
            assertFalse(attempt.isDone(), what + ", yet it ended: " + attempt);
            assertTrue(System.nanoTime() < deadline, what + " within " + DEADLINE_SECONDS + " s");
            Thread.sleep(1);
        }
    }

    /** The attempt stops before the nth call of step after the previous pause, then resumes or dies. */
    private record Pause(Step step, int nth, Then then) {
        Pause(Step step, Then then) { this(step, 1, then); }
    }

    /** Thrown in the older attempt where it dies. */
    private static final class AttemptDied extends RuntimeException {
        AttemptDied() { super("the attempt's executor stopped", null, false, false); }
    }

    private static final class Case {
        final Path src;
        final Path dst;
        final CopyOptions options;

        Case(CopyModes modes, boolean olderFileThere) throws IOException {
            Path dir = Files.createDirectory(mount.dir().resolve("case-" + cases.incrementAndGet()));
            src = Files.createDirectory(dir.resolve("src"));
            dst = Files.createDirectory(dir.resolve("dst"));
            byte[] data = new byte[300_000];
            new Random(7).nextBytes(data);
            Files.write(src.resolve("f"), data);
            Files.setLastModifiedTime(src.resolve("f"), FileTime.from(Instant.parse("2024-03-01T10:00:00.123456789Z")));
            if (olderFileThere) {
                Files.writeString(dst.resolve("f"), "an older version");
                Files.setLastModifiedTime(dst.resolve("f"), FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
            }
            options = CopyOptions.between(PathBytes.of(src.toString()), PathBytes.of(dst.toString()), LocalCopy.EVERYTHING, modes, CHUNK);
        }

        Entry file() {
            return new Entry(PathBytes.of("f"), Posix.lstat(PathBytes.of(src.resolve("f").toString())), null);
        }

        /** f created at its size for chunks, as the prepare step makes it. */
        LargeFile prepared(CopyEngine engine) {
            List<LargeFile> made = engine.prepareLargeFiles(List.of(file())).needChunks();
            assertEquals(1, made.size());
            return made.get(0);
        }

        List<Chunk> chunks(LargeFile f) {
            List<Chunk> out = new ArrayList<>();
            for (long at = 0; at < f.file().stat().size(); at += CHUNK)
                out.add(new Chunk(f.file(), at, Math.min(CHUNK, f.file().stat().size() - at), f.destinationIno(), f.temporary()));
            return out;
        }

        /** The older attempt held at its first pause while the retry runs to its end or to the older's lock, then let go on. */
        void run(List<Pause> pauses, Newer whileHeld, Older ends) throws Exception {
            PausingSteps olderSteps = new PausingSteps(pauses);
            CompletableFuture<CopyCounts> older = attempt(olderSteps);
            olderSteps.awaitPause();
            LockWatch newerSteps = new LockWatch();
            CompletableFuture<CopyCounts> newer = attempt(newerSteps);
            if (whileHeld == Newer.WAITS_FOR_THE_OLDER)
                awaitState(newerSteps::waitingForALock, newer, "the newer attempt waits for the older's lock on the file");
            else
                newer.get(DEADLINE_SECONDS, TimeUnit.SECONDS); // it needs nothing the older holds
            olderSteps.goOn();
            check(newer, older, ends);
        }

        /**
         * Both attempts ended: the retry counted the file once, and it is complete; the older died as told, or
         * counted only the copy it made (Spark keeps the newer's result alone, but a count that claims another's copy is wrong).
         */
        void check(CompletableFuture<CopyCounts> newer, CompletableFuture<CopyCounts> older, Older ends) throws Exception {
            CopyCounts counted = newer.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            try {
                CopyCounts olderCounted = older.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
                assertCountedOnce(olderCounted, "the older attempt");
                assertEquals(ends == Older.COPIES_IT ? 1 : 0, olderCounted.copied(FileType.FILE), "the older attempt's copies, expected " + ends);
            } catch (ExecutionException died) {
                assertInstanceOf(AttemptDied.class, died.getCause(), "the older attempt ended " + died.getCause() + ", expected " + ends);
                assertEquals(Older.DIES, ends, "the older attempt died");
            }

            assertCountedOnce(counted, "the newer attempt");
            TreeComparator.assertSameEntry(src.resolve("f"), dst.resolve("f"));
            try (var names = Files.list(dst)) {
                assertEquals(List.of("f"), names.map(p -> p.getFileName().toString()).toList(), "no temporary left");
            }
        }

        private static void assertCountedOnce(CopyCounts counts, String attempt) {
            assertEquals(List.of(), counts.failures(), attempt);
            assertEquals(1, counts.copied(FileType.FILE) + counts.skipped(FileType.FILE), attempt + " counts the file once");
        }

        CompletableFuture<CopyCounts> attempt(StepRecorder steps) {
            Entry f = file();
            return CompletableFuture.supplyAsync(() -> {
                try (CopyEngine engine = new CopyEngine(options, steps, ProgressRecorder.NONE, ItemLog.NONE)) {
                    return engine.copyFiles(List.of(f), List.of()).counts();
                }
            }, runnable -> new Thread(runnable, "attempt").start());
        }
    }

    /** An attempt's steps, watched for one thing: whether it is waiting for a file's lock (LOCK begun and not ended). */
    private static class LockWatch implements StepRecorder {
        private final AtomicInteger inLock = new AtomicInteger();

        @Override
        public void record(Step step, long nanos) {}

        @Override
        public long start(Step step) {
            if (step == Step.LOCK) inLock.incrementAndGet();
            return 0;
        }

        @Override
        public void stop(Step step, long start) {
            if (step == Step.LOCK) inLock.decrementAndGet();
        }

        boolean waitingForALock() { return inLock.get() > 0; }
    }

    /**
     * An attempt's steps: it stops before the first pause's step until the test lets it go on, then
     * resumes or dies there; at each later pause it resumes or dies at once.
     */
    private static final class PausingSteps extends LockWatch {
        private final List<Pause> pauses;
        private int next;
        private int seen;
        private final Semaphore paused = new Semaphore(0);
        private final Semaphore going = new Semaphore(0);

        PausingSteps(List<Pause> pauses) { this.pauses = pauses; }

        @Override
        public long start(Step step) {
            super.start(step);
            if (next >= pauses.size() || pauses.get(next).step() != step || ++seen < pauses.get(next).nth()) return 0;
            Pause p = pauses.get(next++);
            seen = 0;
            if (next == 1) {
                paused.release();
                going.acquireUninterruptibly();
            }
            if (p.then() == Then.DIE) throw new AttemptDied();
            return 0;
        }

        void awaitPause() throws InterruptedException {
            assertTrue(paused.tryAcquire(60, TimeUnit.SECONDS), "the attempt reached " + pauses.get(0).step());
        }

        void goOn() { going.release(); }
    }
}
