"""spark_dcp on a classic local[2] PySpark session (one for the module), on a real XFS mount."""

import json
import os
import subprocess
import sys
import textwrap

import pytest
from pyspark.sql import SparkSession

import spark_dcp
from conftest import make_tree, spark_dcp_cli, spark_dcp_compare


@pytest.fixture(scope="module")
def spark():
    session = spark_dcp.configure(SparkSession.builder.master("local[2]").appName("spark-dcp-pytest")).getOrCreate()
    yield session
    session.stop()


@pytest.fixture
def place(xfs, request):
    """A directory of its own on the module's XFS mount."""
    path = os.path.join(xfs, request.node.name)
    os.mkdir(path)
    return path


def test_copy_keeps_the_tree_and_reports_as_the_cli(spark, place, capfd):
    src = make_tree(os.path.join(place, "src"))
    dst = os.path.join(place, "dst")
    report_file = os.path.join(place, "report.json")

    result = spark_dcp.copy(spark, src + "/", dst, report=report_file)

    assert result.exit_code == 0
    assert result.report["copied"] == 9 and result.report["failed"] == 0  # 3 dirs + 4 files + link + hard link
    with open(report_file, encoding="utf-8") as f:
        assert result.report == json.load(f)
    code, out = spark_dcp_compare(src + "/", dst)
    assert code == 0, out
    assert "copied" in repr(result) and "<pre>" in result._repr_html_() and "failed: 0" in repr(result)
    failures = result.failures_df()
    assert failures.columns == ["path", "op", "errno", "message"] and failures.count() == 0
    # Messages reach the caller's stderr (the JVM's would be a notebook's terminal), without a flood of progress lines.
    err = capfd.readouterr().err
    assert "spark-dcp: listed " in err, err
    assert err.count("\n") < 10, err


def test_several_sources_follow_rsyncs_rule(spark, place):
    a = make_tree(os.path.join(place, "a"))
    b = make_tree(os.path.join(place, "b"))
    dst = os.path.join(place, "dst")

    result = spark_dcp.copy(spark, [a, b], dst)

    assert result.exit_code == 0
    assert sorted(os.listdir(dst)) == ["a", "b"]
    assert spark_dcp_compare(a, dst)[0] == 0 and spark_dcp_compare(b, dst)[0] == 0


def test_sync_with_delete_makes_dst_exact(spark, place):
    src = make_tree(os.path.join(place, "src"))
    dst = os.path.join(place, "dst")
    assert spark_dcp.copy(spark, src + "/", dst).exit_code == 0
    with open(os.path.join(dst, "stale.txt"), "w") as f:
        f.write("not in SRC\n")
    os.chmod(os.path.join(dst, "top.txt"), 0o600)
    with open(os.path.join(src, "sub", "f1.dat"), "ab") as f:
        f.write(b"more")

    kept = spark_dcp.sync(spark, src + "/", dst)
    assert os.path.exists(os.path.join(dst, "stale.txt"))  # without delete= nothing goes
    result = spark_dcp.sync(spark, src + "/", dst, delete=True)

    assert result.exit_code == 0 and kept.exit_code == 0
    assert result.report["deleted"] == 1
    assert not os.path.exists(os.path.join(dst, "stale.txt"))
    code, out = spark_dcp_compare(src + "/", dst, "--contents")
    assert code == 0, out


def test_compare_gives_the_differences_as_a_dataframe(spark, place):
    src = make_tree(os.path.join(place, "src"))
    dst = os.path.join(place, "dst")
    assert spark_dcp.copy(spark, src + "/", dst).exit_code == 0
    os.chmod(os.path.join(dst, "top.txt"), 0o644)
    os.remove(os.path.join(dst, "sub", "f2.dat"))

    result = spark_dcp.compare(spark, src + "/", dst)

    assert result.exit_code == 1 and not result.identical
    rows = {(r.path, r.kind): (r.source, r.destination) for r in result.differences_df().collect()}
    assert ("top.txt", "mode") in rows, rows
    assert any(path == "sub/f2.dat" for path, _ in rows), rows
    assert result.differences_df().columns == ["path", "kind", "source", "destination"]
    assert result.report["differences_total"] == len(rows)
    assert "mode" in repr(result)
    # The project's comparator agrees.
    assert spark_dcp_compare(src + "/", dst)[0] == 1


