"""Scenario files: every kind of fault gets a message naming the file, the field and the fault."""

from __future__ import annotations

import copy

import pytest

from campaign.paths import SCENARIO_DIR
from campaign.scenario.loader import ScenarioError, load_scenario
from tests.conftest import scenario_dict

GOOD_FORCE = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina",
              "coal_t": 2000, "orders": [{"do": "sail", "to": "Philippeville", "speed": 16,
                                          "at": "1914-08-03T00:00Z"}]}


def with_force(**changes):
    force = copy.deepcopy(GOOD_FORCE)
    force.update(changes)
    return scenario_dict([force])


def fault_of(write_scenario, content) -> ScenarioError:
    path = write_scenario(content, name="bad.yaml")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    assert str(info.value).startswith(str(path))
    return info.value


def test_the_bundled_scenario_is_valid() -> None:
    sc = load_scenario(SCENARIO_DIR / "goeben_1914.yaml")
    assert sc.name == "goeben_1914"
    assert {f.name for f in sc.forces} >= {"Goeben", "Breslau", "Bogadir", "Inflexible", "1st Cruiser Squadron"}


def test_a_good_small_scenario_loads(write_scenario) -> None:
    sc = load_scenario(write_scenario(with_force()))
    (force,) = sc.forces
    assert force.coal_t == {"Goeben": 2000.0}
    assert force.start.place == "Messina"
    assert force.orders[0].at_min == pytest.approx(24 * 60.0)


@pytest.mark.parametrize("changes, field, words", [
    ({"ships": ["Goben"]}, "forces[0] (Goeben).ships[0]", "Goeben"),
    ({"start": "Mesina"}, "forces[0] (Goeben).start", "Messina"),
    ({"start": {"lat": 37.75, "lon": 14.99}}, "forces[0] (Goeben).start", "on land"),
    ({"start": {"lat": 36.0, "lon": -30.0}}, "forces[0] (Goeben).start", "outside the charted area"),
    ({"side": "Triple Alliance"}, "forces[0] (Goeben).side", "unknown side"),
    ({"coal_t": 5000}, "forces[0] (Goeben).coal_t.Goeben", "outside 0..3100"),
    ({"orders": [{"do": "sail", "to": "Philippeville", "at": "1914-09-01T00:00Z"}]},
     "forces[0] (Goeben).orders[0].at", "outside the scenario"),
    ({"orders": [{"do": "sail", "to": "Nowhere Bay"}]}, "forces[0] (Goeben).orders[0].to", "unknown place"),
    ({"orders": [{"do": "sail", "to": {"lat": 37.75, "lon": 14.99}}]}, "forces[0] (Goeben).orders[0].to", "on land"),
    ({"orders": [{"do": "coal_from_collier", "collier": "Bogados Maru"}]}, "forces[0] (Goeben).orders[0].collier",
     "no force named"),
    ({"orders": [{"do": "wait", "until": "tomorrow"}]}, "forces[0] (Goeben).orders[0].until", "not a UTC time"),
    ({"avoid_waters": [{"sovereign": "Atlantis", "width_nm": 6}]}, "forces[0] (Goeben).avoid_waters[0].sovereign",
     "unknown sovereign"),
    ({"enters": "1914-09-01T00:00Z"}, "forces[0] (Goeben).enters", "outside the scenario"),
    ({"enters": "1914-08-06T00:00Z"}, "forces[0] (Goeben).enters", "would take no part"),
    ({"enters": "after lunch"}, "forces[0] (Goeben).enters", "not a UTC time"),
])
def test_meaning_faults(write_scenario, changes, field, words) -> None:
    err = fault_of(write_scenario, with_force(**changes))
    assert [f.field for f in err.faults] == [field], str(err)
    assert words in err.faults[0].fault


@pytest.mark.parametrize("changes, field, words", [
    ({"orders": [{"do": "sail", "to": "Messina", "speed": "fast"}]}, "forces[0] (Goeben).orders[0].speed",
     "'design', 'sustained' or 'economical'"),
    ({"orders": [{"do": "sail", "to": "Messina", "speed": -3}]}, "forces[0] (Goeben).orders[0].speed", "positive"),
    ({"orders": [{"do": "lay_mines", "target": "Bône"}]}, "forces[0] (Goeben).orders[0]", "unknown order 'lay_mines'"),
    ({"orders": [{"to": "Bône"}]}, "forces[0] (Goeben).orders[0]", "needs 'do:'"),
    ({"ships": []}, "forces[0] (Goeben).ships", "at least 1"),
    ({"speed_kn": 16}, "forces[0] (Goeben).speed_kn", "unknown field"),
])
def test_form_faults(write_scenario, changes, field, words) -> None:
    err = fault_of(write_scenario, with_force(**changes))
    assert any(f.field == field and words in f.fault for f in err.faults), str(err)


