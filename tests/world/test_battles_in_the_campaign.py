"""The what-ifs that bring battles, under every engine, keep the battle plane's physics, as their records
show (``campaign.output.battle_audit``, which reads nothing but the records): no hull passes through
another without a ram or collision on record, nothing moves faster than it can, no ship is re-laid
between one battle and the next, and under one hit in a hundred falls on the firer's own side."""

from __future__ import annotations

import functools

import pytest

from campaign.output.battle_audit import audit_run, summarise
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from campaign.tactics.engines import engine_names
from tests.scenario.test_variants import BASE

WHAT_IFS = ("troubridge_engages", "milne_guards_aegean")


@functools.cache
def _audit(variant: str, engine: str, seed: int):
    result = run(load_scenario(BASE, variant=variant), seed=seed, engine=engine)
    return audit_run(result.events)


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("variant", WHAT_IFS)
def test_battles_in_the_what_ifs_keep_to_the_plane(variant: str, engine: str):
    s = summarise([_audit(variant, engine, seed) for seed in (0, 1)])
    assert s.battles >= 1, "the what-if brings no battle: nothing is checked"
    assert s.pass_throughs == 0
    assert s.over_speed_moves == 0
    assert s.jumps == 0, f"worst jump {s.worst_jump_yd} yd"
    assert s.own_side_hits <= 0.01 * s.hits
