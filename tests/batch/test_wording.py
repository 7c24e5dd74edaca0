"""Counts in the batch's lines of text."""

from __future__ import annotations

from campaign.batch.wording import counted


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "worker") == "1 worker"
    assert counted(2, "worker") == "2 workers"
    assert counted(0, "design point") == "0 design points"
    assert counted(1, "design point") == "1 design point"
    assert counted(3, "was", "were") == "3 were"
