"""Counts and lists in the batch's lines of text."""

from __future__ import annotations

from campaign.batch.wording import counted, listed


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "worker") == "1 worker"
    assert counted(2, "worker") == "2 workers"
    assert counted(0, "design point") == "0 design points"
    assert counted(1, "design point") == "1 design point"
    assert counted(3, "was", "were") == "3 were"


def test_names_are_listed_with_commas_and_a_last_and() -> None:
    assert listed(["a"]) == "a"
    assert listed(("a", "b")) == "a and b"
    assert listed(["a", "b", "c"]) == "a, b and c"
