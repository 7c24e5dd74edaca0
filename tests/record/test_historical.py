"""The historical run against its record: one run of scenarios/goeben_1914.yaml, compared by the command,
its table in report.md and the replay's events panel; over a few seeds, the emergent score printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.cli import main
from campaign.paths import SCENARIO_DIR
from campaign.record.match import score_run
from campaign.record.schema import load_record, record_path
from campaign.record.tables import headline, text_table
from campaign.runner import RunResult, run


@pytest.fixture(scope="module")
def result() -> RunResult:
    return run(SCENARIO_DIR / "goeben_1914.yaml")


@pytest.fixture(scope="module")
def outdir(result: RunResult, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("historical_record")
    result.write(out)
    return out


def test_compare_prints_the_record_beside_the_run(result: RunResult, outdir: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    record = load_record(record_path("goeben_1914"))
    score = score_run(record, result.events)
    assert main(["compare", str(outdir)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(text_table(record, score))
    assert f"wrote {outdir / 'report.md'}" in out and f"wrote {outdir / 'replay.html'}" in out
    emergent, inputs = score.share(True), score.share(False)
    assert emergent[1] == sum(not e.input for e in record.events) and inputs[1] == sum(e.input for e in record.events)
    print(f"\nseed {result.seed}: {headline(score)}")


def test_every_run_writes_the_record_into_its_report_and_replay(result: RunResult, outdir: Path) -> None:
    score = score_run(load_record(record_path("goeben_1914")), result.events)
    report = (outdir / "report.md").read_text(encoding="utf-8")
    assert "## Against the record" in report
    assert headline(score) in report.replace("\\", "")
    assert report.index("## Against the record") < report.index("## The story")
    page = (outdir / "replay.html").read_text(encoding="utf-8")
    assert "record_check" in page and "Record: Gloucester, watching the southern exit" in page


def test_the_scenario_feeds_in_what_it_scripts(result: RunResult) -> None:
    """Inputs the scenario scripts to the minute or the tonne agree with the record in any run."""
    got = {o.event.id: o for o in score_run(load_record(record_path("goeben_1914")), result.events).outcomes}
    for key in ("goeben_coal_leaving_messina", "goeben_coals_at_messina", "troubridge_does_not_engage",
                "goeben_arrives_denusa"):
        assert got[key].within, key


@pytest.mark.slow
def test_the_emergent_score_over_a_few_seeds() -> None:
    """Prints the share of emergent events within tolerance, seed by seed (pytest -s shows it)."""
    record = load_record(record_path("goeben_1914"))
    sc = SCENARIO_DIR / "goeben_1914.yaml"
    lines = []
    for seed in (0, 1, 2):
        score = score_run(record, run(sc, seed=seed).events)
        assert score.share(True)[1] == sum(not e.input for e in record.events)
        lines.append(f"seed {seed}: {headline(score)}")
    print("\n" + "\n".join(lines))
