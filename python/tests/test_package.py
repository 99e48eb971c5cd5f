"""The package as users install it: from a clone, and from the distribution tarball, the jar inside it."""

import filecmp
import os
import subprocess
import sys
import tarfile
import zipfile

import pytest

import spark_dcp
from conftest import REPO

VERSION = "0.1.0"


def built_tarball():
    """target/spark-dcp-VERSION.tar, made again (as InstallTest makes it) when older than the jar."""
    tarball = os.path.join(REPO, "target", f"spark-dcp-{VERSION}.tar")
    jar = os.path.join(REPO, "target", "spark-dcp-app.jar")
    if not os.path.exists(tarball) or os.path.getmtime(tarball) < os.path.getmtime(jar):
        subprocess.run(["flock", "target/.launcher-build.lock", "mvn", "-q", "-B", "-f", "product-pom.xml",
                        "antrun:run@manual", "assembly:single@dist"], cwd=REPO, check=True, capture_output=True)
    return tarball


def wheel_of(project, out):
    """The wheel pip builds from project, with this environment's setuptools (no download)."""
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out),
                           project], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = [os.path.join(out, w) for w in os.listdir(out) if w.endswith(".whl")]
    return wheel


def _has_setuptools():
    try:
        import setuptools  # noqa: F401
        return True
    except ImportError:
        return False


def test_the_installed_package_carries_the_built_jar():
    assert spark_dcp.jar().startswith(os.path.dirname(spark_dcp.__file__))
    assert filecmp.cmp(spark_dcp.jar(), os.path.join(REPO, "target", "spark-dcp-app.jar"), shallow=False)


def test_the_distribution_holds_the_package_and_the_notebook(tmp_path):
    assert _has_setuptools(), "setuptools is needed to build the wheel without a download (requirements-ci.txt)"
    with tarfile.open(built_tarball()) as tar:
        names = tar.getnames()
        top = f"spark-dcp-{VERSION}"
        assert f"{top}/docs/notebook.ipynb" in names
        assert f"{top}/python/pyproject.toml" in names and f"{top}/python/spark_dcp/airflow.py" in names
        tar.extractall(tmp_path, filter="data")
    unpacked = tmp_path / top

    wheel = wheel_of(str(unpacked / "python"), tmp_path / "wheel")

    with zipfile.ZipFile(wheel) as z:
        assert "spark_dcp/airflow.py" in z.namelist()
        with z.open("spark_dcp/jars/spark-dcp-app.jar") as inside, open(unpacked / "lib" / "spark-dcp-app.jar", "rb") as lib:
            assert inside.read() == lib.read()


def test_without_a_jar_the_error_says_where_it_looked(monkeypatch, tmp_path):
    monkeypatch.setattr(os.path, "isfile", lambda path: False)
    monkeypatch.setenv("SPARK_DCP_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as e:
        spark_dcp.jar()
    assert "mvn package" in str(e.value) and str(tmp_path) in str(e.value)
