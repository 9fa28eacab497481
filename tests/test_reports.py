"""Reports people can read: every Markdown table of every study (report.md and tables/*.md) has
rates as percentages to the digit of their standard error, counts with thousands separators,
headers in words and no scientific notation; the .csv keep the raw fractions. The rule book's
section 7 prints 1 - scoop and the high/low split beside its words and says which one they mean."""

import re
from pathlib import Path

import polars as pl
import pytest

from jobs import rulebook
from jobs.common import WORDS
from pipeline.aggregate import count, markdown_table, number, percent, points
from pipeline.backends import SerialBackend
from pipeline.plan import RunConfig
from tests.helpers import execute

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "docs" / "sample-rulebook"

SCIENTIFIC = re.compile(r"\d(?:\.\d+)?[eE][+-]\d")  # as Python writes it: 2e+06, 4.15e-05
# A fraction standing alone: not a standard error (after "± ") and not followed by a unit.
BARE_FRACTION = re.compile(r"(?<!± )(?<![\d.])0\.\d{3,}(?![\d]| ?(?:%|pp))")
# The showdown report's "Against RULES.md section 9" table is the README tour's (docs/tour.py
# copies it into README.md), so it keeps its fractions; everything else must not.
TOUR_SECTION = re.compile(r"## Against RULES\.md section 9\n.*?(?=\n## |\Z)", re.S)


def tables_of(text: str) -> list[list[str]]:
    """Every Markdown table of a text, as its lines."""
    tables, current = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            tables.append(current)
            current = []
    return tables + ([current] if current else [])


def assert_readable(text: str, where: str) -> None:
    body = TOUR_SECTION.sub("", text)
    assert not SCIENTIFIC.search(body), (where, SCIENTIFIC.findall(body)[:5])
    assert not BARE_FRACTION.search(body), (where, BARE_FRACTION.findall(body)[:5])
    for table in tables_of(body):
        header = [cell.strip() for cell in table[0].strip("|").split("|")]
        assert not [c for c in header if c in WORDS or c.endswith(" se") or c.endswith("_se")], (where, header)


# --- the number helpers ---------------------------------------------------------------------


def test_percent_digits_follow_the_standard_error():
    """The SE to 1 significant digit (2 when it starts with a 1), the value to the SE's last digit;
    exact or SE 0: 4 decimals; never scientific notation."""
    assert percent(0.175335, 0.00031) == "17.53 % ± 0.03"
    assert percent(0.175335, 0.000149) == "17.534 % ± 0.015"
    assert percent(0.175335, 0.0031) == "17.5 % ± 0.3"
    assert percent(0.5, 0.031) == "50 % ± 3"
    assert percent(0.175335) == percent(0.175335, 0.0) == "17.5335 %"
    assert percent(6e-07, 2e-07) == "0.00006 % ± 0.00002" and percent(6e-07, 1e-07) == "0.000060 % ± 0.000010"
    assert points(-0.0001, 0.00002) == "-0.010 pp ± 0.002"
    assert number(123456.0, 37.0) == "123460 ± 40"
    assert count(12345678901) == "12,345,678,901" and count(2e6) == "2,000,000"
    for text in (percent(1e-9, 1e-10), number(1e-9), number(1e12), points(1e-8, 1e-9)):
        assert not SCIENTIFIC.search(text), text


def test_markdown_table_formats_and_refuses_unknown_ones():
    frame = pl.DataFrame({"n": [3], "rate": [0.25], "rate_se": [0.01], "note": ["x"]})
    assert markdown_table(frame, {"rate": "percent"}, {"rate": "a rate"}).splitlines() == [
        "| n | a rate | note |",
        "|---|---|---|",
        "| 3 | 25.0 % ± 1.0 | x |",
    ]
    with pytest.raises(ValueError):
        markdown_table(frame, {"rate": "percentage"})
    with pytest.raises(ValueError):
        markdown_table(frame, {"missing": "percent"})


# --- every study's report and tables --------------------------------------------------------

