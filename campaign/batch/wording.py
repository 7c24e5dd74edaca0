"""Counts in the batch's lines of text: "1 worker", "2 workers"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one and plural (``noun`` + "s" unless given) otherwise."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
