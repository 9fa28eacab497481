"""The rulebook: its study list and the CLI dispatch (the full run is exercised by hand and in docs/)."""

from typer.testing import CliRunner

from evaluator.tables import cache_dir
from jobs import rulebook
from sampyong import cli


def test_studies_cover_every_job():
    """Showdown, four baselines with their variant sweeps, PLS7 variants, textures, draws, two distributions and two grids."""
    configs = rulebook.studies(1_000_000, seed=3)
    jobs = [(c.job, c.game) for c in configs]
    assert ("showdown", "pls7") in jobs and all(("showdown", g) in jobs for g in rulebook.BASELINES)
    assert {j for j, _ in jobs} == {"showdown", "variants", "textures", "draws", "distribution", "grid"}
    assert next(c for c in configs if c.job == "showdown" and c.game == "pls7").deals == 1_000_000
    assert all(c.deals == 100_000 for c in configs if c.job in ("variants", "textures", "draws") and c.game == "pls7")
    assert all(("variants", g) in jobs for g in rulebook.BASELINES)
    assert all(c.deals == 10_000 for c in configs if c.job == "variants" and c.game != "pls7")
    assert len(set(jobs)) == len(jobs)


def test_cli_dispatches_rulebook(monkeypatch, tmp_path):
    """`sampyong run rulebook --deals N` calls the rulebook with N and prints its report folder."""
    calls = []

    def fake(deals, seed, backend, out, *, resume, quiet, upstream_out):
        calls.append((deals, seed, out, upstream_out))
        return out / "rulebook" / "x"

    monkeypatch.setattr(rulebook, "run_rulebook", fake)
    result = CliRunner().invoke(cli.app, ["run", "rulebook", "--deals", "100M", "--seed", "4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert calls == [(100_000_000, 4, tmp_path, cache_dir() / "runs")]  # upstream runs kept from run to run
    assert result.stdout.strip().endswith(str(tmp_path / "rulebook" / "x"))
