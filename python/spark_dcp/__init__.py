"""spark-dcp from a PySpark session: copy, sync and compare POSIX trees, keeping all their metadata.

    from pyspark.sql import SparkSession
    import spark_dcp

    spark = spark_dcp.configure(SparkSession.builder.master("local[2]")).getOrCreate()
    result = spark_dcp.copy(spark, "/data/src/", "/data/dst", exclude=["*.tmp"], bwlimit="200M")
    result.exit_code, result.report["copied"]

The runs are the CLI's (``spark-dcp copy``, ``sync``, ``compare``) on the session's own SparkContext:
keyword options are the CLI's long options in snake case, checked by the CLI's own parser, so a bad
value is the CLI's message (a ValueError) and the exit codes and reports are the CLI's.
"""

import json
import os
import sys
import threading
import time

from spark_dcp._results import CompareResult, CopyResult, DryRunResult

__all__ = ["configure", "jar", "copy", "sync", "compare", "SessionError", "CopyResult", "CompareResult", "DryRunResult"]
__version__ = "0.1.0"

_JAR_NAME = "spark-dcp-app.jar"
_ENTRY = "io.sparkdcp.cli.SessionCommand"
# Running tasks' progress reaches the driver with executor heartbeats (Spark's default: every 10 s).
# Spark's console progress bar would go to the JVM's stderr (a notebook's terminal) and interleave with spark-dcp's.
_SESSION_DEFAULTS = {"spark.executor.heartbeatInterval": "2s", "spark.speculation": "false", "spark.ui.showConsoleProgress": "false"}


class SessionError(RuntimeError):
    """The session cannot run spark-dcp: a Spark Connect session, or one without the spark-dcp jar."""


def jar():
    """The path of the jar a session needs (spark-dcp with jnr-ffi and picocli; Spark provides the rest).

    In this order: $SPARK_DCP_JAR, the copy installed with this package, then $SPARK_DCP_HOME's
    lib/ (an unpacked distribution) or target/ (a clone built with mvn package).
    """
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [("SPARK_DCP_JAR", os.environ.get("SPARK_DCP_JAR"))]
    candidates.append(("the package", os.path.join(here, "jars", _JAR_NAME)))
    home = os.environ.get("SPARK_DCP_HOME")
    if home:
        candidates += [("SPARK_DCP_HOME", os.path.join(home, d, _JAR_NAME)) for d in ("lib", "target")]
    for _, path in candidates:
        if path and os.path.isfile(path):
            return os.path.abspath(path)
    raise FileNotFoundError(
        f"spark-dcp: no {_JAR_NAME} found (looked in: "
        + ", ".join(f"{where} {path}" for where, path in candidates if path)
        + "); build it with 'mvn package' in a clone and reinstall this package, or set SPARK_DCP_JAR or SPARK_DCP_HOME"
    )


def configure(builder):
    """Adds spark-dcp's jar (to spark.jars, after any already there) and its defaults to a SparkSession builder.

    Returns the builder, as delta-spark's configure_spark_with_delta_pip does:
    ``spark = spark_dcp.configure(SparkSession.builder.master("local[2]")).getOrCreate()``.
    Settings already on the builder win over the defaults (heartbeats every 2 s, for progress; no speculation,
    no console progress bar).
    """
    options = getattr(builder, "_options", {})
    jars = [j for j in str(options.get("spark.jars", "")).split(",") if j]
    if jar() not in jars:
        jars.append(jar())
    builder = builder.config("spark.jars", ",".join(jars))
    for key, value in _SESSION_DEFAULTS.items():
        if key not in options:
            builder = builder.config(key, value)
    return builder


def copy(spark, src, dst, **options):
    """``spark-dcp copy SRC... DST`` on the session: src is one source or a list (rsync's rule for a trailing /).

    Keywords are copy's long options in snake case (``exclude=["*.tmp"]``, ``bwlimit="200M"``,
    ``state="/data/ledger"``, ``dry_run=True``). Returns a CopyResult (a DryRunResult for a dry run).
    """
    return _run(spark, "copy", _sources(src), dst, options)


def sync(spark, src, dst, **options):
    """``spark-dcp sync SRC... DST``: as copy, data already right kept; ``delete=True`` removes what SRC lacks."""
    return _run(spark, "sync", _sources(src), dst, options)


def compare(spark, src, dst, **options):
    """``spark-dcp compare SRC DST``: every difference, as a CompareResult (``differences_df()``); nothing is written."""
    if isinstance(src, (list, tuple)):
        raise TypeError("compare() takes one SRC, not a list")
    return _run(spark, "compare", [os.fspath(src)], dst, options)


def _sources(src):
    if isinstance(src, (str, bytes, os.PathLike)):
        return [os.fspath(src)]
    sources = [os.fspath(s) for s in src]
    if not sources:
        raise ValueError("spark-dcp: give at least one SRC")
    return sources


def _context(spark):
    """The session's SparkContext; a Spark Connect session has none."""
    if type(spark).__module__.startswith("pyspark.sql.connect"):
        raise SessionError(
            "spark-dcp: a Spark Connect session (SparkSession.builder.remote(...)) has no SparkContext, which spark-dcp "
            "runs its jobs on: use a classic session, "
            "spark_dcp.configure(SparkSession.builder.master(...)).getOrCreate()"
        )
    return spark.sparkContext if hasattr(spark, "sparkContext") else spark


