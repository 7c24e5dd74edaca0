"""The record tests' marker: ``slow`` for the several-seed score (``-m "not slow"`` leaves it out)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: runs the historical campaign several times (about a minute)")
