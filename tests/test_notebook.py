"""docs/notebook.ipynb, the API's tour, runs top to bottom and shows what it says it shows."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "notebook.ipynb"


def outputs(cell) -> str:
    """Everything a cell showed: printed text, plain and HTML results."""
    shown = []
    for output in cell.get("outputs", []):
        shown.append(output.get("text", ""))
        data = output.get("data", {})
        shown += [data.get("text/plain", ""), data.get("text/html", ""), "image" if "image/png" in data else ""]
    return "\n".join(shown)


def test_the_notebook_runs_top_to_bottom(tmp_path):
    """Every cell runs without an error (in a scratch folder); the grid shows inline, the figure
    draws, the equity and the replay show their results."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    shown = [outputs(cell) for cell in code]
    assert all(output.get("output_type") != "error" for cell in code for output in cell.get("outputs", []))
    by_source = {cell.source.splitlines()[0]: text for cell, text in zip(code, shown)}
    assert "pls7" in by_source["import sampyong as sy"]
    assert "image" in next(text for source, text in by_source.items() if source.startswith("import matplotlib"))
    assert "<iframe srcdoc=" in next(text for source, text in by_source.items() if source.startswith("grid = "))
    assert "exact" in next(text for source, text in by_source.items() if source.startswith("sy.equity"))
    assert "20 hands: 20 match" in next(text for source, text in by_source.items() if source.startswith("replayed = "))
    assert "<table>" in next(text for source, text in by_source.items() if source.startswith("sy.play("))
    assert (tmp_path / "outputs" / "showdown").is_dir()
