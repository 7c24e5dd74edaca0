"""The scenario's files sent with a batch's tasks: which files, their digests, and a scenario loaded from
them that runs exactly as the one loaded from its folder, with the folder gone."""

from __future__ import annotations

import hashlib
import pickle
import shutil
from pathlib import Path

import pytest
import yaml

from campaign.batch.bundle import FilesError, gather, scenario_from
from campaign.batch.run import BatchError, make_plan
from campaign.batch.software import changed
from campaign.paths import SCENARIO_DIR
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from tests.batch.conftest import write_small

HISTORICAL = SCENARIO_DIR / "goeben_1914.yaml"
# A scripted calm beside the scenario: state 0 over the whole Mediterranean for the small scenario's day.
CALM = {"periods": [{"start": "1914-08-02T00:00Z", "end": "1914-08-03T00:00Z", "region": "all", "state": 0}]}


def test_the_historical_batch_sends_its_scenario_and_every_overlay_byte_for_byte() -> None:
    variants = sorted(p.stem for p in (HISTORICAL.parent / "variants").glob("*.yaml"))
    files = gather(HISTORICAL, variants)
    want = ["goeben_1914.yaml"] + [f"variants/{v}.yaml" for v in variants]
    assert [rel for rel, _ in files.sha256] == sorted(want)
    for rel, digest in files.sha256:  # the digests are of the files as they are on disk
        assert digest == hashlib.sha256((HISTORICAL.parent / rel).read_bytes()).hexdigest()
    # Its scripted weather is named from data/, which comes with the package: not sent.
    assert "weather_1914.yaml" not in dict(files.sha256)
    # Small enough to go with every task (about 22 kB pickled for the scenario and its fourteen overlays).
    assert len(pickle.dumps(files)) < 40_000


def test_only_the_batchs_variants_are_sent(tmp_path) -> None:
    path = write_small(tmp_path)
    assert [rel for rel, _ in gather(path, ["faster"]).sha256] == ["small.yaml", "variants/faster.yaml"]
    assert [rel for rel, _ in gather(path, []).sha256] == ["small.yaml"]


def test_the_files_are_equal_by_content_and_an_edit_is_named(tmp_path) -> None:
    a, b = write_small(tmp_path / "a"), write_small(tmp_path / "b")
    fa, fb = gather(a, ["same", "faster"]), gather(b, ["same", "faster"])
    assert fa == fb and hash(fa) == hash(fb)  # two folders, the same files
    overlay = b.parent / "variants" / "faster.yaml"
    overlay.write_text(overlay.read_text().replace("speed: 20", "speed: 21"))
    fb2 = gather(b, ["same", "faster"])
    assert fb2 != fb
    assert changed(dict(fb.sha256), dict(fb2.sha256)) == ["variants/faster.yaml"]
    assert changed(dict(fb.sha256), dict(gather(b, ["same"]).sha256)) == ["variants/faster.yaml"]


@pytest.mark.parametrize("variant", [None, "faster"])
def test_a_scenario_loaded_from_the_files_runs_as_the_one_loaded_from_its_folder_after_the_folder_is_gone(
        tmp_path, variant) -> None:
    path = write_small(tmp_path / "s")
    want = run(load_scenario(path, variant=variant), seed=3).events
    files = gather(path, ["same", "faster"])
    shutil.rmtree(path.parent)
    sc = scenario_from(files, variant)
    assert run(sc, seed=3).events == want
    assert scenario_from(files, variant) is sc  # loaded once a process


def test_the_files_written_out_are_the_files_read(tmp_path) -> None:
    path = write_small(tmp_path / "s")
    files = gather(path, ["same", "faster"])
    out = files.write(tmp_path / "copy")
    assert out == tmp_path / "copy" / "small.yaml"
    for rel, _ in files.sha256:
        assert (tmp_path / "copy" / rel).read_bytes() == (path.parent / rel).read_bytes()


