"""Airflow DAG: migrate a directory tree with spark-dcp, then check its JSON report.

Airflow 3 with the apache-spark provider and the spark_dcp package (pip install ./python from a
clone, or python/ of the distribution). Triggered by hand with the tree as DAG params:

    airflow dags trigger spark_dcp_migration --conf '{"source": "/lustre/old/projects/",
        "destination": "/lustre/new/projects", "report_dir": "/shared/spark-dcp-reports"}'

``source`` follows rsync's rule (the trailing slash copies the contents of projects/ into
destination); destination's parent must exist (a typo fails with exit 2, nothing written);
report_dir must exist. ``master`` overrides the master of the ``spark_default`` connection when
given (``local[2]``, ``yarn``, ``spark://HOST:7077``). SPARK_DCP_HOME (a clone built with mvn
package, or an unpacked install: the jar and spark-defaults.conf come from it) is read from the
environment, else from the Airflow Variable ``spark_dcp_home``, else the jar installed with the
package is used.

SparkDcpOperator (spark_dcp.airflow) gives each of spark-dcp's exit codes its meaning for Airflow:
0 the report in XCom; 1 (entries failed) retried, and a retry resumes; 2 (usage error, impossible
request) failed without a retry; 20 (interrupted, e.g. by execution_timeout, which the operator
turns into SIGTERM) retried. docs/cluster.md, section "Airflow", has the contract and the
SparkSubmitOperator alternative; python/tests/test_airflow.py runs this DAG with `airflow dags test`.
"""

import os
from datetime import datetime, timedelta

from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG, Param

from spark_dcp.airflow import SparkDcpOperator, read_report, summary

# One report per DAG run (run_id: manual runs have no logical date): the retries of a run overwrite it.
REPORT = "{{ params.report_dir }}/migration-{{ run_id }}.json"
SPARK_DCP_HOME = os.environ.get("SPARK_DCP_HOME") or "{{ var.value.get('spark_dcp_home', '') }}"


def check_report(report_path):
    """Fails the task when the copy did not complete, naming the first failures; the counts go to XCom."""
    report = read_report(report_path)
    if report is None:
        raise RuntimeError(f"the last copy attempt wrote no report at {report_path} (it stopped early): see the copy task's log")
    print(f"spark-dcp report {report_path}: {summary(report)}")
    if report.get("interrupted"):
        raise RuntimeError(f"the last copy attempt was interrupted ({report.get('signal')}): clear the copy task to resume it")
    if report["exit_code"] != 0:
        first = [f"{f['path']}: {f['op']} {f['errno']}: {f['message']}" for f in report["failures"][:20]]
        raise RuntimeError(f"{report['failed']} entries failed; first ones:\n" + "\n".join(first))
    return summary(report)


with DAG(
    dag_id="spark_dcp_migration",
    start_date=datetime(2026, 1, 1),
    schedule=None,  # triggered by hand for a migration
    catchup=False,
    max_active_runs=1,  # two copies into the same destination at once would race
    default_args={"owner": "storage"},
    params={
        "source": Param("/lustre/old/projects/", type="string", description="SRC (a trailing / copies its contents)"),
        "destination": Param("/lustre/new/projects", type="string", description="DST (its parent must exist)"),
        "report_dir": Param("/shared/spark-dcp-reports", type="string", description="where the JSON reports go (must exist)"),
        "master": Param("", type="string", description="Spark master over spark_default's, e.g. local[2]; empty: the connection's"),
    },
    tags=["spark-dcp", "migration"],
) as dag:
    copy = SparkDcpOperator(
        task_id="copy",
        source="{{ params.source }}",
        destination="{{ params.destination }}",
        report=REPORT,
        master="{{ params.master }}",
        spark_dcp_home=SPARK_DCP_HOME,
        conn_id="spark_default",  # its host is the master: yarn, spark://... or k8s://...
        name="spark-dcp-migration",
        driver_memory="4g",
        executor_cores=8,
        executor_memory="4g",
        num_executors=4,
        execution_timeout=timedelta(hours=12),
        # Retries resume: what is already identical is skipped.
        retries=3,
        retry_delay=timedelta(minutes=5),
        retry_exponential_backoff=True,
    )

    report = PythonOperator(
        task_id="check_report",
        python_callable=check_report,
        op_kwargs={"report_path": REPORT},
        # Also after the copy failed for good: the report says which entries and why.
        trigger_rule="all_done",
    )

    copy >> report
