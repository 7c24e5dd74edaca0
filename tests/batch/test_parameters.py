"""Design parameters and the scenario's rule-table factors: 1.0 changes nothing; other values change
exactly the rules they name."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest
import simpy
import yaml

from campaign.batch.parameters import ParameterError, apply_parameters, parameter
from campaign.clock import Clock
from campaign.paths import ROOT
from campaign.records import Recorder
from campaign.runner import run
from campaign.scenario.loader import ScenarioError, load_scenario
from campaign.world.sighting import default_sighting_rules
from campaign.world.signal_data import default_signal_data
from campaign.world.signals import SignalNetwork
from campaign.world.world import World
from tests.batch.conftest import small_scenario

HISTORICAL = ROOT / "scenarios" / "goeben_1914.yaml"


@pytest.fixture(scope="module")
def small_loaded(small):
    return load_scenario(small)


def goeben(sc):
    return next(sh for f in sc.forces for sh in f.ships if sh.name == "Goeben")


def test_factors_of_one_change_nothing(small_loaded) -> None:
    same = apply_parameters(small_loaded, {"sighting_range_factor": 1.0, "telegraph_delay_factor": 1.0})
    assert same.factors == small_loaded.factors
    for seed in (0, 1):
        assert run(same, seed=seed).events == run(small_loaded, seed=seed).events


def test_a_shorter_sighting_range_sights_later_and_nearer(small_loaded) -> None:
    def first_sighting(sc):
        return next(e for e in run(sc, seed=0).events if e["type"] == "sighting")

    base = first_sighting(small_loaded)
    short = first_sighting(apply_parameters(small_loaded, {"sighting_range_factor": 0.5}))
    assert short["t"] > base["t"] and short["range_nm"] < base["range_nm"]


def test_sighting_rules_scale_every_range_but_janes_miss_distance() -> None:
    rules = default_sighting_rules()
    assert rules.scaled(1.0) is rules
    half = rules.scaled(0.5)
    assert {k: 2 * v for k, v in half.hull_range_nm.items()} == dict(rules.hull_range_nm)
    assert {k: 2 * v for k, v in half.smoke_range_nm.items()} == dict(rules.smoke_range_nm)
    assert half.miss_distance_nm == rules.miss_distance_nm
    assert half.max_range_nm() == pytest.approx(rules.max_range_nm() / 2)


def test_telegraph_factor_multiplies_every_telegraph_delay_admiralty_to_malta() -> None:
    """The real network, by day: dispatch, line minutes and handling all double; deciphering does not."""
    base = default_signal_data()
    assert base.with_telegraph_delay(1.0) is base
    delays = {}
    for factor in (1.0, 2.0):
        data = base.with_telegraph_delay(factor)
        env, rec = simpy.Environment(), Recorder()
        net = SignalNetwork(env, rec.emit, Clock(datetime(1914, 8, 4, 12, tzinfo=UTC)),
                            is_night=lambda lat, lon, when: False, data=data,
                            sides={"United Kingdom": "Entente"})
        net.register("Admiralty", "Entente", "United Kingdom", station="London")
        net.register("C-in-C Malta", "Entente", "United Kingdom", station="Valletta")
        msg = net.send("Admiralty", "C-in-C Malta", "order", {}, "Goeben is your objective")
        env.run(until=3000)
        delays[factor] = next(r.data["delay_min"] for r in rec.records
                              if r.type == "message_received" and r.data["id"] == msg.id)
    decipher = base.wireless.decipher_min
    assert delays[2.0] - decipher == pytest.approx(2 * (delays[1.0] - decipher))


def test_the_world_builds_its_rules_from_the_scenarios_factors(small_loaded) -> None:
    sc = replace(small_loaded, factors=replace(small_loaded.factors, sighting_range=0.5, telegraph_delay=3.0))
    w = World(sc, 0)
    rules = default_sighting_rules()
    assert w.contacts.model.rules.hull_range_nm["day"] == pytest.approx(rules.hull_range_nm["day"] * 0.5)
    tele = default_signal_data().telegraph
    assert w.command.net.data.telegraph.day_min_per_1000_nm == pytest.approx(3 * tele.day_min_per_1000_nm)
    plain = World(small_loaded, 0)
    assert plain.contacts.model.rules is rules and plain.command.net.data is default_signal_data()


def test_a_scenario_file_may_give_factors(write_scenario) -> None:
    sc = load_scenario(write_scenario(small_scenario() | {"factors": {"sighting_range": 0.8, "note": "haze"}}))
    assert sc.factors.sighting_range == 0.8 and sc.factors.telegraph_delay == 1.0
    with pytest.raises(ScenarioError, match="factors.telegraph_delay"):
        load_scenario(write_scenario(small_scenario() | {"factors": {"telegraph_delay": 0}}))


def test_goeben_sustained_speed_keeps_the_speed_order_on_a_real_variant() -> None:
    slow = load_scenario(HISTORICAL, variant="goeben_no_fast_speed")  # design = sustained = 15.7 kn
    g = goeben(apply_parameters(slow, {"goeben_sustained_kn": 20.0}))
    assert (g.design_speed_kn, g.sustained_speed_kn) == (20.0, 20.0)
    assert g.economical_speed_kn == goeben(slow).economical_speed_kn
    g = goeben(apply_parameters(slow, {"goeben_sustained_kn": 5.0}))
    assert (g.design_speed_kn, g.sustained_speed_kn, g.economical_speed_kn) == (15.7, 5.0, 5.0)
    assert "batch design parameter" in g.sources["speed_kn"]
    others = [sh for f in slow.forces for sh in f.ships if sh.name != "Goeben"]
    changed = apply_parameters(slow, {"goeben_sustained_kn": 20.0})
    assert [sh for f in changed.forces for sh in f.ships if sh.name != "Goeben"] == others


def test_a_parameter_the_scenario_cannot_take_is_refused(write_scenario) -> None:
    content = small_scenario() | {"forces": [small_scenario()["forces"][1]]}
    content["command"] = {"standing": {"Gloucester": content["command"]["standing"]["Gloucester"]}}
    no_goeben = load_scenario(write_scenario(content))
    with pytest.raises(ParameterError, match="no ship Goeben"):
        apply_parameters(no_goeben, {"goeben_sustained_kn": 20.0})
    with pytest.raises(ParameterError, match="outside"):
        apply_parameters(no_goeben, {"sighting_range_factor": 0.0})
    with pytest.raises(ParameterError, match="known: sighting_range_factor"):
        parameter("speed")


def test_small_scenario_yaml_is_plain(small) -> None:
    assert yaml.safe_load(small.read_text())["name"] == "test_scenario"


SENSITIVITY = ("sighting_range_factor", "telegraph_delay_factor", "goeben_sustained_kn")
POINTS = [{"sighting_range_factor": 0.8, "telegraph_delay_factor": 1.5, "goeben_sustained_kn": 19.0},
          {"sighting_range_factor": 1.2, "telegraph_delay_factor": 0.7, "goeben_sustained_kn": 23.0}]


def test_a_design_that_sets_a_variants_own_change_is_found_with_what_it_replaces() -> None:
    from campaign.batch.parameters import overrides

    base = load_scenario(HISTORICAL)
    # Moltke's endurance is Goeben's sustained speed (24.5 kn for 23.5) and the class's coal curve without her
    # leaking tubes' factor: the design replaces the speed and keeps the coal.
    moltke = load_scenario(HISTORICAL, variant="goeben_moltke_endurance")
    (o,) = overrides("goeben_moltke_endurance", moltke, base, SENSITIVITY, POINTS)
    assert (o.parameter, o.variant_value, o.base_value, o.nothing_else) == ("goeben_sustained_kn", 24.5, 23.5, False)
    assert "keeps only its other changes" in o.describe() and "24.5 (the base's 23.5)" in o.describe()
    # No fast speed also lowers her design speed to 15.7 kn, which a point below the base's 25.5 keeps lower.
    slow = load_scenario(HISTORICAL, variant="goeben_no_fast_speed")
    (o,) = overrides("goeben_no_fast_speed", slow, base, SENSITIVITY, POINTS)
    assert (o.variant_value, o.base_value, o.nothing_else) == (15.7, 23.5, False)
    assert "keeps only its other changes" in o.describe()
    # A variant that changes none of the design's parameters, and a design that does not vary hers.
    engages = load_scenario(HISTORICAL, variant="troubridge_engages")
    assert overrides("troubridge_engages", engages, base, SENSITIVITY, POINTS) == ()
    assert overrides("goeben_moltke_endurance", moltke, base, SENSITIVITY[:2],
                     [{k: p[k] for k in SENSITIVITY[:2]} for p in POINTS]) == ()


def test_scenarios_run_alike_when_only_their_names_and_citations_differ() -> None:
    from campaign.batch.parameters import runs_alike

    base = load_scenario(HISTORICAL)
    assert runs_alike(base, load_scenario(HISTORICAL))
    moltke = load_scenario(HISTORICAL, variant="goeben_moltke_endurance")
    assert not runs_alike(base, moltke)  # 24.5 kn against 23.5
    # The speed alone is not the variant: her coal curve differs too.
    assert not runs_alike(apply_parameters(base, {"goeben_sustained_kn": 24.5}), moltke)
    faster = apply_parameters(base, {"goeben_sustained_kn": 24.5})
    assert not runs_alike(faster, replace(faster, forces=faster.forces[::-1]))


@pytest.mark.parametrize(("speeds", "alike"), [((26.0, 27.0), True), ((26.0, 20.0), False), ((20.0, 26.0), False)])
def test_whether_a_variant_runs_as_the_base_is_judged_at_every_point_not_the_first(speeds, alike) -> None:
    """No fast speed sets Goeben's design and sustained speeds to 15.7 kn; a point at or above the base's
    design speed (25.5 kn) raises both scenarios' to the same, one below leaves hers lower. The parts
    proven alike at the first point must not hide a difference a later point makes."""
    from campaign.batch.parameters import overrides, runs_alike

    base = load_scenario(HISTORICAL)
    slow = load_scenario(HISTORICAL, variant="goeben_no_fast_speed")
    points = [{"goeben_sustained_kn": s} for s in speeds]
    (o,) = overrides("goeben_no_fast_speed", slow, base, ["goeben_sustained_kn"], points)
    assert o.nothing_else is alike
    assert alike is all(runs_alike(apply_parameters(slow, p), apply_parameters(base, p)) for p in points)