def test_dry_run_writes_nothing(spark, place):
    src = make_tree(os.path.join(place, "src"))
    dst = os.path.join(place, "dst")

    plan = spark_dcp.copy(spark, src + "/", dst, dry_run=True)

    assert plan.exit_code == 0 and plan.report is None
    assert "copy: top.txt" in plan.plan and "copy: sub/f0.dat" in plan.plan
    assert not os.path.exists(dst)
    # sync's dry run names what --delete would remove, and removes nothing.
    assert spark_dcp.copy(spark, src + "/", dst).exit_code == 0
    open(os.path.join(dst, "stale.txt"), "w").close()
    plan = spark_dcp.sync(spark, src + "/", dst, delete=True, dry_run=True)
    assert "delete: stale.txt" in plan.plan
    assert os.path.exists(os.path.join(dst, "stale.txt"))


def test_state_ledger_spares_unchanged_entries(spark, place):
    src = make_tree(os.path.join(place, "src"))
    dst = os.path.join(place, "dst")
    state = os.path.join(place, "state")

    first = spark_dcp.sync(spark, src + "/", dst, state=state)
    second = spark_dcp.sync(spark, src + "/", dst, state=state)

    assert first.exit_code == 0 and second.exit_code == 0
    assert first.report["ledger_unchanged"] == 0
    assert second.report["ledger_unchanged"] == second.report["entries_listed"] > 0
    assert os.listdir(state)


def test_an_unknown_keyword_is_a_type_error_naming_the_valid_ones(spark, place):
    with pytest.raises(TypeError) as e:
        spark_dcp.copy(spark, place + "/", os.path.join(place, "dst"), bandwidth="200M")
    assert "bandwidth" in str(e.value) and "bwlimit" in str(e.value) and "exclude" in str(e.value)
    with pytest.raises(TypeError) as e:
        spark_dcp.copy(spark, place + "/", os.path.join(place, "dst"), delete=True)  # sync's, not copy's
    assert "'delete'" in str(e.value)
    with pytest.raises(TypeError):
        spark_dcp.copy(spark, place + "/", os.path.join(place, "dst"), master="local[4]")  # the session's own
    assert not os.path.exists(os.path.join(place, "dst"))


def test_a_bad_value_is_the_clis_message_as_a_value_error(spark, place):
    src = make_tree(os.path.join(place, "src"))
    dst = os.path.join(place, "dst")
    cli = spark_dcp_cli("copy", "--bwlimit=0", src + "/", dst)

    with pytest.raises(ValueError) as e:
        spark_dcp.copy(spark, src + "/", dst, bwlimit="0")

    assert cli.returncode == 2
    assert str(e.value) == cli.stderr.strip()
    with pytest.raises(ValueError, match="--walk-threads"):
        spark_dcp.copy(spark, src + "/", dst, walk_threads=0)
    with pytest.raises(ValueError, match="nosuch"):  # an impossible request: SRC missing
        spark_dcp.copy(spark, os.path.join(place, "nosuch") + "/", dst)
    assert not os.path.exists(dst)


def _python(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)


def test_a_session_without_the_jar_gets_one_clear_error(place):
    done = _python(f"""
        from pyspark.sql import SparkSession
        import spark_dcp
        spark = SparkSession.builder.master("local[1]").getOrCreate()
        try:
            spark_dcp.copy(spark, {place!r} + "/", {place!r} + "/dst")
        except spark_dcp.SessionError as e:
            print("REFUSED:", e)
    """)
    assert "REFUSED: spark-dcp: this Spark session has no spark-dcp jar" in done.stdout, done.stdout + done.stderr
    assert "spark_dcp.configure(" in done.stdout and spark_dcp.jar() in done.stdout
    assert not os.path.exists(os.path.join(place, "dst"))


def test_a_spark_connect_session_is_refused(place):
    done = _python(f"""
        from pyspark.sql import SparkSession
        import spark_dcp
        spark = SparkSession.builder.remote("local").getOrCreate()
        assert spark.range(3).count() == 3  # a real Connect session
        try:
            spark_dcp.copy(spark, {place!r} + "/", {place!r} + "/dst")
        except spark_dcp.SessionError as e:
            print("REFUSED:", e)
    """)
    assert "REFUSED: spark-dcp: a Spark Connect session" in done.stdout, done.stdout + done.stderr
    assert "use a classic session" in done.stdout
    assert not os.path.exists(os.path.join(place, "dst"))