RUNS = {
    "showdown": RunConfig(job="showdown", game="pls7", deals=20_000, shard_deals=10_000, players=6, seed=1),
    "variants": RunConfig(job="variants", game="pls7", deals=10_000, shard_deals=10_000, players=4, seed=1),
    "textures": RunConfig(job="textures", game="pls7", deals=10_000, shard_deals=10_000, players=6, seed=1),
    "draws": RunConfig(job="draws", game="pls7", deals=20_000, shard_deals=20_000, players=2, seed=1),
    "grid": RunConfig(job="grid", game="holdem", deals=10_000, shard_deals=10_000, players=3, seed=1),
    "distribution": RunConfig(job="distribution", game="holdem", deals=1, shard_deals=0, players=1, seed=0),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    return {name: execute(config, SerialBackend(), out, quiet=True) for name, config in RUNS.items()}


@pytest.mark.parametrize("name", list(RUNS))
def test_every_markdown_is_for_people(runs, name):
    """report.md and every tables/*.md: no scientific notation, no bare fraction, headers in words;
    a report opens with a title and one paragraph; sampled rates print with ' ± '."""
    run_dir = runs[name]
    report = (run_dir / "report.md").read_text()
    assert_readable(report, f"{name} report.md")
    lines = report.splitlines()
    assert lines[0].startswith("# ") and lines[1] == "" and len(lines[2]) > 100 and lines[3] == ""
    for md in sorted((run_dir / "tables").glob("*.md")):
        assert_readable(md.read_text(), f"{name} {md.name}")
    if name != "distribution":
        assert " ± " in report
    if name in ("showdown", "variants", "textures", "grid", "draws"):
        assert re.search(r"\d % ± \d", report), name


def test_csv_keep_the_raw_fractions(runs):
    """Only the Markdown changes: the .csv hold fractions and their _se columns, counts as integers."""
    summary = pl.read_csv(runs["showdown"] / "tables" / "summary.csv")
    assert summary["hi_chop"].dtype == pl.Float64 and summary["hi_chop"].max() < 1
    assert {"hilo_split", "hilo_split_se"} <= set(summary.columns) and summary["deals"].dtype == pl.Int64
    md = (runs["showdown"] / "tables" / "summary.md").read_text()
    row = summary.filter(pl.col("players") == 2).row(0, named=True)
    assert f"| {percent(row['hilo_split'], row['hilo_split_se'])} |" in md and "20,000" in md


def test_the_section_9_table_reads_in_percentages(runs):
    """The 'Against RULES.md section 9' table (which the README tour copies without z) shows the
    rule book's figure and ours as percentages, ours ± its standard error."""
    report = (runs["showdown"] / "report.md").read_text()
    section = TOUR_SECTION.search(report).group()
    assert "| figure | rule book | measured | z |" in section
    assert re.search(r"\| pls7, 6 players: hi_chop \| 7\.05 % \| \d+\.\d+ % ± \d\.\d+ \| [+-]\d+\.\d \|", section)


# --- the rule book --------------------------------------------------------------------------


def _summary(rows):
    """A showdown summary from counts: (players, deals, hi_chop, scoop, hilo_split)."""
    frame = pl.DataFrame(rows, schema=["players", "deals", "hi_chop", "scoop", "hilo_split"], orient="row")
    n = pl.col("deals").cast(pl.Float64)
    out = [pl.col("players"), pl.col("deals")]
    for f in ("hi_chop", "scoop", "hilo_split"):
        p = pl.col(f) / n
        out += [p.alias(f), (p * (1 - p) / n).sqrt().alias(f"{f}_se")]
    return frame.select(out)


def test_section_7_prints_both_figures_and_says_which_the_words_mean():
    """Counts: heads-up 1,000 deals, 30 high chops, 800 scoops, 180 high/low splits: 1 - scoop 20 %
    (180 splits + 20 pure high chops), (1 - scoop) - hi_chop 17 %, so 10 deals have a chopped high
    and a low going to others (1 %)."""
    lines = rulebook.table_size(_summary([(2, 1000, 30, 800, 180), (4, 1000, 50, 650, 310)]))
    text = "\n".join(lines)
    assert text.startswith("## Section 7") and "three hands in ten split" in text and "one hand in seven splits" in text
    rows = {
        int(r[0]): r for r in (line.strip("|").split("|") for line in text.splitlines() if re.match(r"\| \d \|", line))
    }
    two = [c.strip() for c in rows[2]]
    assert two[1].startswith("about one in seven")
    assert two[2] == percent(0.18, (0.18 * 0.82 / 1000) ** 0.5)  # split high/low
    assert two[3] == percent(0.20, (0.2 * 0.8 / 1000) ** 0.5)  # 1 - scoop
    assert two[4] == percent(0.17, (0.17 * 0.83 / 1000) ** 0.5)  # (1 - scoop) - hi_chop
    assert two[5] == percent(0.01, (0.01 * 0.99 / 1000) ** 0.5)  # chopped high, low to others
    assert "words mean **split high/low**" in text and "Read as 1 − scoop the words would be wrong" in text
    assert_readable(text, "section 7")


def test_committed_sample_is_readable_and_reads_section_7():
    """docs/sample-rulebook/ is regenerated in the new format: percentages ± SE, no scientific
    notation or bare fractions, section 7 with both figures near the rule book's, and the
    .csv with the raw fractions and the new column."""
    report = (SAMPLE / "report.md").read_text()
    assert_readable(report, "sample report.md")
    section = report[report.index("## Section 7") : report.index("## Section 9")]
    assert "split high/low" in section and "not scooped (1 − scoop)" in section
    assert "The rule book's words mean **split high/low**" in section
    numbers = {
        int(m.group(1)): [float(x) for x in m.groups()[1:]]
        for m in re.finditer(r"^\| (\d) \| [^|]+ \| ([\d.]+) % ± [\d.]+ \| ([\d.]+) % ± [\d.]+ \|", section, re.M)
    }
    assert abs(numbers[2][0] - 100 / 7) < 1.5 and abs(numbers[4][0] - 30) < 1.5  # the words' figures
    assert numbers[2][1] > 17 and numbers[4][1] > 33  # 1 - scoop: what the report used to print
    baselines = pl.read_csv(SAMPLE / "tables" / "baselines.csv")
    assert baselines["hi_chop"].max() < 1 and "hilo_split_se" in baselines.columns
    assert all((SAMPLE / "figures").glob("*.png"))
