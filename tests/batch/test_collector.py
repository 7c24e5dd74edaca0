"""A worker's garbage collector: what it keeps frozen, the young collected less often."""

from __future__ import annotations

import subprocess
import sys

from campaign.batch.collector import MIDDLE_THRESHOLD, OLD_THRESHOLD, YOUNG_THRESHOLD


def test_settling_freezes_what_lives_and_sets_the_thresholds() -> None:
    # In a process of its own: freezing this one would keep the test session's garbage for good.
    code = ("import gc\n"
            "from campaign.batch.collector import settle_collector\n"
            "kept = [[i] for i in range(1000)]\n"
            "assert gc.get_freeze_count() == 0\n"
            "settle_collector()\n"
            "print(gc.get_threshold(), gc.get_freeze_count() >= 1000)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"{(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)} True"


def test_a_cycle_made_after_settling_is_still_collected() -> None:
    code = ("import gc, weakref\n"
            "from campaign.batch.collector import settle_collector\n"
            "settle_collector()\n"
            "class Node: pass\n"
            "a, b = Node(), Node()\n"
            "a.other, b.other = b, a\n"
            "gone = weakref.ref(a)\n"
            "del a, b\n"
            "gc.collect()\n"
            "print(gone() is None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"
