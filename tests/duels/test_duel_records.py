"""A duel's records are the campaign's: the same fields for every record type, so one reader reads both."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from campaign.clock import parse_utc
from campaign.duels.duel import fight_duel, fight_duel_written, load_duel
from campaign.duels.duel_records import duel_records, fight_duel_records
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from campaign.tactics import battle_records
from campaign.tactics.battle import BattleRun
from campaign.tactics.engines import engine_names
from campaign.tactics.protocol import TickEvent
from campaign.world import engagement

ROOT = Path(__file__).resolve().parents[2]
DUELS = sorted((ROOT / "scenarios" / "duels").glob("*.yaml"))
# Fields one of them writes and the other cannot: none (a duel writes the world's bookkeeping fields with
# its own values: coal_t and place null, force its side). Kept here, by record type, should that change.
EXCEPTIONS: dict[str, set[str]] = {}
# The record types both must have written under every engine for the comparison to mean anything.
CORE = {"engagement_start", "fire", "hit", "engagement_end", "battle_track"}


def _data_keys(events) -> set[str]:
    """Every field name an engine's event data gives a record (renamed as the records rename it)."""
    return {f"of_{k}" if k in battle_records.RESERVED else k for ev in events for k in ev.data}


def _envelopes(records, engine_keys: set[str]) -> dict[str, set[frozenset[str]]]:
    """Per record type of a battle, the distinct sets of fields its records carry, the engine's own aside."""
    out: dict[str, set[frozenset[str]]] = {}
    for r in records:
        if r.get("battle") is not None:
            keys = set(r) - engine_keys - EXCEPTIONS.get(r["type"], set())
            out.setdefault(r["type"], set()).add(frozenset(keys))
    return out


@pytest.fixture(scope="module")
def campaign_battles():
    """The what-if with battles, once under each engine: its records and the engines' events behind them."""
    mp = pytest.MonkeyPatch()
    events: list[TickEvent] = []

    class Spy(BattleRun):
        def outcome(self):
            out = super().outcome()
            events.extend(out.events)
            return out

    mp.setattr(engagement, "BattleRun", Spy)
    try:
        sc = load_scenario(ROOT / "scenarios" / "goeben_1914.yaml", variant="troubridge_engages")
        yield {e: run(sc, seed=0, engine=e).events for e in engine_names()}, events
    finally:
        mp.undo()


def test_a_duel_writes_every_record_type_with_the_fields_the_campaign_writes(campaign_battles):
    by_engine, camp_events = campaign_battles
    duel_events: list[TickEvent] = []
    duel_recs: dict[str, list[dict]] = {}
    for engine in engine_names():
        for path in DUELS:
            out, recs = fight_duel_records(load_duel(path), engine, seed=0)
            duel_events.extend(out.events)
            duel_recs.setdefault(engine, []).extend(recs)
    keys = _data_keys(camp_events) | _data_keys(duel_events)
    for engine in engine_names():
        camp, duel = _envelopes(by_engine[engine], keys), _envelopes(duel_recs[engine], keys)
        assert CORE <= set(camp) & set(duel), engine
        for type_ in duel:
            if type_ in camp:
                assert duel[type_] == camp[type_], (engine, type_, camp[type_] ^ duel[type_])
            else:  # a tick type this run of the campaign did not write: every tick record has the same fields
                like = "hit" if battle_records.other_field(type_) == "by" else "fire"
                assert duel[type_] == camp[like], (engine, type_, like)


def test_a_duel_s_records_follow_its_fight_tick_by_tick():
    duel = load_duel(ROOT / "scenarios" / "duels" / "goeben_vs_battlecruisers.yaml")
    for engine in engine_names():
        out, written = fight_duel_written(duel, engine, seed=3)
        same = fight_duel(duel, engine, seed=3)
        assert (out.events, out.frames, out.reason) == (same.events, same.frames, same.reason)
        recs = duel_records(duel, out, written)
        ticks = [r for r in recs if r["type"] not in ("engagement_start", "engagement_end", "battle_track")]
        assert len(ticks) == len(out.events)
        when = parse_utc(duel.when)
        for r, ev, k in zip(ticks, out.events, written, strict=True):
            assert (r["type"], r["unit"], r["t_battle_s"]) == (ev.type, ev.ship, round(ev.t_s, 1))
            assert r["t_min"] == round(out.frames[k].t_s / 60.0, 4)  # written when its tick has run
            assert parse_utc(r["t"]) == when + timedelta(seconds=round(out.frames[k].t_s))
            assert r["by" if ev.type in ("hit", "sunk") else "target"] == ev.target
        starts = [r for r in recs if r["type"] == "engagement_start"]
        assert {r["unit"] for r in starts} == set(out.final)
        assert all(r["t_min"] == 0.0 and parse_utc(r["t"]) == when for r in starts)
        lead = starts[0]  # the first side's leader starts at the duel's place
        assert (lead["lat"], lead["lon"]) == pytest.approx((duel.lat, duel.lon), abs=1e-6)
        ends = {r["unit"]: r for r in recs if r["type"] == "engagement_end"}
        assert set(ends) == set(out.final)
        for name, r in ends.items():
            assert r["sunk"] == out.conditions[name].sunk and r["status"] == ("sunk" if r["sunk"] else "waiting")
        track = recs[-1]
        assert track["type"] == "battle_track" and track["t_min"] == round(out.duration_s / 60.0, 4)
        assert (track["lat"], track["lon"]) == (duel.lat, duel.lon) and track["sides"] == {
            n: v.side for n, v in out.final.items()}


def test_an_event_of_any_type_becomes_a_record_with_the_engine_s_data_kept():
    row = ("Goeben", 100.0, -50.0, 123.45, 17.2567, True)
    ram = TickEvent(30.04, "ram", "Goeben", "Gloucester", {"side": "x", "speed_kn": 9.0, "damage": 0.2})
    assert battle_records.tick_fields(ram, 4, row) == {
        "speed_kn": 17.257, "course_deg": 123.5, "battle": 4, "target": "Gloucester", "t_battle_s": 30.0,
        "of_side": "x", "of_speed_kn": 9.0, "damage": 0.2}
    hit = TickEvent(60.0, "hit", "Gloucester", "Goeben", {"by": "not this", "part": "belt"})
    assert battle_records.tick_fields(hit, 1, None) == {"battle": 1, "by": "Goeben", "t_battle_s": 60.0,
                                                         "part": "belt"}
