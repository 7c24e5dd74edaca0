"""The political timeline as plain data: wars, leave to fire, belts, permissions, at any time."""

from __future__ import annotations

import yaml

from campaign.model.politics import PoliticalEvent, Politics
from campaign.scenario.loader import load_scenario
from tests.conftest import scenario_dict

# Seed 000, "British Ultimatum": no British fire on German ships before the ultimatum expires at
# midnight GMT on 4 August unless the Germans attack a French transport; Italy's 6-mile belt from
# 4 August (Churchill p.96); the Dardanelles opened to Germany on 10 August (Muzhenikov).
TIMELINE = """
politics:
  - {at: 1914-08-03T17:45Z, war: [Germany, France]}
  - {at: 1914-08-04T06:00Z, fire: {by: United Kingdom, target: Germany}}
  - {at: 1914-08-04T08:00Z, hold_fire: {by: United Kingdom, target: Germany}}
  - {at: 1914-08-04T12:00Z, keep_out: {who: [United Kingdom, France], sovereign: Italy, width_nm: 6}}
  - {at: 1914-08-05T00:00Z, war: [United Kingdom, Germany]}
  - {at: 1914-08-06T00:00Z, allow_in: {who: [France], sovereign: Italy}}
  - {at: 1914-08-10T15:00Z, permit: {who: [Germany], what: enter_dardanelles}}
  - {at: 1914-08-11T15:00Z, forbid: {who: [Germany], what: enter_dardanelles}}
  - {at: 1914-08-12T00:00Z, peace: [Germany, France]}
"""


def timeline(write_scenario) -> Politics:
    content = scenario_dict([{"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina"}],
                            start="1914-08-02T09:00Z", end="1914-08-13T00:00Z")
    content.update(yaml.safe_load(TIMELINE))
    return load_scenario(write_scenario(content)).politics


def minutes(day: int, hour: float) -> float:
    """Minutes from the scenario's start, 2 Aug 09:00 UTC, to ``day`` August at ``hour`` UTC."""
    return ((day - 2) * 24 + hour - 9) * 60.0


def test_war_and_peace(write_scenario) -> None:
    pol = timeline(write_scenario)
    assert not pol.at_war("Germany", "France", minutes(3, 17.7))
    assert pol.at_war("France", "Germany", minutes(3, 17.75))
    assert not pol.at_war("United Kingdom", "Germany", minutes(4, 23.99))
    assert pol.at_war("United Kingdom", "Germany", minutes(5, 0))
    assert not pol.at_war("Germany", "France", minutes(12, 0))
    assert {frozenset(p) for p in pol.wars(minutes(6, 0))} == {frozenset({"Germany", "France"}),
                                                               frozenset({"United Kingdom", "Germany"})}


def test_leave_to_fire_before_war_and_its_withdrawal(write_scenario) -> None:
    pol = timeline(write_scenario)
    assert not pol.may_fire("United Kingdom", "Germany", minutes(4, 5.9))
    assert pol.may_fire("United Kingdom", "Germany", minutes(4, 6))
    assert not pol.may_fire("Germany", "United Kingdom", minutes(4, 6))  # leave runs one way
    assert not pol.may_fire("United Kingdom", "Germany", minutes(4, 8))
    assert pol.may_fire("United Kingdom", "Germany", minutes(5, 0))  # war gives it


def test_belts_and_permissions(write_scenario) -> None:
    pol = timeline(write_scenario)
    assert pol.keep_out("United Kingdom", minutes(4, 11.9)) == ()
    assert pol.keep_out("United Kingdom", minutes(4, 12)) == (("Italy", 6.0),)
    assert pol.keep_out("France", minutes(5, 0)) == (("Italy", 6.0),)
    assert pol.keep_out("France", minutes(6, 0)) == ()
    assert pol.keep_out("Germany", minutes(6, 0)) == ()  # the Germans used Italian waters (seed 000)
    assert not pol.permitted("Germany", "enter_dardanelles", minutes(10, 14.9))
    assert pol.permitted("Germany", "enter_dardanelles", minutes(10, 15))
    assert not pol.permitted("United Kingdom", "enter_dardanelles", minutes(10, 15))
    assert not pol.permitted("Germany", "enter_dardanelles", minutes(11, 15))


def test_a_belt_lapses_while_its_sovereign_is_at_war_with_the_nation(write_scenario) -> None:
    """Italy's belt kept belligerents out of a neutral's waters (Hague XIII, Art. 1-2): once Italy is at
    war with Britain, as in the What If? of seed 000 where she keeps to the Triple Alliance, British
    ships may enter Italian waters; France, still at peace with her, keeps out; at peace again, the
    belt binds once more."""
    content = scenario_dict([{"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina"}],
                            start="1914-08-02T09:00Z", end="1914-08-13T00:00Z")
    content.update(yaml.safe_load("""
politics:
  - {at: 1914-08-04T12:00Z, keep_out: {who: [United Kingdom, France], sovereign: Italy, width_nm: 6}}
  - {at: 1914-08-05T14:00Z, war: [Italy, United Kingdom]}
  - {at: 1914-08-08T00:00Z, peace: [Italy, United Kingdom]}
"""))
    pol = load_scenario(write_scenario(content)).politics
    assert pol.keep_out("United Kingdom", minutes(5, 13.9)) == (("Italy", 6.0),)
    assert pol.keep_out("United Kingdom", minutes(5, 14)) == ()
    assert pol.keep_out("France", minutes(5, 14)) == (("Italy", 6.0),)
    assert pol.keep_out("United Kingdom", minutes(8, 0)) == (("Italy", 6.0),)
    assert minutes(4, 12) in pol.change_times()


def test_a_conditional_leave_to_fire_holds_from_its_time_until_withdrawn(write_scenario) -> None:
    # Seed 000: the British may fire once the Germans attack a French transport; the world grants it.
    content = scenario_dict([{"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina"}],
                            start="1914-08-02T09:00Z", end="1914-08-13T00:00Z")
    content["politics"] = [
        {"at": "1914-08-03T00:00Z", "fire_on_attack": {"by": "United Kingdom", "target": "Germany",
                                                       "protecting": "France"}},
        {"at": "1914-08-05T00:00Z", "hold_fire": {"by": "United Kingdom", "target": "Germany"}}]
    pol = load_scenario(write_scenario(content)).politics
    assert pol.fire_on_attack(minutes(2, 12)) == ()
    (rule,) = pol.fire_on_attack(minutes(4, 0))
    assert rule.nations == ("United Kingdom", "Germany") and rule.protecting == "France"
    assert rule.ship_types == ("transport",)
    assert not pol.may_fire("United Kingdom", "Germany", minutes(4, 0))  # only when the attack comes
    assert pol.fire_on_attack(minutes(5, 1)) == ()


def test_the_political_change_times_are_worked_out_once_and_alike() -> None:
    events = (PoliticalEvent(300.0, "war", ("A", "B")), PoliticalEvent(60.0, "permit", ("A",), what="x"),
              PoliticalEvent(300.0, "fire", ("B", "A")))
    pol = Politics(events)
    assert pol.change_times() == (60.0, 300.0)
    assert pol.change_times() is pol.change_times()
    assert pol == Politics(events)  # the remembered times are no part of its value
