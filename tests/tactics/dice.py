"""Dice for the engines' tests: scripted throws, and the binomial tolerance of seeded statistics."""

from __future__ import annotations

import math

import numpy as np

SIGMAS = 4.0  # a seeded statistic fails only if it is this many standard deviations off


class ScriptedRng:
    """Dice from a list (``integers``); anything else (the damage model's gun choice) from a seeded
    generator."""

    def __init__(self, dice, seed: int = 0) -> None:
        self.dice = list(dice)
        self.g = np.random.default_rng(seed)

    def integers(self, low, high=None, size=None):
        if size is None:
            return self.dice.pop(0)
        return np.array([self.dice.pop(0) for _ in range(size)])

    def choice(self, *a, **k):
        return self.g.choice(*a, **k)


def within(count: int, n: int, p: float, sigmas: float = SIGMAS) -> bool:
    """Is ``count`` successes in ``n`` trials within ``sigmas`` binomial standard deviations of ``n p``?"""
    return abs(count - n * p) <= sigmas * math.sqrt(n * p * (1 - p)) + 1e-9
