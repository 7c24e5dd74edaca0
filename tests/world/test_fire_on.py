"""Leave to fire on one nation, as a commander believes it, changed by message; a battle needs the truth too.

On 8 Aug 1914 the Admiralty telegraphed 'Commence hostilities against Austria' by mistake and cancelled
it the next day; Britain declared war on Austria-Hungary only on the 12th. A force told so believes it may
fire on Austrian ships, but no war means no battle.
"""

from __future__ import annotations

import pytest

from campaign.scenario.loader import ScenarioError, load_scenario
from campaign.world import engagement
from campaign.world.conditions import ClearDay
from campaign.world.world import World
from tests.conftest import scenario_dict
from tests.tactics.test_battle import _Engine

HQ = [{"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London"}]
WAR_ON_GERMANY = [{"at": "1914-08-02T00:00Z", "war": ["United Kingdom", "Germany"]}]
WAR_ON_AUSTRIA = WAR_ON_GERMANY + [{"at": "1914-08-02T00:00Z", "war": ["United Kingdom", "Austria-Hungary"]}]
GLOUCESTER = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.15, "lon": 16.6},
              "orders": [{"do": "stop"}]}
NOVARA_EAST = {"name": "Novara", "side": "Central Powers", "ships": ["Novara"], "start": {"lat": 36.0, "lon": 16.0},
               "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 21.0}, "speed": 14}]}
MISTAKE = {"at": "1914-08-02T01:00Z", "from": "Admiralty", "to": "Gloucester",
           "text": "Commence hostilities against Austria.", "standing": {"fire_on": {"Austria-Hungary": True}}}
CANCEL = {"at": "1914-08-02T08:00Z", "from": "Admiralty", "to": "Gloucester",
          "text": "Telegram to commence hostilities against Austria was sent in error.",
          "standing": {"fire_on": {"Austria-Hungary": False}}}


def world_of(write_scenario, forces, *, standing, politics, messages=(), end="1914-08-02T16:00Z") -> World:
    content = scenario_dict(forces, start="1914-08-02T00:00Z", end=end, politics=politics,
                            command={"headquarters": HQ, "standing": standing})
    if messages:
        content["messages"] = list(messages)
    return World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())


def recs(world, type_=None, unit=None):
    return [r for r in world.rec.records if (type_ is None or r.type == type_) and (unit is None or r.unit == unit)]


def test_a_message_changes_the_belief_on_receipt_and_a_later_one_reverts_it(write_scenario) -> None:
    args = {"standing": {"Gloucester": {"on_contact": "report", "fire_on": {"Germany": True}}},
            "politics": WAR_ON_GERMANY, "messages": [MISTAKE, CANCEL]}
    w = world_of(write_scenario, [GLOUCESTER], **args)
    w.run()
    got = [r for r in recs(w, "message_received") if r.data["receiver"] == "Gloucester"]
    changes = recs(w, "standing", "Gloucester")
    assert [c.t_min for c in changes] == [g.t_min for g in got] and len(got) == 2
    assert changes[0].data["changes"] == {"fire_on": {"Austria-Hungary": True}}
    assert changes[1].data["changes"] == {"fire_on": {"Austria-Hungary": False}}
    final = w.command.nodes["Gloucester"].standing
    assert not final.believes_may_fire("Austria-Hungary")
    assert final.believes_may_fire("Germany")  # the change merged: the word on Germany is kept
    assert final.fire_on == (("Austria-Hungary", False), ("Germany", True))

    # Between the two she believes she may fire on Austria-Hungary (the same run, stopped half-way).
    w2 = world_of(write_scenario, [GLOUCESTER], **args)
    before = w2.command.nodes["Gloucester"].standing
    assert not before.believes_may_fire("Austria-Hungary") and before.believes_may_fire("Germany")
    w2.env.run(until=(changes[0].t_min + changes[1].t_min) / 2.0)
    between = w2.command.nodes["Gloucester"].standing
    assert between.believes_may_fire("Austria-Hungary") and between.believes_may_fire("Germany")
    assert not between.may_fire  # only the nations named changed


@pytest.fixture
def strong_novara(monkeypatch):
    """Every battle fought by the test engine."""
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Novara": 10.0}, gun_range_yd=8000,
                                                                       damage=0.05))


# Close enough to Novara's track to recognise her at once (an unrecognised contact is judged by the
# general leave, and shadowed from afar).
CLOSE = dict(GLOUCESTER, start={"lat": 36.02, "lon": 16.05})


def hunter(fire_on: dict, may_fire: bool = False) -> dict:
    return {"Gloucester": {"on_contact": "engage", "may_fire": may_fire, "fire_on": fire_on}}


def test_belief_alone_does_not_start_a_battle(write_scenario, strong_novara) -> None:
    w = world_of(write_scenario, [NOVARA_EAST, CLOSE], standing=hunter({"Austria-Hungary": True}),
                 politics=WAR_ON_GERMANY)
    w.run()
    assert recs(w, "sighting", "Gloucester")
    assert not recs(w, "engagement_start")
    # She believes she may fire, and chases (her doctrine acts on belief) ...
    assert any(r.data["reason"] == "chasing Novara at full speed" for r in recs(w, "orders", "Gloucester"))


def test_truth_alone_does_not_start_one_either(write_scenario, strong_novara) -> None:
    # At war with Austria, but she believes she may not fire on her (whatever her general leave).
    w = world_of(write_scenario, [NOVARA_EAST, CLOSE],
                 standing=hunter({"Austria-Hungary": False}, may_fire=True), politics=WAR_ON_AUSTRIA)
    w.run()
    assert recs(w, "sighting", "Gloucester") and not recs(w, "engagement_start")
    assert not any(r.data["reason"].startswith("chasing") for r in recs(w, "orders", "Gloucester"))


def test_truth_and_belief_together_start_the_battle(write_scenario, strong_novara) -> None:
    w = world_of(write_scenario, [NOVARA_EAST, CLOSE], standing=hunter({"Austria-Hungary": True}),
                 politics=WAR_ON_AUSTRIA)
    w.run()
    assert {r.unit for r in recs(w, "engagement_start")} == {"Novara", "Gloucester"}


def test_an_unknown_nation_is_refused_naming_its_field(write_scenario) -> None:
    content = scenario_dict([GLOUCESTER], start="1914-08-02T00:00Z", end="1914-08-02T16:00Z",
                            command={"headquarters": HQ,
                                     "standing": {"Gloucester": {"fire_on": {"Ruritania": True}}}},
                            messages=[dict(MISTAKE, standing={"fire_on": {"Austria": True}})])
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write_scenario(content))
    fields = {f.field: f.fault for f in exc.value.faults}
    assert "Ruritania is not a nation of any side" in fields["command.standing.Gloucester.fire_on.Ruritania"]
    assert "Austria is not a nation of any side" in fields["messages[0].standing.fire_on.Austria"]
    assert len(fields) == 2
