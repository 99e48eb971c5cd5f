"""An Airflow operator that runs spark-dcp with spark-submit and gives Airflow what a migration needs.

    from spark_dcp.airflow import SparkDcpOperator

    copy = SparkDcpOperator(task_id="copy", source="/lustre/old/projects/", destination="/lustre/new/projects",
                            report="/shared/reports/{{ run_id }}.json", options={"exclude": ["*.tmp"]},
                            retries=3, execution_timeout=timedelta(hours=12))

It is the apache-spark provider's SparkSubmitHook (its connection, default ``spark_default``, names the
master; ``master=`` overrides it) running ``spark-dcp copy`` (or ``sync``), and it reads spark-dcp's
exit code, which SparkSubmitOperator reduces to "zero or not":

* 0: the report (the ``--report`` JSON, a dict) is the task's return value, in XCom;
* 1 (entries failed, or the run stopped) and 3 (the driver ran out of memory): the task fails and
  Airflow's retries run the copy again, which resumes (what is already identical is skipped);
* 2 (usage error or impossible request, nothing written): the task fails without a retry
  (AirflowFailException): a retry would fail the same way;
* 20 (interrupted): retried. ``execution_timeout`` interrupts the run as SIGTERM does (spark-dcp writes
  an interrupted report and exits 20) rather than killing it, and the timeout is retried.

The report of a failed attempt is in XCom too, under the key ``report``. Each attempt removes the report
the attempt before left, so a report found is this attempt's.
"""

import contextlib
import json
import os
import signal
import subprocess

from airflow.exceptions import AirflowException, AirflowFailException, AirflowTaskTimeout
from airflow.providers.apache.spark.hooks.spark_submit import SparkSubmitHook

try:  # Airflow 3
    from airflow.sdk import BaseOperator
except ImportError:  # Airflow 2
    from airflow.models import BaseOperator

import spark_dcp

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_OUT_OF_MEMORY = 3
EXIT_INTERRUPTED = 20
#: How long an interrupted run gets to write its report and stop before it is killed.
STOP_SECONDS = 60


class _SparkDcpHook(SparkSubmitHook):
    """The provider's hook, its connection's master replaced when the task names one."""

    def __init__(self, *, master=None, **kwargs):
        self._master_override = master or None
        super().__init__(**kwargs)

    def _resolve_connection(self):
        connection = super()._resolve_connection()
        if self._master_override:
            connection["master"] = self._master_override
        return connection

    def exit_code(self):
        return None if self._submit_sp is None else self._submit_sp.returncode

    def interrupt(self):
        """SIGTERM to spark-submit's JVM (spark-submit execs it): spark-dcp writes its report and exits 20."""
        process = self._submit_sp
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            for line in process.communicate(timeout=STOP_SECONDS)[0].splitlines():
                self.log.info("%s", line)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def home_paths(home):
    """The jar and the Spark configuration directory of a spark-dcp install (lib/, conf/) or clone (target/, spark-conf/)."""
    installed = os.path.isdir(os.path.join(home, "lib"))
    jar = os.path.join(home, "lib" if installed else "target", "spark-dcp-app.jar")
    return jar, os.path.join(home, "conf" if installed else "spark-conf")


