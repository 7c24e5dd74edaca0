"""Bad arguments to every command: exit status 2, one message naming the argument or file and the fault,
no traceback, and nothing written (the output folder, and the default one, never made)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from campaign.cli import main
from campaign.paths import ROOT, SCENARIO_DIR
from campaign.scenario.schema import MAX_SEED
from tests.badinput.full import DUEL, OVERLAY, SCENARIO

DUEL_FILE = str(SCENARIO_DIR / "duels" / "gloucester_vs_breslau.yaml")


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    """A folder with the full scenario, an overlay of it, a duel, a plain file and a design: the current folder."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(dict(SCENARIO, name="s")))
    (tmp_path / "variants" / "faster.yaml").write_text(yaml.safe_dump(dict(OVERLAY, base="../s.yaml")))
    (tmp_path / "duel.yaml").write_text(yaml.safe_dump(DUEL))
    (tmp_path / "plain.txt").write_text("not a folder\n")
    (tmp_path / "nan_design.yaml").write_text("kind: grid\nparameters: {sighting_range_factor: {values: [.nan]}}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def called(*argv: str, capsys) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusals (an unknown choice, a missing argument)
        code = exc.code
    return code, capsys.readouterr().err


def written(folder: Path) -> list[Path]:
    """What a command left in the folder besides the inputs the fixture put there."""
    inputs = {"variants", "s.yaml", "duel.yaml", "plain.txt", "nan_design.yaml"}
    return sorted(p for p in folder.iterdir() if p.name not in inputs) + sorted(
        p for p in (folder / "variants").iterdir() if p.name != "faster.yaml")


BIG = str(2**80)
CASES = [
    # the default command, run
    (["s.yaml", "--seed", "-1"], "--seed: must be 0"),
    (["s.yaml", "--seed", BIG], "--seed: must be 0 to 9,223,372,036,854,775,807"),
    (["s.yaml", "--seed", "minus one"], "--seed: invalid int value"),
    (["s.yaml", "--out", ""], "--out: is empty"),
    (["s.yaml", "--out", "plain.txt"], "--out: plain.txt exists and is not a folder"),
    (["s.yaml", "--out", "plain.txt/sub"], "plain.txt is a file, not a folder"),
    (["s.yaml", "--out", str(ROOT / "campaign" / "x")], "inside the project's campaign/ folder"),
    (["s.yaml", "--out", str(ROOT)], "is the project's top folder"),
    (["s.yaml", "--out", str(ROOT / "data")], "the project's data/ folder"),
    (["s.yaml", "--variant", "../s"], "--variant: '../s' is not a variant's name"),
    (["s.yaml", "--variant", "faster", "--set", "goeben_sustained_kn=inf"], "'inf' is not a finite number"),
    (["s.yaml", "--variant", "slower"], "no variant 'slower' for this scenario (known: faster)"),
    (["s.yaml", "--engine", "chess"], "--engine: invalid choice"),
    (["s.yaml", "--damage", "heavy"], "--damage: invalid choice"),
    (["s.yaml", "--set", "sighting_range_factor=nan"], "--set sighting_range_factor: 'nan' is not a finite number"),
    (["s.yaml", "--set", "sighting_range_factor=1e9"], "--set: sighting_range_factor: 1e+09 is outside"),
    (["s.yaml", "--set", "sighting_range_factor"], "--set: 'sighting_range_factor' is not PARAMETER=VALUE"),
    (["s.yaml", "--set", "warp_factor=2"], "warp_factor"),
    (["nowhere.yaml"], "nowhere.yaml: no such file"),
    (["plain.txt"], "plain.txt: the file must hold a mapping"),
    (["./variants"], "variants: is a folder"),
    (["--seed", "5"], "the following arguments are required: scenario"),
    # validate, variants
    (["validate", "nowhere.yaml"], "no such file"),
    (["validate", "s.yaml", "--variant", "/etc/passwd"], "--variant: '/etc/passwd' is not a variant's name"),
    (["variants", "nowhere.yaml"], "no such file"),
    # route
    (["route", "Messina"], "the following arguments are required: TO"),
    (["route", "Messina", "Atlantis"], "TO: "),
    (["route", "Messina", "37.75,14.99"], "on land"),
    (["route", "Messina", "91,14"], "latitude 91.0 is outside"),
    (["route", "Messina", "nan,nan"], "TO: "),
    (["route", "Messina", "Valletta", "--avoid", "Ruritania:6"], "--avoid: unknown sovereign 'Ruritania'"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:1e9"], "--avoid Italy:1e9: the width must be more than 0 and at most 50"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:-1"], "--avoid Italy:-1: the width must be more than 0"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:0"], "--avoid Italy:0: the width must be more than 0"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:nan"], "--avoid Italy:nan: the width: 'nan' is not a finite number"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:inf"], "'inf' is not a finite number"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:six"], "'six' is not a number"),
    (["route", "Messina", "Valletta", "--ship", "Dreadnought II"], "--ship: "),
    # replay, compare, analyse
    (["replay", "nowhere"], "nowhere"),
    (["replay", "plain.txt"], "plain.txt"),
    (["compare", "nowhere"], "nowhere"),
    (["analyse", "nowhere"], "nowhere"),
    (["analyse", ".", "--measures", ","], "--measures: ',' names no measure"),
    # duel
    (["duel", DUEL_FILE, "--runs", "0"], "--runs: must be 1 to 100,000, not 0"),
    (["duel", DUEL_FILE, "--runs", "1000000000"], "--runs: must be 1 to 100,000, not 1,000,000,000"),
    (["duel", DUEL_FILE, "--seed", "-3"], "--seed: must be 0"),
    (["duel", DUEL_FILE, "--seed", str(MAX_SEED), "--runs", "2"], "the last seed, SEED + RUNS - 1"),
    (["duel", DUEL_FILE, "--workers", "0"], "--workers: must be 1 to 256, not 0"),
    (["duel", DUEL_FILE, "--workers", "100000"], "--workers: must be 1 to 256"),
    (["duel", DUEL_FILE, "--out", ""], "--out: is empty"),
    (["duel", DUEL_FILE, "--out", "plain.txt"], "--out: plain.txt exists and is not a folder"),
    (["duel", DUEL_FILE, "--engine", "chess"], "--engine: invalid choice"),
    (["duel", "s.yaml"], "s.yaml: "),
    (["duel", "nowhere.yaml"], "no such file"),
    # batch
    (["batch", "s.yaml", "--runs", "0"], "--runs: must be 1 or more, not 0"),
    (["batch", "s.yaml", "--runs", str(10**12)], "more than 10,000,000 in one batch"),
    (["batch", "s.yaml", "--seed", "-1"], "--seed: must be 0"),
    (["batch", "s.yaml", "--seed", BIG], "--seed: must be 0 to 9,223,372,036,854,775,807"),
    (["batch", "s.yaml", "--workers", "0"], "--workers: must be 1 to 256, not 0"),
    (["batch", "s.yaml", "--workers", "100000"], "--workers: must be 1 to 256"),
    (["batch", "s.yaml", "--retries", "-1"], "--retries: must be 0 to 100"),
    (["batch", "s.yaml", "--retries", "1000000"], "--retries: must be 0 to 100"),
    (["batch", "s.yaml", "--chunk", "0"], "--chunk: must be 1 or more"),
    (["batch", "s.yaml", "--out", ""], "--out: is empty"),
    (["batch", "s.yaml", "--out", "plain.txt"], "--out: plain.txt exists and is not a folder"),
    (["batch", "s.yaml", "--out", str(ROOT / "tests" / "x")], "inside the project's tests/ folder"),
    (["batch", "s.yaml", "--scheduler", "not an address"], "--scheduler: 'not an address' is not a scheduler's address"),
    (["batch", "s.yaml", "--workers", "2", "--scheduler", "tcp://localhost:8786"], "--workers: give the number"),
    (["batch", "s.yaml", "--variants", "slower"], "--variants: no variant 'slower'"),
    (["batch", "s.yaml", "--variants", ","], "--variants: ',' names no variant"),
    (["batch", "s.yaml", "--design", "nowhere.yaml"], "nowhere.yaml: no such file"),
    (["batch", "s.yaml", "--design", "nan_design.yaml"],
     "nan_design.yaml: parameters.sighting_range_factor.values.0: must be a finite number, not nan"),
    (["batch", "variants/faster.yaml"],
     ("is a what-if overlay (of ../s.yaml): give its base scenario and the variant, as in: python run_campaign.py "
      "batch s.yaml --variants faster")),
]


