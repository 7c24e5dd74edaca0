"""Command-line arguments shared by the benchmarks: counts checked as argparse reads them, so that a bad
one gets argparse's one-line error and exit status 2 before anything runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def count(least: int) -> Callable[[str], int]:
    """An argparse ``type``: an integer of at least ``least``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be {least} or more, not {value}")
        return value

    return parse
