"""bench/bench_driver.py runs: two small batches of tasks that do no work, each stopped after its first
results, and the ratio of their waits for a first result."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PATH = Path(__file__).resolve().parents[1] / "bench" / "bench_driver.py"


def test_the_driver_benchmark_prints_both_batches_and_the_ratio() -> None:
    done = subprocess.run([sys.executable, str(PATH), "--small", "40", "--large", "400", "--stop-after", "2"],
                          check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"small: 40 replicates \(2 tasks\): seeds [\d.]+ s; first result [\d.]+ s", done.stdout)
    assert re.search(r"large: 400 replicates \(20 tasks\)", done.stdout)
    assert re.search(r"wait for its first result / the small one's: [\d.]+", done.stdout)


def test_a_bad_size_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, str(PATH), "--large", "5"], check=False, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "argument --large: must be 20 or more, not 5" in done.stderr