def _with_weather(folder: Path, overlay_weather: bool) -> Path:
    """The small scenario whose weather is scripted by a file beside it, named by the scenario itself or
    (``overlay_weather``) only by its ``faster`` overlay."""
    path = write_small(folder)
    (folder / "weather").mkdir()
    (folder / "weather" / "calm.yaml").write_text(yaml.safe_dump(CALM))
    if overlay_weather:
        overlay = folder / "variants" / "faster.yaml"
        raw = yaml.safe_load(overlay.read_text())
        raw["changes"]["weather"] = {"script_file": "weather/calm.yaml"}
        overlay.write_text(yaml.safe_dump(raw))
    else:
        raw = yaml.safe_load(path.read_text())
        raw["weather"] = {"script_file": "weather/calm.yaml"}
        path.write_text(yaml.safe_dump(raw))
    return path


@pytest.mark.parametrize("overlay_weather", [False, True])
def test_a_weather_file_beside_the_scenario_goes_with_it(tmp_path, overlay_weather) -> None:
    path = _with_weather(tmp_path / "s", overlay_weather)
    variant = "faster" if overlay_weather else None
    want = load_scenario(path, variant=variant).weather_script
    assert want  # the scripted calm is read: the test below is not trivial
    files = gather(path, ["faster"])
    assert "weather/calm.yaml" in dict(files.sha256)
    shutil.rmtree(path.parent)
    assert scenario_from(files, variant).weather_script == want


def test_a_weather_file_outside_the_scenarios_folder_is_refused_naming_it(tmp_path) -> None:
    from campaign.scenario.loader import ScenarioError

    (tmp_path / "elsewhere.yaml").write_text(yaml.safe_dump(CALM))
    path = write_small(tmp_path / "s")
    raw = yaml.safe_load(path.read_text())
    raw["weather"] = {"script_file": "../elsewhere.yaml"}
    path.write_text(yaml.safe_dump(raw))
    with pytest.raises(ScenarioError, match=r"weather.script_file: '\.\./elsewhere\.yaml' leads outside"):
        load_scenario(path)  # a run does not read it either
    with pytest.raises(FilesError, match=r"weather.script_file: '\.\./elsewhere\.yaml' leads outside"):
        gather(path, [])
    with pytest.raises(BatchError, match="leads outside the scenario's folder"):
        make_plan(path, "base", runs=2)


def test_a_plan_names_a_fault_in_the_scenarios_own_files_not_in_a_copy(tmp_path) -> None:
    from campaign.scenario.loader import ScenarioError

    path = write_small(tmp_path / "s")
    overlay = path.parent / "variants" / "faster.yaml"
    raw = yaml.safe_load(overlay.read_text())
    raw["changes"]["forces"]["change"]["Gloucester"]["orders"][0]["speed"] = "fast"
    overlay.write_text(yaml.safe_dump(raw))
    with pytest.raises(ScenarioError) as err:
        make_plan(path, "all", runs=2)
    assert str(overlay) in str(err.value) and "campaign-scenario-" not in str(err.value)


def test_the_kept_copy_is_whole_or_absent_and_written_once(tmp_path, monkeypatch) -> None:
    from campaign.batch.bundle import ScenarioFiles, keep, kept_scenario

    path = write_small(tmp_path / "s")
    files = gather(path, ["faster"])
    out = tmp_path / "out"
    out.mkdir()

    def broken(self, folder: Path) -> Path:
        (folder / "small.yaml").write_text("half")
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(ScenarioFiles, "write", broken)
        with pytest.raises(OSError):
            keep(files, out)
    assert list(out.iterdir()) == []  # neither a half copy nor its temporary folder
    assert keep(files, out) == kept_scenario(files, out) == out / "scenario" / "small.yaml"
    assert (out / "scenario" / "variants" / "faster.yaml").read_bytes() == (
        path.parent / "variants" / "faster.yaml").read_bytes()
    keep(gather(path, ["same"]), out)  # there already: left as it is
    assert not (out / "scenario" / "variants" / "same.yaml").exists()
    assert [p.name for p in out.iterdir()] == ["scenario"]
