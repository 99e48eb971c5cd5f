package io.sparkdcp.api;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.message.Message;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Sees every OutOfMemoryError of the driver JVM, on any thread: thrown to the top of a thread
 * (Spark's task-result-getter threads die that way, and the job then waits for ever), or caught
 * and logged by Spark or Netty (a task result that did not fit in direct memory is logged, then
 * retried as "TaskResultLost" until the stage fails). Two hooks, installed while anyone watches:
 * the JVM's default uncaught-exception handler (the one before is still called) and a log4j
 * filter that looks at each logged exception's causes and never drops a message.
 */
public final class OutOfMemoryWatch {
    private static final int MAX_CAUSES = 32;
    /** Replaced, never changed, so that reading it needs no iterator: the heap may be full. */
    @SuppressWarnings("unchecked")
    private static volatile Consumer<OutOfMemoryError>[] watchers = new Consumer[0];
    private static volatile Thread.UncaughtExceptionHandler previousHandler;
    private static final Thread.UncaughtExceptionHandler HANDLER = OutOfMemoryWatch::uncaught;
    /** A local copy's short class path has no log4j (nor Spark, whose errors the log filter is for). */
    private static final boolean LOG4J_CORE = present("org.apache.logging.log4j.core.LoggerContext");
    private static boolean logFilterInstalled;

    /** Loaded only where log4j-core is on the class path. */
    private static final class Log4j {
        static final LogFilter FILTER = new LogFilter();

        static boolean add() {
            if (!(LogManager.getContext(false) instanceof LoggerContext context)) return false;
            if (!FILTER.isStarted()) FILTER.start();
            context.getConfiguration().addFilter(FILTER);
            context.updateLoggers();
            return true;
        }

        static void remove() {
            if (LogManager.getContext(false) instanceof LoggerContext context) {
                Configuration config = context.getConfiguration();
                config.removeFilter(FILTER);
                context.updateLoggers();
            }
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, OutOfMemoryWatch.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private OutOfMemoryWatch() {}

    /** Calls {@code watcher} with each driver OutOfMemoryError until the returned registration is closed. */
    public static synchronized Registration watch(Consumer<OutOfMemoryError> watcher) {
        if (watchers.length == 0) install();
        Consumer<OutOfMemoryError>[] more = Arrays.copyOf(watchers, watchers.length + 1);
        more[watchers.length] = watcher;
        watchers = more;
        return new Registration(watcher);
    }

    /** A watcher's registration; closing the last one takes the hooks away again. */
    public static final class Registration implements AutoCloseable {
        private final Consumer<OutOfMemoryError> watcher;

        private Registration(Consumer<OutOfMemoryError> watcher) {
            this.watcher = watcher;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void close() {
            synchronized (OutOfMemoryWatch.class) {
                List<Consumer<OutOfMemoryError>> rest = new ArrayList<>(Arrays.asList(watchers));
                if (!rest.remove(watcher)) return;
                watchers = rest.toArray(new Consumer[0]);
                if (rest.isEmpty()) uninstall();
            }
        }
    }

    /** The first OutOfMemoryError among {@code t} and its causes, or null. Allocates nothing. */
    public static OutOfMemoryError find(Throwable t) {
        for (int i = 0; t != null && i < MAX_CAUSES; i++, t = t.getCause()) {
            if (t instanceof OutOfMemoryError oom) return oom;
        }
        return null;
    }

    private static void install() {
        previousHandler = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(HANDLER);
        if (LOG4J_CORE) logFilterInstalled = Log4j.add();
    }

    private static void uninstall() {
        if (Thread.getDefaultUncaughtExceptionHandler() == HANDLER) Thread.setDefaultUncaughtExceptionHandler(previousHandler);
        if (logFilterInstalled) Log4j.remove();
        logFilterInstalled = false;
    }

    private static void seen(Throwable t) {
        OutOfMemoryError oom = find(t);
        if (oom == null) return;
        Consumer<OutOfMemoryError>[] now = watchers;
        for (int i = 0; i < now.length; i++) {
            try {
                now[i].accept(oom);
            } catch (Throwable alsoOutOfMemory) { // the next watcher may still manage
            }
        }
    }

    private static void uncaught(Thread thread, Throwable t) {
        seen(t);
        Thread.UncaughtExceptionHandler previous = previousHandler;
        if (previous != null) {
            previous.uncaughtException(thread, t);
        } else { // what the JVM does without a handler (its ThreadGroup would call this one again)
            System.err.print("Exception in thread \"" + thread.getName() + "\" ");
            t.printStackTrace(System.err);
        }
    }

    /** Looks at the exception of every log call (also of loggers below their level); never decides. */
    private static final class LogFilter extends AbstractFilter {
        @Override
        public Result filter(Logger logger, Level level, Marker marker, Message msg, Throwable t) {
            seen(t);
            return Result.NEUTRAL;
        }

        @Override
        public Result filter(Logger logger, Level level, Marker marker, Object msg, Throwable t) {
            seen(t);
            return Result.NEUTRAL;
        }

        @Override
        public Result filter(Logger logger, Level level, Marker marker, String msg, Object... params) {
            if (params != null && params.length > 0 && params[params.length - 1] instanceof Throwable t) seen(t);
            return Result.NEUTRAL;
        }

        @Override
        public Result filter(LogEvent event) {
            seen(event.getThrown());
            return Result.NEUTRAL;
        }
    }
}
