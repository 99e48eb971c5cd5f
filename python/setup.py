"""Puts the spark-dcp jar into the package when it is built from a clone or an unpacked distribution.

The jar is the one spark-submit takes (spark-dcp-app.jar: spark-dcp with jnr-ffi and picocli; Spark and
Jackson come with Spark). From a clone it is target/spark-dcp-app.jar (mvn package, or the launcher's
first run, makes it); in the distribution it is lib/spark-dcp-app.jar. Without either the package still
installs, and spark_dcp.jar() looks for it at run time (SPARK_DCP_JAR, SPARK_DCP_HOME).
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = [
    os.environ.get("SPARK_DCP_JAR", ""),
    os.path.join(HERE, "..", "target", "spark-dcp-app.jar"),
    os.path.join(HERE, "..", "lib", "spark-dcp-app.jar"),
]


class BuildWithJar(build_py):
    def run(self):
        super().run()
        found = next((c for c in CANDIDATES if c and os.path.isfile(c)), None)
        if found is None:
            print("spark-dcp: no spark-dcp-app.jar beside the package; spark_dcp.jar() will look for it at run time")
            return
        target = os.path.join(self.build_lib, "spark_dcp", "jars")
        os.makedirs(target, exist_ok=True)
        shutil.copyfile(found, os.path.join(target, "spark-dcp-app.jar"))


setup(cmdclass={"build_py": BuildWithJar})
