"""What copy, sync and compare return: the CLI's exit code, summary and --report fields, and DataFrames of them."""

import html

FAILURE_SCHEMA = "path string, op string, errno string, message string"
DIFFERENCE_SCHEMA = "path string, kind string, source string, destination string"


class _Result:
    def __init__(self, spark, command, exit_code, summary, problems):
        self._spark = spark
        self.command = command
        #: The CLI's exit code: 0 done (or identical), 1 entries failed (or differences), 2 for compare's unread entries.
        self.exit_code = exit_code
        #: The CLI's summary table, as ``spark-dcp`` prints it on stdout.
        self.summary = summary
        #: The lines the CLI prints on stderr: failed entries, skipped ones, differences (at most 50 of each).
        self.problems = problems

    def __repr__(self):
        return self.summary + (self.problems if self.problems else "")

    def _repr_html_(self):
        parts = [f"<pre>{html.escape(self.summary)}</pre>"]
        if self.problems:
            parts.append(f"<pre style='color:#a00'>{html.escape(self.problems)}</pre>")
        return "".join(parts)


class _Reported(_Result):
    def __init__(self, spark, command, exit_code, summary, problems, report):
        super().__init__(spark, command, exit_code, summary, problems)
        #: The --report JSON as a dict: the same fields and values as ``--report FILE`` writes.
        self.report = report

    def failures_df(self):
        """The entries that failed (path, op, errno, message) as a Spark DataFrame."""
        rows = [(f["path"], f["op"], f["errno"], f["message"]) for f in self.report.get("failures", [])]
        return self._spark.createDataFrame(rows, FAILURE_SCHEMA)


class CopyResult(_Reported):
    """A copy or sync: ``exit_code`` 0 when everything was copied or already identical, 1 when entries failed."""


class CompareResult(_Reported):
    """A comparison: ``exit_code`` 0 identical, 1 differences found, 2 entries that could not be compared."""

    @property
    def identical(self):
        return self.exit_code == 0

    def differences_df(self):
        """Every difference (path, kind, source: SRC's value, destination: DST's value) as a Spark DataFrame."""
        rows = [(d["path"], d["kind"], d["source"], d["destination"]) for d in self.report.get("differences", [])]
        return self._spark.createDataFrame(rows, DIFFERENCE_SCHEMA)


class DryRunResult(_Result):
    """A dry run (``dry_run=True``): the plan, nothing written. ``exit_code`` 1 when part of a SRC could not be listed."""

    report = None

    @property
    def plan(self):
        """The plan's lines: ``copy: PATH``, ``fix metadata: PATH``, ``delete: PATH``, then the totals."""
        return self.summary.splitlines()
