"""Shared by the Python tests: the repository, XFS loop mounts, trees, and the project's own comparator.

The tests mount real XFS images and set owners and project IDs: they need root. Under CI=true a
machine without root or mkfs.xfs fails them; elsewhere they are skipped with the reason.
"""

import logging
import os
import shutil
import subprocess
import tempfile

import pytest

# py4j's INFO line as the interpreter exits, after pytest closed the stream it logs to, would print a traceback.
logging.getLogger("py4j").setLevel(logging.WARNING)

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LAUNCHER = os.path.join(REPO, "submit-scripts", "spark-dcp")


def require_root_and_xfs():
    ready = os.geteuid() == 0 and shutil.which("mkfs.xfs", path=os.environ["PATH"] + ":/usr/sbin:/sbin") is not None
    if not ready:
        reason = "needs root and mkfs.xfs (XFS on a loop device)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + ": under CI=true this is a failure, not a skip")
        pytest.skip(reason)


class XfsMount:
    """A sparse XFS image mounted on a directory of its own; close() unmounts it and removes both."""

    def __init__(self, name, size_mib=300):
        self.base = tempfile.mkdtemp(prefix=f"spark-dcp-py-{name}-")
        self.image = os.path.join(self.base, "image")
        self.dir = os.path.join(self.base, "mnt")
        os.mkdir(self.dir)
        with open(self.image, "wb") as f:
            f.truncate(size_mib << 20)
        subprocess.run(["mkfs.xfs", "-q", self.image], check=True)
        subprocess.run(["mount", "-o", "loop", self.image, self.dir], check=True)

    def close(self):
        subprocess.run(["umount", self.dir], check=False)
        shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="module")
def xfs(request):
    require_root_and_xfs()
    mount = XfsMount(request.module.__name__.rsplit(".", 1)[-1].replace("_", "-"))
    yield mount.dir
    mount.close()


def make_tree(root, files=3):
    """A small tree with what spark-dcp keeps: modes, owners, times, a symlink, a hard link, an xattr, a project ID."""
    os.makedirs(os.path.join(root, "sub", "deep"))
    for i in range(files):
        with open(os.path.join(root, "sub", f"f{i}.dat"), "wb") as f:
            f.write(os.urandom(1000 * (i + 1)))
    with open(os.path.join(root, "top.txt"), "w") as f:
        f.write("top\n")
    os.chmod(os.path.join(root, "top.txt"), 0o640)
    os.chown(os.path.join(root, "sub", "f0.dat"), 1234, 5678)
    os.symlink("sub/f1.dat", os.path.join(root, "link"))
    os.link(os.path.join(root, "sub", "f0.dat"), os.path.join(root, "sub", "deep", "hard"))
    os.setxattr(os.path.join(root, "top.txt"), "user.origin", b"python")
    subprocess.run(["xfs_io", "-c", "chproj 42", os.path.join(root, "sub")], check=True, capture_output=True)
    os.utime(os.path.join(root, "sub", "f2.dat"), ns=(1_600_000_000_123_456_789, 1_600_000_000_123_456_789))
    return root


def spark_dcp_compare(src, dst, *options):
    """The project's own comparator (spark-dcp compare, run by the launcher): its exit code and output."""
    done = subprocess.run([LAUNCHER, "compare", *options, src, dst], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def spark_dcp_cli(*args):
    """The CLI itself, as users run it."""
    return subprocess.run([LAUNCHER, *args], capture_output=True, text=True)
