"""Example Airflow DAG: migrate a directory tree with spark-dcp, then read its JSON report.

The contract this DAG relies on (see docs/cluster.md, "Airflow"):

* Exit codes. spark-dcp exits 0 when every entry was copied or already identical, 1 when some
  entries failed (the rest was copied) or the run itself stopped, 2 for a usage error or an
  impossible request (nothing was written). SparkSubmitOperator only sees "zero or not": any
  non-zero exit fails the task, and Airflow retries it.
* Re-runs resume safely. Entries already identical at the destination are skipped, an entry that
  differs is replaced, so a retry (or a manual clear) continues where the last attempt stopped and
  ends with the same tree. A retry after exit 2 fails the same way again without writing anything.
* The report. ``--report FILE`` writes the JSON report atomically (temporary file, then rename)
  at the end of every run that finishes, also when entries failed; each such attempt replaces
  the previous attempt's report. A run that stops early (exit 2, or Spark itself failing)
  writes none. Its directory must exist. ``exit_code``, ``failed``
  and ``failures`` tell what went wrong; the field names are stable.

Two copies: "copy" runs the driver in client mode on the Airflow worker (it lists SRC, so it must
see the same paths as the executors); "copy_yarn_cluster" runs it in YARN's cluster mode, in the
ApplicationMaster's container on a NodeManager. There spark-submit exits 0 when the application
SUCCEEDED and 1 when it FAILED (the copy's own exit code is in the report and in YARN's
diagnostics, "User application exited with status N"), the driver's output is in the
application's logs (yarn logs -applicationId ID), and the report goes to --report's path as the
NodeManager's host sees it: put it on a file system every NodeManager and this worker mount.
spark.yarn.maxAppAttempts=1: YARN does not run a failed copy again by itself, Airflow's retries
do. Speculation stays off (spark-conf/spark-defaults.conf). Needs the apache-spark provider with
SparkSubmitOperator's deploy_mode and properties_file arguments (recent versions have both).
This file is checked by compiling it (the tests cannot install Airflow), not by running it.
"""

import json
import os
from datetime import datetime, timedelta

from airflow import DAG
from airflow.exceptions import AirflowException
from airflow.operators.python import PythonOperator
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

SPARK_DCP_HOME = "/shared/spark-dcp"  # the project, built with mvn package
# rsync's rule: the trailing slash copies the contents of projects/ into DESTINATION (without it,
# DESTINATION/projects would be made). DESTINATION's parent must exist: a typo fails with exit 2.
SOURCE = "/lustre/old/projects/"
DESTINATION = "/lustre/new/projects"
HOME_SOURCE = "/lustre/old/home"  # the cluster-mode copy's tree
HOME_DESTINATION = "/lustre/new/home"
REPORT_DIR = "/shared/spark-dcp-reports"  # must exist, mounted here and on every NodeManager
# One report per logical date: the retries of a run overwrite it, the next run gets its own.
REPORT = REPORT_DIR + "/migration-{{ ds_nodash }}.json"
HOME_REPORT = REPORT_DIR + "/home-{{ ds_nodash }}.json"
# Retries resume: what is already identical is skipped.
RETRIES = {"retries": 3, "retry_delay": timedelta(minutes=5), "retry_exponential_backoff": True}


def check_report(report_path, copy_task, **context):
    """Fails the task when the copy did not complete, naming the first failures."""
    copy_started = context["dag_run"].get_task_instance(copy_task).start_date
    # No report, or one older than the copy's last attempt: that attempt stopped early (usage
    # error, or Spark itself failed), and an older report would tell about another run.
    if not os.path.exists(report_path) or os.path.getmtime(report_path) < copy_started.timestamp():
        raise AirflowException(f"the last copy attempt wrote no report at {report_path}: see the copy task's log")
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    summary = {key: report[key] for key in ("exit_code", "entries_listed", "copied", "skipped", "failed", "bytes_copied")}
    print(f"spark-dcp report {report_path}: {summary}")
    if report["exit_code"] != 0:
        first = [f"{f['path']}: {f['op']} {f['errno']}: {f['message']}" for f in report["failures"][:20]]
        raise AirflowException(f"{report['failed']} entries failed; first ones:\n" + "\n".join(first))
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
        conn_id="spark_default",  # its host is the master: spark://..., yarn or k8s://...
        application=SPARK_DCP_HOME + "/target/spark-dcp-app.jar",
        java_class="io.sparkdcp.cli.Main",
        name="spark-dcp-migration",
        deploy_mode="client",
        properties_file=SPARK_DCP_HOME + "/spark-conf/spark-defaults.conf",
        driver_memory="4g",
        executor_cores=8,
        executor_memory="4g",
        application_args=["copy", "--report", REPORT, SOURCE, DESTINATION],
        execution_timeout=timedelta(hours=12),
        **RETRIES,
    )

    report = PythonOperator(
        task_id="check_report",
        python_callable=check_report,
        op_kwargs={"report_path": REPORT, "copy_task": "copy"},
        # Also after the copy failed for good: the report says which entries and why.
        trigger_rule="all_done",
    )

    # The same on YARN with the driver in the cluster: nothing of the copy runs on this worker.
    copy_yarn_cluster = SparkSubmitOperator(
        task_id="copy_yarn_cluster",
        conn_id="yarn_default",  # host "yarn"; HADOOP_CONF_DIR set for the worker
        application=SPARK_DCP_HOME + "/target/spark-dcp-app.jar",
        java_class="io.sparkdcp.cli.Main",
        name="spark-dcp-home",
        deploy_mode="cluster",
        properties_file=SPARK_DCP_HOME + "/spark-conf/spark-defaults.conf",
        # The container has no checkout: the logging configuration travels with the application.
        conf={"spark.yarn.maxAppAttempts": "1", "spark.driver.extraJavaOptions": "-Dlog4j.configurationFile=log4j2.properties"},
        files=SPARK_DCP_HOME + "/spark-conf/log4j2.properties",
        driver_memory="4g",
        executor_cores=8,
        executor_memory="4g",
        num_executors=4,
        application_args=["copy", "--report", HOME_REPORT, HOME_SOURCE, HOME_DESTINATION],
        execution_timeout=timedelta(hours=12),
        **RETRIES,
    )

    home_report = PythonOperator(
        task_id="check_home_report",
        python_callable=check_report,
        op_kwargs={"report_path": HOME_REPORT, "copy_task": "copy_yarn_cluster"},
        trigger_rule="all_done",
    )

    copy >> report
    copy_yarn_cluster >> home_report
