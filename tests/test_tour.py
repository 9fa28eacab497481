"""The README's CLI tour (``docs/tour.py``): its figures are a fresh run's, between markers."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def load_tour():
    """docs/tour.py as a module (docs/ is not a package)."""
    name = "sampyong_docs_tour"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "tour.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


tour = load_tour()


def test_readme_has_the_tour_regions():
    """README.md marks exactly the tour's regions, each opened and closed once, none nested."""
    text = README.read_text()
    tour.check_regions(text)
    spans = tour.regions(text)
    assert sorted(spans) == sorted(tour.REGIONS)
    for name, (start, end) in spans.items():
        body = text[start:end]
        if name in ("distribution", "grid"):  # inline: one line of a paragraph
            assert "\n" not in body and body.strip() == body, name
        else:  # a fenced block or a table, with the markers on their own lines
            assert body.startswith("\n") and body.endswith("\n"), name
    assert tour.rewrite(text, {name: text[s:e] for name, (s, e) in spans.items()}) == text


def test_rewrite_replaces_only_marked_regions():
    """rewrite() swaps the bodies of the named regions and keeps all other text, markers included."""
    text = (
        "intro <!-- tour:a -->old a<!-- /tour:a --> middle\n"
        "<!-- tour:b -->\nold b\n<!-- /tour:b -->\n"
        "<!-- tour: not a marker --> outro\n"
    )
    assert tour.rewrite(text, {"a": "new a"}) == text.replace("old a", "new a")
    assert tour.rewrite(text, {"a": "", "b": "\nnew b\n"}) == (
        "intro <!-- tour:a --><!-- /tour:a --> middle\n"
        "<!-- tour:b -->\nnew b\n<!-- /tour:b -->\n"
        "<!-- tour: not a marker --> outro\n"
    )
    assert tour.rewrite(text, {}) == text
    with pytest.raises(tour.TourError):
        tour.rewrite(text, {"c": "no such region"})
    for bad in (
        "<!-- tour:a -->x",  # never closed
        "x<!-- /tour:a -->",  # closes nothing
        "<!-- tour:a --><!-- tour:b --><!-- /tour:b --><!-- /tour:a -->",  # nested
        "<!-- tour:a --><!-- /tour:b -->",  # closes another
        "<!-- tour:a --><!-- /tour:a --><!-- tour:a --><!-- /tour:a -->",  # twice
    ):
        with pytest.raises(tour.TourError):
            tour.regions(bad)


def test_markers_do_not_change_the_rendered_readme():
    """README.md renders to the same HTML, up to whitespace, with its tour markers and without them."""
    markdown_it = pytest.importorskip("markdown_it")
    md = markdown_it.MarkdownIt("commonmark").enable("table")
    text = README.read_text()
    without = re.sub(r"^<!-- /?tour:[\w-]+ -->\n", "", text, flags=re.M)
    without = tour.MARKER.sub("", without)

    def words(html):
        return tour.MARKER.sub("", html).split()

    assert words(md.render(text)) == words(md.render(without))


@pytest.mark.slow(minutes=1)
def test_readme_tour_equals_a_fresh_run():
    """Every output and figure in the README's tour equals a fresh run of its commands, bit for bit."""
    text = README.read_text()
    fresh = tour.fresh(text, log=None)
    assert fresh == text, "README.md differs from a fresh run (python docs/tour.py rewrites it):\n" + tour.diff(
        text, fresh
    )
