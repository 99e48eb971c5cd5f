"""The DAG and SparkDcpOperator run by a real Airflow 3 (`airflow dags test`, SQLite under a temporary
AIRFLOW_HOME) with the provider's SparkSubmitHook and spark-submit from the pinned PySpark, on XFS."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap

import pytest

from conftest import REPO, make_tree, spark_dcp_compare

DAG_FILE = os.path.join(REPO, "submit-scripts", "airflow", "spark_dcp_migration.py")
BIN = os.path.dirname(sys.executable)  # airflow and spark-submit of this environment

# The copy of the operator's own DAG below: execution_timeout interrupts each attempt, retries resume.
TIMEOUT_DAG = """
from datetime import datetime, timedelta
from airflow.sdk import DAG
from spark_dcp.airflow import SparkDcpOperator

with DAG(dag_id="spark_dcp_timeout", start_date=datetime(2026, 1, 1), schedule=None, catchup=False):
    SparkDcpOperator(task_id="copy", source={src!r}, destination={dst!r}, report={report!r}, master="local[2]",
                     options={{"bwlimit": "1M"}}, execution_timeout=timedelta(seconds={timeout}),
                     retries=6, retry_delay=timedelta(seconds=1))
"""


@pytest.fixture(scope="module")
def airflow_home():
    home = tempfile.mkdtemp(prefix="spark-dcp-airflow-")
    os.mkdir(os.path.join(home, "dags"))
    shutil.copy(DAG_FILE, os.path.join(home, "dags"))
    env = dict(os.environ)
    env.update({
        "AIRFLOW_HOME": home,
        "AIRFLOW__CORE__DAGS_FOLDER": os.path.join(home, "dags"),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "PATH": BIN + os.pathsep + env["PATH"],
        "SPARK_DCP_HOME": REPO,
        # As Airflow creates spark_default: host yarn. The DAG's master param overrides it.
        "AIRFLOW_CONN_SPARK_DEFAULT": json.dumps({"conn_type": "spark", "host": "yarn"}),
    })
    subprocess.run([os.path.join(BIN, "airflow"), "db", "migrate"], env=env, check=True, capture_output=True)
    yield home, env
    shutil.rmtree(home, ignore_errors=True)


def dags_test(airflow_home, dag_id, conf=None):
    home, env = airflow_home
    command = [os.path.join(BIN, "airflow"), "dags", "test", dag_id]
    if conf is not None:
        command += ["--conf", json.dumps(conf)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    db = sqlite3.connect(os.path.join(home, "airflow.db"))
    run_id = db.execute("select run_id from dag_run where dag_id = ? order by id desc limit 1", (dag_id,)).fetchone()[0]
    tasks = {t: (s, n) for t, s, n in db.execute(
        "select task_id, state, try_number from task_instance where dag_id = ? and run_id = ?", (dag_id, run_id))}
    history = db.execute("select task_id, try_number, state from task_instance_history where dag_id = ? and run_id = ?",
                         (dag_id, run_id)).fetchall()
    xcom = {(t, k): json.loads(v) for t, k, v in db.execute(
        "select task_id, key, value from xcom where dag_id = ? and run_id = ?", (dag_id, run_id))}
    db.close()
    return done, run_id, tasks, history, xcom


def test_the_dag_migrates_a_tree_exactly_with_the_report_in_xcom(airflow_home, xfs):
    src = make_tree(os.path.join(xfs, "ok", "old"))
    dst = os.path.join(xfs, "ok", "new")
    reports = os.path.join(xfs, "ok", "reports")
    os.mkdir(reports)

    done, run_id, tasks, history, xcom = dags_test(airflow_home, "spark_dcp_migration", {
        "source": src + "/", "destination": dst, "report_dir": reports, "master": "local[2]"})

    assert tasks == {"copy": ("success", 1), "check_report": ("success", 1)}, done.stdout[-3000:] + done.stderr[-3000:]
    with open(os.path.join(reports, f"migration-{run_id}.json"), encoding="utf-8") as f:
        report = json.load(f)
    assert xcom[("copy", "return_value")] == report
    assert report["exit_code"] == 0 and report["copied"] == 9
    assert xcom[("check_report", "return_value")]["copied"] == 9
    code, out = spark_dcp_compare(src + "/", dst)
    assert code == 0, out
    out = done.stdout + done.stderr
    assert "--master local[2]" in out  # the param over spark_default's yarn
    assert "--name spark-dcp-migration" in out and "--deploy-mode client" in out
    assert "INFO SparkContext" not in out  # spark-conf/log4j2.properties: spark-dcp's lines without Spark's INFO ones


def test_a_missing_source_fails_the_task_once_without_a_retry(airflow_home, xfs):
    base = os.path.join(xfs, "missing")
    os.makedirs(os.path.join(base, "reports"))

    done, run_id, tasks, history, xcom = dags_test(airflow_home, "spark_dcp_migration", {
        "source": os.path.join(base, "nosuch") + "/", "destination": os.path.join(base, "new"),
        "report_dir": os.path.join(base, "reports"), "master": "local[2]"})

    out = done.stdout + done.stderr
    assert tasks["copy"] == ("failed", 1), out[-3000:]
    assert [h for h in history if h[0] == "copy"] == []  # no attempt before this one: no retry
    assert "AirflowFailException" in out and "spark-dcp exited 2" in out
    assert "nosuch" in out  # the CLI's line saying why, in the task's log
    assert tasks["check_report"][0] == "failed" and "wrote no report" in out
    assert not os.path.exists(os.path.join(base, "new"))


def test_a_run_interrupted_by_execution_timeout_is_retried_and_resumes(airflow_home, xfs):
    home, _ = airflow_home
    base = os.path.join(xfs, "timeout")
    src = os.path.join(base, "old")
    os.makedirs(src)
    for i in range(40):  # 40 MiB at --bwlimit 1M: more than an attempt of 30 s copies, however fast Spark starts
        with open(os.path.join(src, f"f{i:02}.dat"), "wb") as f:
            f.write(os.urandom(1 << 20))
    dst = os.path.join(base, "new")
    report = os.path.join(base, "report.json")
    with open(os.path.join(home, "dags", "timeout_dag.py"), "w") as f:
        f.write(TIMEOUT_DAG.format(src=src + "/", dst=dst, report=report, timeout=30))

    done, run_id, tasks, history, xcom = dags_test(airflow_home, "spark_dcp_timeout")

    out = done.stdout + done.stderr
    state, tries = tasks["copy"]
    assert state == "success" and tries >= 2, out[-4000:]
    assert len([h for h in history if h[0] == "copy"]) == tries - 1  # each attempt before the last, retried
    assert "AirflowTaskTimeout" in out
    assert "spark-dcp stopped at execution_timeout (exit 20)" in out
    assert "'interrupted': True" in out  # the interrupted run's report, read and shown
    final = xcom[("copy", "return_value")]
    assert final["exit_code"] == 0 and final["skipped"] > 0  # the last attempt resumed: earlier ones' files kept
    code, out = spark_dcp_compare(src + "/", dst, "--contents")
    assert code == 0, out


def test_the_check_reads_an_interrupted_runs_report(xfs):
    """A run stopped by SIGTERM writes a report without counts: the DAG's check says so, not KeyError."""
    import importlib.util
    import signal
    import time

    from conftest import LAUNCHER
    from spark_dcp.airflow import summary

    base = os.path.join(xfs, "interrupted")
    src = os.path.join(base, "old")
    os.makedirs(src)
    for i in range(8):
        with open(os.path.join(src, f"f{i}.dat"), "wb") as f:
            f.write(os.urandom(1 << 20))
    report = os.path.join(base, "report.json")
    run = subprocess.Popen([LAUNCHER, "copy", "--bwlimit=1M", "--report", report, src + "/", os.path.join(base, "new")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in run.stdout:
        if "listed" in line:
            break
    time.sleep(1)
    run.send_signal(signal.SIGTERM)
    run.communicate(timeout=60)
    assert run.returncode == 20

    spec = importlib.util.spec_from_file_location("spark_dcp_migration", DAG_FILE)
    dag = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dag)
    with pytest.raises(RuntimeError, match="the last copy attempt was interrupted"):
        dag.check_report(report)
    assert summary(json.load(open(report, encoding="utf-8")))["interrupted"] is True
