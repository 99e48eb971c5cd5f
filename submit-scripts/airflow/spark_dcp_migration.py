"""Example Airflow DAG: migrate a directory tree with spark-dcp, then read its JSON report.

Runs on Airflow 2.x and 3.x with the apache-spark provider (SparkSubmitOperator with deploy_mode
and properties_file). The contract this DAG relies on is in docs/cluster.md, section "Airflow":

* Exit codes. spark-dcp exits 0 when every entry was copied or already identical, 1 when some
  entries failed (the rest was copied) or the run itself stopped, 2 for a usage error or an
  impossible request (nothing was written). SparkSubmitOperator only sees "zero or not": any
  non-zero exit fails the task, and Airflow retries it.
* Re-runs resume safely. Entries already identical at the destination are skipped, an entry that
  differs is replaced, so a retry (or a manual clear) continues where the last attempt stopped and
  ends with the same tree. A retry after exit 2 fails the same way again without writing anything.
* The report. ``--report FILE`` writes the JSON report atomically (temporary file, then rename)
  at the end of every run that finishes, also when entries failed. A run that stops early (exit 2,
  or Spark itself failing) writes none. Its directory must exist. ``exit_code``, ``failed`` and
  ``failures`` tell what went wrong; the field names are stable. Each copy attempt removes the
  report of the attempt before it as it starts, so the check reads the last attempt's or none.

Both copies use Airflow's default connection ``spark_default``: set its host to the master
(``yarn``, ``spark://HOST:7077`` or ``k8s://...``). Each task names its deploy mode itself; a
connection id that does not exist would make the provider fall back to YARN in client mode
without a word. "copy" runs the driver in client mode on the Airflow worker (it lists SRC, so it
must see the same paths as the executors). "copy_yarn_cluster" runs it in YARN's cluster mode, in
the ApplicationMaster's container on a NodeManager (its task needs YARN as the master: give it a
connection of its own if "copy" uses another cluster). There spark-submit exits 0 when the
application SUCCEEDED and 1 when it FAILED (the copy's own exit code is in the report and in YARN's
diagnostics, "User application exited with status N"), the driver's output is in the
application's logs (yarn logs -applicationId ID), and the report goes to --report's path as the
NodeManager's host sees it: put it on a file system every NodeManager and this worker mount.
spark.yarn.maxAppAttempts=1: YARN does not run a failed copy again by itself, Airflow's retries
do. Speculation stays off (spark-conf/spark-defaults.conf).

AirflowDagCommandTest imports this file with stand-ins for Airflow's modules, builds each copy's
spark-submit command line by the provider's rules and runs it on a local Spark.
"""

import contextlib
import json
import os
from datetime import datetime, timedelta

try:  # Airflow 3
    from airflow.providers.standard.operators.python import PythonOperator
    from airflow.sdk import DAG
except ImportError:  # Airflow 2
    from airflow import DAG
    from airflow.operators.python import PythonOperator
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

try:  # Airflow 3.3 and later
    from airflow.sdk import ResumableJobMixin
except ImportError:
    ResumableJobMixin = None

SPARK_DCP_HOME = "/shared/spark-dcp"  # a clone built with mvn package, or an unpacked install
# An install (the tarball mvn package makes) holds lib/ and conf/; a clone target/ and spark-conf/.
_INSTALLED = os.path.isdir(SPARK_DCP_HOME + "/lib")
APP_JAR = SPARK_DCP_HOME + ("/lib/spark-dcp-app.jar" if _INSTALLED else "/target/spark-dcp-app.jar")
CONF_DIR = SPARK_DCP_HOME + ("/conf" if _INSTALLED else "/spark-conf")
# rsync's rule: the trailing slash copies the contents of projects/ into DESTINATION (without it,
# DESTINATION/projects would be made). DESTINATION's parent must exist: a typo fails with exit 2.
SOURCE = "/lustre/old/projects/"
DESTINATION = "/lustre/new/projects"
HOME_SOURCE = "/lustre/old/home/"  # the cluster-mode copy's tree
HOME_DESTINATION = "/lustre/new/home"
REPORT_DIR = "/shared/spark-dcp-reports"  # must exist, mounted here and on every NodeManager
# One report per DAG run (run_id: Airflow 3's manual runs may have no logical date): the retries
# of a run overwrite it, the next run gets its own.
REPORT = REPORT_DIR + "/migration-{{ run_id }}.json"
HOME_REPORT = REPORT_DIR + "/home-{{ run_id }}.json"
# Retries resume: what is already identical is skipped.
RETRIES = {"retries": 3, "retry_delay": timedelta(minutes=5), "retry_exponential_backoff": True}
# YARN runs no second attempt of a failed copy: it would fail the same way; Airflow's retries decide.
ONE_YARN_ATTEMPT = {"spark.yarn.maxAppAttempts": "1"}
# A SparkSubmitOperator that reconnects to its submitted job on retry ("durable": Airflow 3.3 and a
# recent provider) refuses YARN cluster mode without polling YARN's REST API. A retry that submits
# the copy again is safe: it skips what is done.
SUBMIT_AGAIN_ON_RETRY = (
    {"durable": False} if ResumableJobMixin and issubclass(SparkSubmitOperator, ResumableJobMixin) else {}
)