def test_a_missing_field(write_scenario) -> None:
    content = with_force()
    del content["forces"][0]["start"]
    err = fault_of(write_scenario, content)
    assert ("forces[0] (Goeben).start", "required field is missing") in [(f.field, f.fault) for f in err.faults]


def test_a_mistyped_top_level_field(write_scenario) -> None:
    content = with_force()
    content["start"] = 1914
    err = fault_of(write_scenario, content)
    assert [f.field for f in err.faults] == ["start"] and "not a number" in err.faults[0].fault


def test_end_before_start(write_scenario) -> None:
    err = fault_of(write_scenario, scenario_dict([GOOD_FORCE], start="1914-08-05T00:00Z", end="1914-08-04T00:00Z"))
    assert err.faults[0].field == "end"


def test_invalid_yaml_names_the_line(write_scenario) -> None:
    err = fault_of(write_scenario, "name: x\nforces: [\n  {name: a\n")
    assert err.faults[0].field.startswith("line ")
    assert "not valid YAML" in err.faults[0].fault


def test_a_file_that_is_not_a_mapping(write_scenario) -> None:
    err = fault_of(write_scenario, "- just\n- a list\n")
    assert "mapping" in err.faults[0].fault


def test_a_missing_file(tmp_path) -> None:
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "absent.yaml")


def test_every_fault_is_reported_at_once(write_scenario) -> None:
    err = fault_of(write_scenario, with_force(ships=["Goben"], start="Mesina"))
    assert len(err.faults) == 2


def test_a_ship_in_two_forces(write_scenario) -> None:
    second = dict(copy.deepcopy(GOOD_FORCE), name="Goeben again")
    err = fault_of(write_scenario, scenario_dict([GOOD_FORCE, second]))
    assert "already in force Goeben" in str(err)


def test_a_destination_in_waters_the_force_avoids(write_scenario) -> None:
    force = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta",
             "avoid_waters": [{"sovereign": "Italy", "width_nm": 6}],
             "orders": [{"do": "sail", "to": "Messina"}]}
    err = fault_of(write_scenario, scenario_dict([force]))
    assert err.faults[0].field == "forces[0] (Gloucester).orders[0].to"
    assert "belt:Italy:6nm" in err.faults[0].fault


HQ = {"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London"}
CHATHAM = {"name": "Chatham", "side": "Entente", "ships": ["Chatham"], "start": "Valletta"}


def with_information(**sections):
    content = scenario_dict([copy.deepcopy(GOOD_FORCE), copy.deepcopy(CHATHAM)])
    content.update(sections)
    return content


@pytest.mark.parametrize("sections, field, words", [
    ({"politics": [{"at": "1914-08-03T00:00Z", "keep_out": {"who": ["United Kingdom"], "sovereign": "Atlantis",
                                                             "width_nm": 6}}]},
     "politics[0].keep_out.sovereign", "unknown sovereign"),
    ({"politics": [{"at": "1914-08-03T00:00Z", "permit": {"who": ["Germany"], "what": "enter_dardanells"}}]},
     "politics[0].permit.what", "enter_dardanelles"),
    ({"politics": [{"at": "1914-08-03T00:00Z", "fire": {"by": "Ruritania", "target": "Germany"}}]},
     "politics[0].fire", "not a nation of any side"),
    ({"politics": [{"at": "1914-08-03T00:00Z", "fire_on_attack": {"by": "United Kingdom", "target": "Germany",
                                                                  "protecting": "Ruritania"}}]},
     "politics[0].fire_on_attack.protecting", "not a nation of any side"),
    ({"politics": [{"at": "1914-08-03T00:00Z", "fire_on_attack": {"by": "United Kingdom", "target": "Germany",
                                                                  "protecting": "France", "ship_types": ["troopship"]}}]},
     "politics[0].fire_on_attack.ship_types", "unknown ship type troopship"),
    ({"command": {"headquarters": [dict(HQ, station="Atlantis")]}},
     "command.headquarters[0] (Admiralty).station", "no telegraph station"),
    ({"command": {"standing": {"Chatam": {"on_contact": "shadow"}}}}, "command.standing.Chatam", "no force named"),
    ({"command": {"headquarters": [HQ], "standing": {"Chatham": {"report_to": "Milne"}}}},
     "command.standing.Chatham.report_to", "no force or headquarters named 'Milne'"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": ["Chatham", "Dublin"], "text": "x"}]},
     "messages[0].to[1]", "no force or headquarters named 'Dublin'"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "x",
                    "orders_for": ["Chatham", "Dublin"], "orders": [{"do": "stop"}]}]},
     "messages[0].orders_for[1]", "no force named 'Dublin'"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "x",
                    "orders_for": "Chatham"}]},
     "messages[0].orders_for", "carries no orders or standing"),
    ({"command": {"headquarters": [HQ, dict(HQ, name="Paris", station="Paris")]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Paris", "text": "x",
                    "orders": [{"do": "stop"}]}]},
     "messages[0].orders_for", "is a headquarters"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "x",
                    "orders": [{"do": "sail", "to": "Nowhere Bay"}]}]},
     "messages[0].orders[0].to", "unknown place"),
    ({"command": {"headquarters": [HQ, dict(HQ, name="Consul", station="Chanak", superior="Admiralty",
                                            overlooks=["Chanak narows"])]}},
     "command.headquarters[1] (Consul).overlooks[0]", "Chanak narrows"),
    ({"command": {"headquarters": [dict(HQ, overlooks=["Chanak narrows"])]}},
     "command.headquarters[0] (Admiralty).overlooks", "superior"),
    # A message is obeyed by its id: two of one id would be one message.
    ({"command": {"headquarters": [HQ]},
      "messages": [{"id": "cancel", "at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "x"},
                   {"id": "cancel", "at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "y"}]},
     "messages[1].id", "already named 'cancel'"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "x"},
                   {"id": "messages[0]", "at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham",
                    "text": "y"}]},
     "messages[1].id", "already named 'messages[0]'"),
])
def test_information_faults(write_scenario, sections, field, words) -> None:
    err = fault_of(write_scenario, with_information(**sections))
    assert [f.field for f in err.faults] == [field], str(err)
    assert words in err.faults[0].fault


