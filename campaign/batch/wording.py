"""Counts and lists in the batch's lines of text: "1 worker", "2 workers"; "a, b and c"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one and plural (``noun`` + "s" unless given) otherwise."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def listed(names: list[str] | tuple[str, ...]) -> str:
    """Names as a phrase: "a", "a and b", "a, b and c"."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