def forget_report(report_template):
    """An on_execute_callback for a copy: removes the report of the attempt before this one.

    A report present afterwards was then written by this attempt: the check needs no dates, and no
    other task's start (Airflow 3's Task SDK has no dag_run.get_task_instance).
    """

    def forget(context):
        report = context["task"].render_template(report_template, context)
        with contextlib.suppress(FileNotFoundError):
            os.remove(report)

    return forget


def check_report(report_path):
    """Fails the task when the copy did not complete, naming the first failures."""
    if not os.path.exists(report_path):
        # The last copy attempt stopped early (usage error, or Spark itself failed).
        raise RuntimeError(f"the last copy attempt wrote no report at {report_path}: see the copy task's log")
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    summary = {key: report[key] for key in ("exit_code", "entries_listed", "copied", "skipped", "failed", "bytes_copied")}
    print(f"spark-dcp report {report_path}: {summary}")
    if report["exit_code"] != 0:
        first = [f"{f['path']}: {f['op']} {f['errno']}: {f['message']}" for f in report["failures"][:20]]
        raise RuntimeError(f"{report['failed']} entries failed; first ones:\n" + "\n".join(first))
    return summary  # in XCom for the tasks downstream


with DAG(
    dag_id="spark_dcp_migration",
    start_date=datetime(2026, 1, 1),
    schedule=None,  # triggered by hand for a migration
    catchup=False,
    max_active_runs=1,  # two copies into the same destination at once would race
    default_args={"owner": "storage"},
    tags=["spark-dcp", "migration"],
) as dag:
    copy = SparkSubmitOperator(
        task_id="copy",
        conn_id="spark_default",  # its host is the master: yarn, spark://... or k8s://...
        deploy_mode="client",
        application=APP_JAR,
        java_class="io.sparkdcp.cli.Main",
        name="spark-dcp-migration",
        properties_file=CONF_DIR + "/spark-defaults.conf",
        conf={
            # The driver runs here: Spark's INFO lines stay out of the task's log.
            "spark.driver.extraJavaOptions": f"-Dlog4j.configurationFile={CONF_DIR}/log4j2.properties",
            **ONE_YARN_ATTEMPT,
            # As submit-scripts/cluster/yarn in client mode: a start racing YARN's proxy filter
            # fails in Spark's UI (docs/cluster.md, YARN); spark-dcp prints its own progress.
            "spark.ui.enabled": "false",
        },
        driver_memory="4g",
        executor_cores=8,
        executor_memory="4g",
        num_executors=4,
        application_args=["copy", "--report", REPORT, SOURCE, DESTINATION],
        on_execute_callback=forget_report(REPORT),
        execution_timeout=timedelta(hours=12),
        **RETRIES,
    )

    report = PythonOperator(
        task_id="check_report",
        python_callable=check_report,
        op_kwargs={"report_path": REPORT},
        # Also after the copy failed for good: the report says which entries and why.
        trigger_rule="all_done",
    )

    # The same on YARN with the driver in the cluster: nothing of the copy runs on this worker.
    copy_yarn_cluster = SparkSubmitOperator(
        task_id="copy_yarn_cluster",
        conn_id="spark_default",  # host "yarn", Airflow's default; HADOOP_CONF_DIR set for the worker
        deploy_mode="cluster",
        application=APP_JAR,
        java_class="io.sparkdcp.cli.Main",
        name="spark-dcp-home",
        properties_file=CONF_DIR + "/spark-defaults.conf",
        # The container has no checkout: the logging configuration travels with the application.
        # spark-submit's own INFO lines stay: the provider reads the application's ID from them.
        conf={"spark.driver.extraJavaOptions": "-Dlog4j.configurationFile=log4j2.properties", **ONE_YARN_ATTEMPT},
        files=CONF_DIR + "/log4j2.properties",
        driver_memory="4g",
        executor_cores=8,
        executor_memory="4g",
        num_executors=4,
        application_args=["copy", "--report", HOME_REPORT, HOME_SOURCE, HOME_DESTINATION],
        on_execute_callback=forget_report(HOME_REPORT),
        execution_timeout=timedelta(hours=12),
        **SUBMIT_AGAIN_ON_RETRY,
        **RETRIES,
    )

    home_report = PythonOperator(
        task_id="check_home_report",
        python_callable=check_report,
        op_kwargs={"report_path": HOME_REPORT},
        trigger_rule="all_done",
    )

    copy >> report
    copy_yarn_cluster >> home_report