def _entry(sc):
    """spark-dcp's entry class in the session's JVM; a clear error when the session lacks the jar."""
    from py4j.java_gateway import JavaClass

    entry = sc._jvm
    for part in _ENTRY.split("."):
        entry = getattr(entry, part)
    if not isinstance(entry, JavaClass):
        raise SessionError(
            "spark-dcp: this Spark session has no spark-dcp jar on its class path: create the session with "
            "spark_dcp.configure(SparkSession.builder...).getOrCreate(), or set spark.jars to spark_dcp.jar() "
            f"({_jar_or_reason()}) before the session starts"
        )
    return entry


def _jar_or_reason():
    try:
        return jar()
    except FileNotFoundError as e:
        return str(e)


_OPTIONS = {}


def _options_of(entry, name):
    """copy's, sync's or compare's long options ({"--exclude": True, ...}: True when it takes a value), from the CLI."""
    if name not in _OPTIONS:
        _OPTIONS[name] = {str(k): bool(v) for k, v in entry.options(name).items()}
    return _OPTIONS[name]


def _arguments(entry, name, options):
    known = _options_of(entry, name)
    for keyword in options:
        if "--" + keyword.replace("_", "-") not in known:
            valid = ", ".join(sorted(o[2:].replace("-", "_") for o in known))
            raise TypeError(f"{name}() got an unexpected keyword argument '{keyword}'; the valid ones are: {valid}")
    return cli_arguments(options)


def cli_arguments(options):
    """Keyword options as the CLI's arguments: ``exclude=["a", "b"]`` is ``--exclude=a --exclude=b``,
    ``delete=True`` is ``--delete``, False and None leave an option out. spark-dcp checks what they say."""
    args = []
    for keyword, value in options.items():
        option = "--" + keyword.replace("_", "-")
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is None or v is False:
                continue  # a flag left off, an option not given
            if v is True:
                args.append(option)  # a flag; a valued option then gets the CLI's "missing parameter"
            else:
                args.append(f"{option}={os.fspath(v) if isinstance(v, os.PathLike) else v}")
    return args


def _run(spark, name, sources, dst, options):
    sc = _context(spark)
    entry = _entry(sc)
    args = _arguments(entry, name, options) + ["--"] + sources + [os.fspath(dst)]
    command = _call(lambda: entry.parse(name, _string_array(sc, args)))
    shown = _Shown()
    outcome = {}

    def work():
        try:
            outcome["result"] = command.run(sc._jsc)
        except BaseException as e:  # handed to the caller's thread
            outcome["error"] = e

    worker = threading.Thread(target=work, name=f"spark-dcp {name}", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.5)
            shown.update(command.takeMessages(), command.progressLine())
    except KeyboardInterrupt:
        sc.cancelAllJobs()  # the run's jobs end; a run again resumes
        worker.join()
        raise
    finally:
        shown.update(command.takeMessages(), command.progressLine(), last=True)
    if "error" in outcome:
        _call(lambda: _raise(outcome["error"]))
    jresult = outcome["result"]
    problems = str(entry.problems(jresult))
    if command.dryRun():
        return DryRunResult(spark, name, int(jresult.exitCode()), str(jresult.toString()), problems)
    report = json.loads(str(jresult.toJson()))
    kind = CompareResult if name == "compare" else CopyResult
    return kind(spark, name, int(jresult.exitCode()), str(jresult.toString()), problems, report)


def _raise(error):
    raise error


def _call(java_call):
    """A usage error from the JVM (IllegalArgumentException: the CLI's message) as a ValueError."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors.exceptions.captured import IllegalArgumentException

    try:
        return java_call()
    except IllegalArgumentException as e:  # PySpark's own for the JVM's (a UsageException is one)
        raise ValueError(str(getattr(e, "_desc", None) or e)) from None
    except Py4JJavaError as e:
        if e.java_exception.getClass().getName() in ("java.lang.IllegalArgumentException", "io.sparkdcp.roots.UsageException"):
            raise ValueError(str(e.java_exception.getMessage())) from None
        raise


def _string_array(sc, values):
    array = sc._gateway.new_array(sc._jvm.java.lang.String, len(values))
    for i, v in enumerate(values):
        array[i] = v
    return array


class _Shown:
    """The run's messages and progress where the caller looks: in a notebook's cell, one progress line redrawn in
    place; elsewhere (a script, Airflow) on stderr, a progress line at most every LOG_SECONDS."""

    LOG_SECONDS = 10

    def __init__(self):
        self.notebook = _in_notebook()
        self.handle = None
        self.line = None
        self.printed_at = 0.0

    def update(self, messages, progress, last=False):
        for m in messages:
            print(f"spark-dcp: {m}", file=sys.stderr, flush=True)
        progress = None if progress is None else str(progress)
        if progress is None or progress == self.line:
            return
        self.line = progress
        if self.notebook:
            from IPython.display import display

            text = _ProgressText(f"spark-dcp: {progress}")
            if self.handle is None:
                self.handle = display(text, display_id=True)
            else:
                self.handle.update(text)
        elif last or time.monotonic() - self.printed_at >= self.LOG_SECONDS:
            print(f"spark-dcp: {progress}", file=sys.stderr, flush=True)
            self.printed_at = time.monotonic()


class _ProgressText:
    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        import html

        return f"<pre style='margin:0'>{html.escape(self.text)}</pre>"


def _in_notebook():
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    ipython = shell.get_ipython()
    return ipython is not None and hasattr(ipython, "kernel")
