"""grid.html in a real browser (headless Chromium, driven by Playwright): the cells, the search,
the slider, a hover, a typed range, and a screenshot whose colours match grid.csv."""

from pathlib import Path

import polars as pl
import pytest

from evaluator.cards import parse_cards
from evaluator.games import game
from evaluator.ranges import parse_range, top_percent
from jobs.grid_view import color, write_grid_view
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.browser import ARGS, CHROMIUM, needs_browser, sync_playwright
from tests.helpers import execute

pytestmark = needs_browser


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """An exact hold'em grid and a sampled 3-handed PLS7 grid, each with its grid.html."""
    out = tmp_path_factory.mktemp("grids")
    holdem = execute(
        RunConfig(job="grid", game="holdem", deals=1, shard_deals=1, players=2, seed=0),
        SerialBackend(),
        out,
        quiet=True,
    )
    pls7 = execute(
        RunConfig(job="grid", game="pls7", deals=300_000, shard_deals=100_000, players=3, seed=1),
        SerialBackend(),
        out,
        quiet=True,
    )
    return {"holdem": holdem, "pls7": pls7}


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield instance
        instance.close()


def open_view(browser, run_dir: Path):
    page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=1)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((write_grid_view(run_dir)).as_uri())
    assert not errors, errors
    return page


def lit(page) -> set:
    return set(page.eval_on_selector_all(".cls.lit", "els => els.map(e => e.dataset.name)"))


def set_slider(page, value: float) -> None:
    page.eval_on_selector("#slider", f"el => {{ el.value = '{value}'; el.dispatchEvent(new Event('input')); }}")


@pytest.mark.parametrize("name, cells", [("holdem", 169), ("pls7", 1755)])
def test_every_class_has_a_cell(runs, browser, name, cells):
    """The page shows one box per class: 169 for hold'em, 1,755 for a three-card game."""
    page = open_view(browser, runs[name])
    assert page.locator(".cls").count() == cells
    page.close()


def test_search_finds_a_class_by_name_and_by_cards(runs, browser):
    """`AKQ aab` and the cards `Ks As Qh` (ace and king suited) find the same box; a bad name finds none."""
    page = open_view(browser, runs["pls7"])
    for text in ("AKQ aab", "Ks As Qh"):
        page.fill("#search", text)
        assert page.eval_on_selector_all(".cls.found", "els => els.map(e => e.dataset.name)") == ["AKQ aab"]
    page.fill("#search", "AKQ zzz")
    assert page.locator(".cls.found").count() == 0 and page.text_content("#status") == "no such class"
    page.close()


@pytest.mark.parametrize("name, percent", [("holdem", 15), ("pls7", 10)])
def test_slider_highlights_the_top_percent_and_writes_it_as_a_range(runs, browser, name, percent):
    """The slider lights the classes evaluator.ranges.top_percent picks from grid.csv, and the range
    text it prints expands (evaluator.ranges) to exactly those classes' hands."""
    grid = pl.read_csv(runs[name] / "tables" / "grid.csv")
    column = "equity_high" if "equity_high" in grid.columns else "equity"
    page = open_view(browser, runs[name])
    set_slider(page, percent)
    names = grid["class"].to_list()
    classes = [([n], v) for n, v in zip(names, grid[column].to_list())]
    # top_percent counts hands: give each class as many stand-ins as it has combos
    weighted = [([(n, k) for k in range(c)], v) for (n_, v), n, c in zip(classes, names, grid["combos"].to_list())]
    expected = {n for n, _ in top_percent(weighted, percent)}
    assert lit(page) == expected
    rules = game(name)
    text = page.text_content("#rangeText")
    combos = set(parse_range(text, rules).combos)
    examples = dict(zip(names, grid["example"].to_list()))
    assert len(combos) == sum(c for n, c in zip(names, grid["combos"].to_list()) if n in expected)
    assert all(tuple(sorted(parse_cards(examples[n]))) in combos for n in expected)
    page.close()


def test_typed_range_lights_its_classes(runs, browser):
    """Typing `QQ+, AKs` lights AA, KK, QQ and AKs; `AA*` on PLS7 lights every class with two aces or more."""
    page = open_view(browser, runs["holdem"])
    page.fill("#range", "QQ+, AKs")
    assert lit(page) == {"AA", "KK", "QQ", "AKs"}
    page.close()
    page = open_view(browser, runs["pls7"])
    page.fill("#range", "AA*")
    grid = pl.read_csv(runs["pls7"] / "tables" / "grid.csv")
    assert lit(page) == {n for n in grid["class"].to_list() if n.count("A") >= 2}
    page.close()


def test_hover_shows_every_number(runs, browser):
    """Hovering AA shows its class, an example, its combos and its equity as in grid.csv."""
    grid = pl.read_csv(runs["holdem"] / "tables" / "grid.csv")
    row = grid.filter(pl.col("class") == "AA").row(0, named=True)
    page = open_view(browser, runs["holdem"])
    page.hover('.cls[data-name="AA"]')
    tip = page.text_content("#tip")
    assert tip.startswith(f"AA   e.g. {row['example']}") and f"combos: {row['combos']}" in tip
    assert f"equity_high: {100 * row['equity_high']:.3f} %" in tip
    page.close()


def test_screenshot_colours_match_grid_csv(runs, browser, tmp_path):
    """In a screenshot, the centre of AA, 72o, T9s and 22 has the colour grid.csv's equity maps to."""
    grid = pl.read_csv(runs["holdem"] / "tables" / "grid.csv")
    values = dict(zip(grid["class"].to_list(), grid["equity_high"].to_list()))
    low, high = min(values.values()), max(values.values())
    page = open_view(browser, runs["holdem"])
    shot = tmp_path / "holdem-grid.png"
    page.screenshot(path=str(shot), full_page=True)
    from PIL import Image

    image = Image.open(shot).convert("RGB")
    for name in ("AA", "72o", "T9s", "22"):
        box = page.locator(f'.cls[data-name="{name}"]').bounding_box()
        x, y = int(box["x"] + 4), int(box["y"] + 4)  # a corner away from the label, inside the outline-free area
        assert all(abs(a - b) <= 2 for a, b in zip(image.getpixel((x, y)), color(values[name], low, high))), name
    page.close()