@pytest.mark.parametrize("argv, words", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_a_bad_argument_is_refused_naming_it_and_nothing_is_written(here, capsys, argv, words) -> None:
    code, err = called(*argv, capsys=capsys)
    assert code == 2, err
    assert words in err, err
    assert "Traceback" not in err
    assert not written(here)


def test_an_unwritable_output_folder_is_refused_before_the_run(here, capsys) -> None:
    # Not by its permission bits (root writes anyway): by trying, in a file system that takes nothing.
    code, err = called("s.yaml", "--out", "/proc/campaign-run", capsys=capsys)
    assert code == 2 and "--out: /proc/campaign-run cannot be written" in err, err


def test_a_scenario_named_dot_dot_cannot_put_its_outputs_above_outputs(here, capsys) -> None:
    (here / "up.yaml").write_text(yaml.safe_dump(dict(SCENARIO, name="..")))
    code, err = called("up.yaml", capsys=capsys)
    assert code == 2 and "up.yaml: name: '..' is not allowed" in err, err
    assert not (here / "outputs").exists()


def test_every_fault_of_a_bad_overlay_in_variants_is_named_and_the_others_still_listed(here, capsys) -> None:
    (here / "variants" / "broken.yaml").write_text("variant: broken\nbase: ../s.yaml\ntitle: x\n")
    code, err = called("variants", "s.yaml", capsys=capsys)
    assert code == 2 and "broken.yaml: summary: required field is missing" in err, err
    assert called("validate", "s.yaml", "--variant", "faster", capsys=capsys)[0] == 0
    code, err = called("batch", "s.yaml", "--variants", "all", "--runs", "1", capsys=capsys)
    assert code == 2 and "broken.yaml" in err, err


def test_variants_lists_the_good_overlays_beside_a_bad_one(here, capsys) -> None:
    (here / "variants" / "broken.yaml").write_text("a: [")
    assert main(["variants", "s.yaml"]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("faster") and "broken.yaml" in captured.err


def test_options_before_the_scenario_run_it(here, capsys) -> None:
    # A day's run of the small scenario, its options given first.
    assert main(["--seed", "5", "s.yaml", "--out", "out"]) == 0, capsys.readouterr().err
    assert (here / "out" / "events.jsonl").is_file()
    assert not list(here.glob(".*partial")) and not list((here / "out").glob("*partial"))


@pytest.mark.parametrize("argv, words", [
    (["/dev/zero"], "/dev/zero: is not a regular file"),
    (["route", "Messina", "Valletta", "--avoid", "Italy:nan"], "is not a finite number"),
    (["duel", DUEL_FILE, "--runs", "1000000000"], "--runs: must be 1 to 100,000"),
])
def test_the_command_itself_prints_no_traceback(tmp_path, argv, words) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "run_campaign.py"), *argv], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300, check=False)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert not list(tmp_path.iterdir())
