"""engine.sites and sy.convert: site hand histories to PHH, each hand checked by the engine.

The shared folder (``../shared/data/sites``, real files of 13 sites) is converted whole (about
6 s): every hand is converted and replays to the site's finishing stacks, or is skipped with a
reason; the readable proportions are floors measured on it. pokerkit reads the PHH written and
finds the site's finishing stacks; the ``.hp`` statistics of another tracker are compared with
the project's own (``engine.records.seat_stats``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from engine import phh, sites
from engine.records import seat_stats
from engine.sites.convert import DIFFERS, REASONS, UNBALANCED
from evaluator.errors import SampyongError
from sampyong.conversion import _EXAMPLE, convert

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sites"
if not DATA.is_dir():
    DATA = Path("/work/shared/data/sites")
FIRST = ("Stars", "FTP", "iPoker", "PartyPoker", "PacificPoker", "Winamax", "Bovada", "GGPoker")
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="the shared site files are not here")


@pytest.fixture(scope="module")
def folder():
    return convert(DATA)


def _site_of(result) -> str:
    return Path(result.path).relative_to(DATA).parts[1]


@needs_data
def test_every_hand_of_the_shared_folder_converts_and_replays_or_is_skipped_with_a_reason(folder):
    assert folder.files and folder.converted > 1500
    for result in folder.files:
        for number, fields in enumerate(result.records, 1):
            replayed = phh.replay(phh.Record(fields, result.path, number))
            assert replayed.status == phh.Status.MATCH, (result.path, number, replayed.message)
        for skipped in result.skipped:
            assert skipped.reason in REASONS and skipped.hand_id and skipped.line >= 1
            assert str(skipped).startswith(result.path)


@needs_data
def test_the_first_sites_convert_at_the_measured_rates(folder):
    """Floors measured on the shared folder (the converted share of each site's hands). iPoker
    (XML) is not read yet: its files are listed as unread."""
    table = folder.table(by=_site_of)
    rows = {row["site"]: row for row in table.iter_rows(named=True)}
    print(table)
    floors = {"Stars": 0.92, "GGPoker": 0.9, "FTP": 0.88, "Bovada": 0.9, "Winamax": 0.75, "PartyPoker": 0.35, "PacificPoker": 0.65}
    for site, floor in floors.items():
        assert rows[site]["converted"] >= floor * rows[site]["hands"], (site, rows[site])
    unread = Counter(Path(p).relative_to(DATA).parts[1] for p in folder.unread)
    assert set(unread) <= {"iPoker", "FTP", "Merge", "Microgaming", "Everleaf", "OnGame", "KingsClub"}


@needs_data
def test_every_hi_lo_hand_converts_or_has_a_stated_reason(folder):
    hilo = [fields for result in folder.files for fields in result.records if fields["variant"] in ("PO/8", "FO/8", "NO/8", "PO5/8")]
    assert len(hilo) >= 40
    assert any(fields["variant"] == "PO5/8" and "_sampyong" not in fields for fields in hilo)  # 5-card PLO8


def _hand(text: str):
    result = sites.read_text(text, "<test>")
    return result


def test_a_stars_hand_converts_with_its_fields():
    result = _hand(_EXAMPLE)
    assert result.site == "stars" and not result.skipped
    fields = result.records[0]
    assert fields["variant"] == "NT" and fields["players"] == ["Bo", "Cy", "Ann"] and fields["seats"] == [2, 3, 1]
    assert fields["blinds_or_straddles"] == [Decimal("0.01"), Decimal("0.02"), Decimal("0.00")]
    assert fields["finishing_stacks"] == [Decimal("1.99"), Decimal("1.94"), Decimal("2.07")]
    assert fields["hand"] == "1" and fields["currency"] == "USD" and fields["_site"] == "PokerStars"


def test_a_wrong_collected_amount_is_skipped_not_written():
    """The site's own figures must add up, and the engine's stacks must be the site's."""
    result = _hand(_EXAMPLE.replace("Ann collected $0.13", "Ann collected $0.14"))
    assert [s.reason for s in result.skipped] == [UNBALANCED] and not result.records
    result = _hand(_EXAMPLE.replace("Ann collected $0.13", "Cy collected $0.13"))
    assert [s.reason for s in result.skipped] == [DIFFERS]


def test_rake_comes_from_the_winner_only():
    raked = _EXAMPLE.replace("Ann collected $0.13", "Ann collected $0.12").replace("Rake $0", "Rake $0.01")
    fields = _hand(raked).records[0]
    assert fields["_rake"] == Decimal("0.01") and fields["finishing_stacks"][2] == Decimal("2.06")
    moved = dict(fields, finishing_stacks=[Decimal("1.98"), Decimal("1.94"), Decimal("2.07")])  # rake from a loser
    assert phh.replay(phh.Record(moved)).status == phh.Status.DIFFER


def test_files_with_bom_crlf_and_utf16_decode_alike():
    plain = sites.read_text(sites.decode(_EXAMPLE.encode()))
    for data in (b"\xef\xbb\xbf" + _EXAMPLE.replace("\n", "\r\n").encode(), _EXAMPLE.encode("utf-16")):
        assert sites.read_text(sites.decode(data)).records == plain.records


def test_unknown_site_and_strict():
    with pytest.raises(SampyongError, match="no hand of a known site"):
        sites.read_text("hello\n")
    with pytest.raises(SampyongError, match="unknown site"):
        sites.read_text(_EXAMPLE, site="nowhere")


def test_cli_convert_strict_exits_2_and_writes_nothing(tmp_path):
    bad = tmp_path / "h.txt"
    bad.write_text(_EXAMPLE + "\n\n" + _EXAMPLE.replace("Hand #1", "Hand #2").replace("collected $0.13", "collected $0.14"))
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "sampyong", "convert", str(bad), "--out", str(out), "--strict"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "hand 2" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not out.exists()
    run = subprocess.run([sys.executable, "-m", "sampyong", "convert", str(bad), "--out", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "2 hands: 1 converted, 1 skipped" in run.stdout
    assert len(phh.load_file(out / "h.txt.phhs")) == 1


def test_replay_reads_site_files_directly(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text(_EXAMPLE)
    assert [phh.replay(r).status.value for r in phh.load_paths([tmp_path])] == ["match"]


# --- pokerkit reads what convert writes -------------------------------------------------------

POKERKIT_CODES = ("NT", "FT", "PO", "FO/8")


@needs_data
def test_pokerkit_reads_the_written_records_to_the_sites_stacks(folder):
    """pokerkit 0.7.7 replays every converted hand of the variants it plays (NT, FT, PO, FO/8)
    from the PHH text written, and its finishing stacks are the site's but for the rake, which
    it does not take: the difference is the record's ``_rake``, on seats that won. Hands with a
    live blind posted out of the blind seats are left out: PHH has no field for it, the
    user-defined ``_posts`` carries it, and pokerkit reads such a hand as one without the post."""
    pokerkit = pytest.importorskip("pokerkit")
    checked, refused, posted = Counter(), set(), 0
    for result in folder.files:
        for fields in result.records:
            if fields["variant"] not in POKERKIT_CODES:
                continue
            if "_posts" in fields:  # a live post out of the blind seats: PHH and pokerkit have no such field
                posted += 1
                continue
            try:
                state = list(pokerkit.HandHistory.loads(phh.write_fields(fields)))[-1]
            except ValueError:  # pokerkit: "Unable to repair the hand history"
                refused.add(fields["hand"])
                continue
            stacks = [Decimal(str(s)) for s in state.stacks]
            diffs = [s - f for s, f in zip(stacks, fields["finishing_stacks"])]
            rake = fields.get("_rake", Decimal(0))
            assert sum(diffs) == rake and all(d >= 0 for d in diffs), (result.path, fields["hand"], stacks)
            checked[fields["variant"]] += 1
    assert 50 <= posted <= 150, posted
    assert checked["NT"] >= 1300 and checked["PO"] >= 150 and checked["FT"] >= 40 and checked["FO/8"] >= 2, checked
    # Two Bovada tournament hands (an all-in re-raise over an all-in, antes) pokerkit will not read;
    # the engine replays them to the site's stacks. Not yet explained.
    assert len(refused) <= 2, refused


# --- another tracker's statistics -----------------------------------------------------------

# What the .hp files (another tracker's per-player figures) call the project's statistics.
HP_FIELDS = {"vpip": "street0VPI", "pfr": "street0Aggr", "flop": "street1Seen", "showdown": "sawShowdown"}


def _hp_files():
    return sorted(p for p in DATA.glob("*/*/Flop/*.hp") if p.parts[-3] in FIRST) if DATA.is_dir() else []


@needs_data
@pytest.mark.parametrize("hp", _hp_files(), ids=lambda p: p.name[:40])
def test_statistics_agree_with_the_hp_file(hp):
    """Per player: VPIP, PFR, saw the flop, went to showdown, won at showdown, net won (cents).
    The files whose hands are skipped say why; every difference left is one of definition,
    asserted by name below."""
    expected = ast.literal_eval(hp.read_text().replace("u'", "'"))
    try:
        result = sites.read(hp.with_suffix(""))
    except SampyongError as error:  # iPoker XML: not read yet
        pytest.skip(str(error))
    if result.skipped:
        pytest.skip(f"{hp.name}: {result.skipped[0].reason}")
    ours: dict[str, Counter] = {}
    for fields in result.records:
        hand = phh.replay(phh.Record(fields)).hand
        for seat, stats in enumerate(seat_stats(hand)):
            name = fields["players"][seat]
            tally = ours.setdefault(name, Counter())
            tally.update({k: v for k, v in stats.items() if k in HP_FIELDS or k == "won_showdown"})
            tally["net"] += int((Decimal(fields["finishing_stacks"][seat]) - Decimal(fields["starting_stacks"][seat])) * 100)
    for name, figures in expected.items():
        mine = ours.get(name, Counter())
        for stat, field in HP_FIELDS.items():
            assert mine[stat] == int(figures[field]), (name, stat)
        assert bool(mine["won_showdown"]) == bool(figures["wonAtSD"]), (name, "won at showdown")
        assert mine["net"] == figures["totalProfit"], (name, "net")