def test_a_general_message_and_orders_for_several_forces_load(write_scenario) -> None:
    sc = load_scenario(write_scenario(with_information(
        command={"headquarters": [HQ]},
        messages=[{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": ["Chatham", "Admiralty"], "text": "War.",
                   "standing": {"may_fire": True}},
                  {"at": "1914-08-02T07:00Z", "from": "Admiralty", "to": "Chatham", "text": "Both to Malta.",
                   "orders_for": ["Chatham", "Goeben"], "orders": [{"do": "sail", "to": "Valletta"}]}])))
    war = [m for m in sc.messages if m.text == "War."]
    assert [(m.receiver, m.orders_for, m.standing) for m in war] == [
        ("Chatham", ("Chatham",), (("may_fire", True),)), ("Admiralty", (), (("may_fire", True),))]
    assert [m.id for m in sc.messages] == ["messages[0]", "messages[0]", "messages[1]"]  # a copy per receiver
    (both,) = [m for m in sc.messages if m.text == "Both to Malta."]
    assert both.orders_for == ("Chatham", "Goeben") and set(both.orders) == {"Chatham", "Goeben"}


LATE_CHATHAM = dict(CHATHAM, enters="1914-08-03T00:00Z")


def with_late_chatham(**sections):
    content = scenario_dict([copy.deepcopy(GOOD_FORCE), copy.deepcopy(LATE_CHATHAM)])
    content.update(sections)
    return content


def test_a_force_entering_later_loads_with_its_entry_time(write_scenario) -> None:
    sc = load_scenario(write_scenario(with_late_chatham(
        command={"headquarters": [HQ]},
        messages=[{"at": "1914-08-03T00:00Z", "from": "Admiralty", "to": "Chatham", "text": "x"}])))
    entering = {f.name: f.enters_min for f in sc.forces}
    assert entering == {"Goeben": 0.0, "Chatham": pytest.approx(24 * 60.0)}
    assert [m.t_min for m in sc.messages] == [pytest.approx(24 * 60.0)]


@pytest.mark.parametrize("sections, field, words", [
    ({"command": {"headquarters": [dict(HQ, station=None, aboard="Chatham")]}},
     "command.headquarters[0] (Admiralty).aboard", "enters at 1914-08-03"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Admiralty", "to": "Chatham", "text": "x"}]},
     "messages[0].to", "enters at 1914-08-03"),
    ({"command": {"headquarters": [HQ]},
      "messages": [{"at": "1914-08-02T06:00Z", "from": "Chatham", "to": "Admiralty", "text": "x"}]},
     "messages[0].from", "after the message"),
])
def test_nothing_is_sent_by_or_to_a_force_before_it_enters(write_scenario, sections, field, words) -> None:
    err = fault_of(write_scenario, with_late_chatham(**sections))
    assert [f.field for f in err.faults] == [field], str(err)
    assert words in err.faults[0].fault