class SparkDcpOperator(BaseOperator):
    """``spark-dcp COMMAND [options] --report REPORT -- SOURCE... DESTINATION`` through spark-submit.

    :param source: one SRC or a list (rsync's rule: ``SRC/`` is its contents)
    :param destination: DST
    :param report: the JSON report's path (its directory must exist); templated
    :param command: ``copy`` or ``sync``
    :param options: spark-dcp's long options in snake case, as for ``spark_dcp.copy`` (``{"delete": True}``)
    :param master: the Spark master, over the connection's (``local[2]``, ``yarn``); templated, empty: the connection's
    :param spark_dcp_home: a clone built with mvn package, or an unpacked install; default ``$SPARK_DCP_HOME``,
        else the jar installed with this package (``spark_dcp.jar()``), without a properties file
    :param conn_id: the Spark connection (default ``spark_default``)
    :param deploy_mode: ``client`` (the default: the driver lists SRC, so it runs where the paths are mounted)
    :param conf: more Spark properties; ``name``, ``driver_memory``, ``executor_cores``, ``executor_memory``,
        ``num_executors``: as SparkSubmitOperator's
    """

    template_fields = ("source", "destination", "report", "master", "options", "spark_dcp_home")
    ui_color = "#e4f0e8"

    def __init__(self, *, source, destination, report, command="copy", options=None, master=None, spark_dcp_home=None,
                 conn_id="spark_default", deploy_mode="client", conf=None, name="spark-dcp", driver_memory=None,
                 executor_cores=None, executor_memory=None, num_executors=None, **kwargs):
        super().__init__(**kwargs)
        if command not in ("copy", "sync"):
            raise ValueError(f"SparkDcpOperator runs copy or sync, not {command!r}")
        self.source = source
        self.destination = destination
        self.report = report
        self.command = command
        self.options = options or {}
        self.master = master
        self.spark_dcp_home = spark_dcp_home
        self.conn_id = conn_id
        self.deploy_mode = deploy_mode
        self.conf = conf or {}
        self.name = name
        self.driver_memory = driver_memory
        self.executor_cores = executor_cores
        self.executor_memory = executor_memory
        self.num_executors = num_executors
        self._hook = None

    def _arguments(self):
        sources = [self.source] if isinstance(self.source, str) else list(self.source)
        return [self.command, "--report", self.report, *spark_dcp.cli_arguments(self.options), "--", *sources,
                self.destination]

    def _make_hook(self):
        home = self.spark_dcp_home or os.environ.get("SPARK_DCP_HOME")
        conf = dict(self.conf)
        properties = None
        if home:
            jar, conf_dir = home_paths(home)
            properties = os.path.join(conf_dir, "spark-defaults.conf")
            # The driver runs here: Spark's INFO lines stay out of the task's log.
            conf.setdefault("spark.driver.extraJavaOptions", f"-Dlog4j.configurationFile={conf_dir}/log4j2.properties")
        else:
            jar = spark_dcp.jar()
        # spark-dcp prints its own progress; YARN runs no second attempt of a failed copy: Airflow's retries decide.
        conf.setdefault("spark.ui.enabled", "false")
        conf.setdefault("spark.yarn.maxAppAttempts", "1")
        hook = _SparkDcpHook(master=self.master, conn_id=self.conn_id, deploy_mode=self.deploy_mode, conf=conf,
                             properties_file=properties, java_class="io.sparkdcp.cli.Main", name=self.name,
                             application_args=self._arguments(), driver_memory=self.driver_memory,
                             executor_cores=self.executor_cores, executor_memory=self.executor_memory,
                             num_executors=self.num_executors)
        return hook, jar

    def execute(self, context):
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.report)  # the attempt before's: a report found afterwards is this attempt's
        self._hook, jar = self._make_hook()
        try:
            self._hook.submit(jar)
        except AirflowTaskTimeout:
            self._hook.interrupt()
            report = read_report(self.report)
            self.log.warning("spark-dcp stopped at execution_timeout (exit %s); its report: %s", self._hook.exit_code(),
                             summary(report))
            self._push_failed(context, report)
            raise  # a timeout is retried; the next attempt resumes
        except AirflowException:
            if self._hook.exit_code() is None:
                raise
        report = read_report(self.report)
        code = self._hook.exit_code()
        if code == 0:
            self.log.info("spark-dcp report %s: %s", self.report, summary(report))
            return report
        self._push_failed(context, report)
        raise failure(code, report, self.report)

    def on_kill(self):
        if self._hook is not None:
            self._hook.interrupt()
            self._hook.on_kill()

    @staticmethod
    def _push_failed(context, report):
        if report is not None:
            context["ti"].xcom_push(key="report", value=report)


def read_report(path):
    """The report as a dict, or None when the attempt wrote none (it stopped before, or exit 2)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def summary(report):
    """A report's counts in one dict; an interrupted run's report has none, only the signal."""
    if report is None:
        return None
    if report.get("interrupted"):
        return {key: report.get(key) for key in ("exit_code", "interrupted", "signal")}
    keys = ("exit_code", "entries_listed", "copied", "skipped", "metadata_fixed", "deleted", "failed", "bytes_copied")
    return {key: report.get(key) for key in keys}


def failure(code, report, path):
    """The exception for a non-zero exit: AirflowFailException (no retry) for 2, AirflowException (retried) otherwise."""
    if code == EXIT_USAGE:
        return AirflowFailException(
            f"spark-dcp exited {code}: usage error or impossible request, nothing was written (a retry would fail the same "
            "way); the task's log has the 'spark-dcp:' line saying why")
    if code == EXIT_INTERRUPTED:
        return AirflowException(f"spark-dcp was interrupted (exit {code}); a retry resumes: {summary(report)}")
    if code == EXIT_OUT_OF_MEMORY:
        return AirflowException(f"spark-dcp's driver ran out of memory (exit {code}); give it more (driver_memory)")
    if report is None:
        return AirflowException(f"spark-dcp exited {code} and wrote no report at {path}: see the task's log")
    first = [f"{f['path']}: {f['op']} {f['errno']}: {f['message']}" for f in report.get("failures", [])[:20]]
    return AirflowException(f"spark-dcp exited {code}: {report.get('failed')} entries failed; first ones:\n" + "\n".join(first))
