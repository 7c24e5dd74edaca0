"""bench/_args.py: a benchmark's count below its least, or not a whole number, is argparse's one-line
error (exit status 2) before anything runs."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[1] / "bench" / "_args.py"


def parser_with_count(least: int) -> argparse.ArgumentParser:
    spec = importlib.util.spec_from_file_location("bench_args", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    parser = argparse.ArgumentParser(prog="bench")
    parser.add_argument("--n", type=module.count(least))
    return parser


@pytest.mark.parametrize(("least", "given", "fault"), [(1, "0", "must be 1 or more, not 0"),
                                                        (0, "-1", "must be 0 or more, not -1"),
                                                        (1, "x", "'x' is not a whole number"),
                                                        (1, "2.5", "'2.5' is not a whole number")])
def test_a_bad_count_is_a_usage_error_naming_the_argument(least, given, fault, capsys) -> None:
    with pytest.raises(SystemExit) as ended:
        parser_with_count(least).parse_args(["--n", given])
    assert ended.value.code == 2
    assert f"argument --n: {fault}" in capsys.readouterr().err


def test_a_count_at_its_least_or_above_is_read() -> None:
    assert parser_with_count(1).parse_args(["--n", "1"]).n == 1
    assert parser_with_count(0).parse_args(["--n", "0"]).n == 0
