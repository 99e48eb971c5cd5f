"""docs/notebook.ipynb executed top to bottom by nbclient with a real IPython kernel, its tree on XFS."""

import os

import nbformat
from nbclient import NotebookClient

from conftest import REPO

NOTEBOOK = os.path.join(REPO, "docs", "notebook.ipynb")


def text_of(cell):
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output["text"])
        elif "data" in output:
            parts.append(output["data"].get("text/plain", ""))
    return "".join(parts)


def test_the_notebook_runs_top_to_bottom_and_ends_with_no_differences(xfs, monkeypatch):
    base = os.path.join(xfs, "notebook")
    os.mkdir(base)
    monkeypatch.setenv("SPARK_DCP_NOTEBOOK_DIR", base)
    notebook = nbformat.read(NOTEBOOK, as_version=4)

    # Raises CellExecutionError, naming the cell, when any cell fails.
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": base}}).execute()

    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    by_source = {c.source.splitlines()[0]: c for c in code}
    assert "copy: README" in text_of(by_source['plan = spark_dcp.copy(spark, src + "/", dst, dry_run=True)'])
    copy_cell = by_source['result = spark_dcp.copy(spark, src + "/", dst)']
    assert "failed: 0" in text_of(copy_cell)
    assert len(copy_cell.outputs) < 10  # messages and a progress line redrawn in place: no flood
    differences = text_of(by_source["diff.differences_df().show(truncate=False)"])
    assert "README" in differences and "mode" in differences and "stray.txt" in differences
    final = text_of(by_source['final = spark_dcp.compare(spark, src + "/", dst, contents=True)'])
    assert "0 differences" in final and "identical" in final
    assert not os.path.exists(os.path.join(base, "dst", "results", "stray.txt"))
