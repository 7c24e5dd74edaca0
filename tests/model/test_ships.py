"""Ship data: sourced figures, invariants, the consumption curve and the loader's errors."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.model.ships import (
    LT_TO_T,
    SHIPS_FILE,
    ConsumptionCurve,
    Ship,
    ShipDataError,
    default_ships,
    find_ship,
    load_ships,
    unsourced_fields,
)

SHIPS = default_ships()


# ------------------------------------------------------------------------------------------ sourced figures


def test_goeben_coal_capacity_is_the_moltke_class_3100_t() -> None:
    # D.W. Taylor via warshipsresearch.blogspot.com: Moltke type "coal bunker capacity 3,100 tons".
    assert find_ship("Goeben").coal_capacity_t == 3100


@pytest.mark.parametrize("speed_kn, range_nm", [(14, 4120), (23, 2370)])
def test_goeben_curve_reproduces_the_class_endurance_figures(speed_kn: float, range_nm: float) -> None:
    goeben = find_ship("Goeben")
    assert goeben.calibrated_consumption.endurance_nm(3100, speed_kn) == pytest.approx(range_nm, rel=0.01)


def test_goeben_daily_burn_matches_full_bunker_derivation() -> None:
    # The whole 3,100 t bunker (D.W. Taylor via warshipsresearch.blogspot.com) burnt over each endurance run,
    # 3,100 t x 24 h x v / R: ~253 t/day at 14 kn (4,120 nm, WP 'Moltke-class battlecruiser' infobox) and
    # ~722 t/day at 23 kn (2,370 nm, sister Moltke, perceptiode.com/SMS_Moltke_(1910)).
    for c in (find_ship("Goeben").calibrated_consumption, find_ship("Moltke").consumption):
        assert c.t_per_day(14) == pytest.approx(253, rel=0.01)
        assert c.t_per_day(23) == pytest.approx(722, rel=0.01)


def test_goeben_burns_her_boilers_factor_over_the_class_curve() -> None:
    # data/ships.yaml, ships: Goeben, consumption.condition_factor: 1.8, derived from the record of her coal
    # (Miller ch.4 and ch.8; Massie ch.8; Tuchman ch.10); her sister Moltke keeps the class's figures.
    goeben, moltke = find_ship("Goeben"), find_ship("Moltke")
    assert goeben.consumption_factor == 1.8 and moltke.consumption_factor == 1.0
    for v in (0.0, 14.0, 23.5):
        assert goeben.consumption.t_per_day(v) == pytest.approx(1.8 * moltke.consumption.t_per_day(v))
    assert goeben.consumption.t_per_day(23.5) == pytest.approx(1370, rel=0.01)  # ~1,370 t/day at 23.5 kn
    assert goeben.consumption.t_per_day(14) == pytest.approx(455, rel=0.01)
    assert "STAND-IN" in goeben.source_of("consumption.condition_factor")


def test_goeben_sustained_speed_is_two_knots_below_design() -> None:
    goeben = find_ship("Goeben")
    assert goeben.design_speed_kn == 25.5
    assert goeben.sustained_speed_kn == pytest.approx(23.5)


def test_warrior_long_tons_are_converted_to_tonnes() -> None:
    # WP 'HMS Warrior (1905)': 2,050 LT of coal and 600 LT of oil; 13,550 LT as built.
    warrior = find_ship("Warrior")
    assert warrior.coal_capacity_t == pytest.approx(2050 * 1.016)
    assert warrior.oil_t == pytest.approx(600 * 1.016)
    assert warrior.displacement_t == pytest.approx(13550 * LT_TO_T)
    assert LT_TO_T == 1.016


def test_gloucester_speed_25_kn() -> None:
    gloucester = find_ship("Gloucester")
    assert gloucester.design_speed_kn == 25
    assert gloucester.sustained_speed_kn == 25


@pytest.mark.parametrize(
    "name, field, value",
    [
        ("Indomitable", "coal_capacity_t", 3083 * 1.016),
        ("Indomitable", "oil_t", 713 * 1.016),
        ("Inflexible", "coal_capacity_t", 3084 * 1.016),
        ("New Zealand", "coal_capacity_t", 3200 * 1.016),
        ("Defence", "coal_capacity_t", 2060 * 1.016),
        ("Duke of Edinburgh", "coal_capacity_t", 2150 * 1.016),
        ("Dublin", "coal_capacity_t", 1240 * 1.016),
        ("Weymouth", "coal_capacity_t", 1290 * 1.016),
        ("Gloucester", "coal_capacity_t", 1353 * 1.016),
        ("Beagle", "coal_capacity_t", 226 * 1.016),
        ("Breslau", "coal_capacity_t", 1200),
        ("Breslau", "design_speed_kn", 27.5),
        ("Defence", "sustained_speed_kn", 19),
        ("Tegetthoff", "coal_capacity_t", 1844.5),
        ("Courbet", "crew", 1187),
        ("Lorelei", "coal_capacity_t", 180),
    ],
)
def test_sourced_figures(name: str, field: str, value: float) -> None:
    assert getattr(find_ship(name), field) == pytest.approx(value)


def test_moltke_and_new_zealand_what_ifs_are_present() -> None:
    assert find_ship("Moltke").cls == "Moltke"
    assert find_ship("New Zealand").type == "battlecruiser"


def test_mediterranean_destroyer_flotilla_has_the_sixteen_beagles() -> None:
    beagles = [s for s in SHIPS.values() if s.cls == "Beagle"]
    assert len(beagles) == 16
    assert {"Wolverine", "Beagle", "Bulldog", "Basilisk"} <= {s.name for s in beagles}


def test_required_ships_are_present() -> None:
    required = [
        "Goeben",
        "Breslau",
        "Moltke",
        "General",
        "Bogadir",
        "Mudros",
        "Lorelei",
        "Waltraute",
        "Inflexible",
        "Indomitable",
        "Indefatigable",
        "Defence",
        "Warrior",
        "Gloucester",
        "Dublin",
        "Chatham",
        "Weymouth",
        "Wolverine",
        "Beagle",
        "Bulldog",
        "Courbet",
        "Danton",
        "Diderot",
        "Condorcet",
        "Mirabeau",
        "Vergniaud",
        "Voltaire",
        "Patrie",
        "Suffren",
        "Gaulois",
        "Charlemagne",
        "Bouvet",
        "Justice",
        "Tegetthoff",
        "Radetzky",
        "Saida",
        "Helgoland",
        "Novara",
    ]
    for name in required:
        find_ship(name)
    for name in [
        "Jean Bart",
        "France",
        "New Zealand",
        "Duke of Edinburgh",
        "Black Prince",
        "Saint Louis",
        "Edgar Quinet",
        "Ernest Renan",
        "Jules Michelet",
        "Waldeck-Rousseau",
        "Leon Gambetta",
        "Victor Hugo",
        "Jules Ferry",
        "Viribus Unitis",
        "Prinz Eugen",
        "Erzherzog Franz Ferdinand",
        "Zrínyi",
        "Admiral Spaun",
        "Dante Alighieri",
        "Giulio Cesare",
        "Conte di Cavour",
        "Leonardo da Vinci",
        "Regina Elena",
        "San Giorgio",
        "Pisa",
        "République",
        "Démocratie",
        "Vérité",
    ]:
        find_ship(name)


# ------------------------------------------------------------------------------------------ invariants


@pytest.mark.parametrize("ship", list(SHIPS.values()), ids=list(SHIPS))
def test_invariants(ship: Ship) -> None:
    assert ship.coal_capacity_t > 0
    assert ship.displacement_t > 0 and ship.length_m > ship.beam_m > ship.draught_m > 0
    assert ship.design_speed_kn >= ship.sustained_speed_kn >= ship.economical_speed_kn > 0
    assert ship.crew > 0
    speeds = np.linspace(0, ship.design_speed_kn, 60)
    rate = ship.consumption.t_per_day(speeds)
    assert np.all(np.diff(rate) > 0), "consumption must rise with speed"
    assert rate[0] == pytest.approx(ship.consumption.fixed_t_per_day)
    if ship.is_merchant:
        assert ship.transfer_rate_t_per_h is None or ship.transfer_rate_t_per_h > 0
    else:
        assert ship.cargo_coal_t == 0 and ship.transfer_rate_t_per_h is None


@pytest.mark.parametrize("ship", list(SHIPS.values()), ids=list(SHIPS))
def test_every_numeric_field_has_a_source(ship: Ship) -> None:
    fields = [
        "displacement_t",
        "length_m",
        "beam_m",
        "draught_m",
        "speed_kn.design",
        "speed_kn.sustained",
        "speed_kn.economical",
        "coal",
        "consumption",
        "crew",
    ]
    if ship.guns:
        fields.append("guns")
    if ship.cargo_coal_t:
        fields.append("cargo_coal_t")
    if ship.transfer_rate_t_per_h is not None:
        fields.append("transfer_rate_t_per_h")
    for f in fields:
        cite = ship.source_of(f) or ship.source_of(f.replace("_t", "_lt", 1))
        assert cite and len(cite) > 10, f"{ship.name}: {f} has no source"
    for point in ship.calibration_points:
        assert len(point.source) > 10


def test_raw_file_has_no_unsourced_numbers() -> None:
    raw = yaml.safe_load(SHIPS_FILE.read_text(encoding="utf-8"))
    for name, own in raw["ships"].items():
        base = raw["classes"][own["class"]]
        merged = {**base, **own, "sources": {**base.get("sources", {}), **own.get("sources", {})}}
        assert unsourced_fields(merged) == [], name


@pytest.mark.parametrize("ship", list(SHIPS.values()), ids=list(SHIPS))
def test_stored_curve_reproduces_its_calibration_points(ship: Ship) -> None:
    for p in ship.calibration_points:
        assert ship.calibrated_consumption.endurance_nm(p.bunker_t, p.speed_kn) == pytest.approx(p.range_nm, rel=0.01)
    if ship.consumption_method == "stand_in":
        assert "stand-in" in ship.consumption_basis


def _reference_ratio(name: str) -> float:
    c = (
        SHIPS[name].consumption
        if name in SHIPS
        else next(s for s in SHIPS.values() if s.cls == name).consumption
    )
    return c.fixed_t_per_day / c.cubic_t_per_day


@pytest.mark.parametrize(
    "ship",
    [s for s in SHIPS.values() if s.consumption_method == "one_point"],
    ids=[n for n, s in SHIPS.items() if s.consumption_method == "one_point"],
)
def test_one_point_curves_borrow_the_reference_ratio(ship: Ship) -> None:
    raw = yaml.safe_load(SHIPS_FILE.read_text(encoding="utf-8"))
    own = raw["ships"][ship.name].get("consumption") or raw["classes"][ship.cls]["consumption"]
    ref = own["reference"]
    assert raw["classes"][ref]["consumption"]["method"] == "two_point"
    ratio = ship.consumption.fixed_t_per_day / ship.consumption.cubic_t_per_day
    assert ratio == pytest.approx(_reference_ratio(ref), rel=0.01)


@pytest.mark.parametrize("cls", ["Moltke", "Invincible", "Bristol"])
def test_accepted_two_point_fits_keep_fixed_load_between_10_and_80_percent(cls: str) -> None:
    ship = next(s for s in SHIPS.values() if s.cls == cls)
    v_low = min(p.speed_kn for p in ship.calibration_points)
    share = ship.consumption.fixed_t_per_day / ship.consumption.t_per_day(v_low)
    assert 0.10 <= share <= 0.80


def test_board_game_cross_check_fixed_load_is_of_order_half_of_cruising_burn() -> None:
    # seed 000 Coaling Index: station keeping 1 unit per turn, normal running 2 units per turn.
    for name, v in [("Goeben", 14), ("Indomitable", 10), ("Gloucester", 14)]:
        c = find_ship(name).consumption
        assert 0.3 <= c.fixed_t_per_day / c.t_per_day(v) <= 0.7


def test_collier_transfer_rate_matches_board_game_derivation() -> None:
    # seed 000: "from collier - 5 units" per 6-h turn, German bunkers 36 units = 3,100 t.
    assert find_ship("Bogadir").transfer_rate_t_per_h == pytest.approx(5 / 36 * 3100 / 6, rel=0.03)


# ------------------------------------------------------------------------------------------ the curve


speeds = st.floats(min_value=0, max_value=35, allow_nan=False)
hours = st.floats(min_value=0, max_value=500, allow_nan=False)
curves = st.builds(ConsumptionCurve, st.floats(0, 300), st.floats(0.1, 300))


@given(curves, speeds, hours)
@settings(max_examples=200)
def test_coal_is_the_exact_integral_at_constant_speed(curve: ConsumptionCurve, v: float, h: float) -> None:
    assert curve.coal_t(v, h) == pytest.approx(curve.t_per_h(v) * h, rel=1e-12, abs=1e-12)
    assert curve.t_per_h(v) == pytest.approx(curve.t_per_day(v) / 24, rel=1e-12)


@given(curves, st.floats(0.1, 35), st.floats(1, 5000))
@settings(max_examples=200)
def test_hours_and_endurance_invert(curve: ConsumptionCurve, v: float, coal: float) -> None:
    h = curve.hours_to_burn(coal, v)
    assert curve.coal_t(v, h) == pytest.approx(coal, rel=1e-9)
    assert curve.endurance_nm(coal, v) == pytest.approx(h * v, rel=1e-12)


@given(curves, st.floats(0, 30), st.floats(0.01, 5))
def test_curve_is_monotonic(curve: ConsumptionCurve, v: float, dv: float) -> None:
    assert curve.t_per_day(v + dv) > curve.t_per_day(v)


def test_curve_accepts_arrays_and_returns_floats_for_scalars() -> None:
    c = ConsumptionCurve(10.0, 20.0)
    assert isinstance(c.t_per_day(10), float)
    assert c.t_per_day(10) == 30.0
    out = c.t_per_day([0, 10, 20])
    assert isinstance(out, np.ndarray) and out.tolist() == [10.0, 30.0, 170.0]
    assert c.coal_t(np.array([10.0, 20.0]), 24).tolist() == [30.0, 170.0]
    assert c.endurance_nm(np.array([30.0, 60.0]), 10).tolist() == pytest.approx([240.0, 480.0])
    with pytest.raises(ValueError):
        c.t_per_day(-1)
    with pytest.raises(ValueError):
        ConsumptionCurve(-1, 1)


def test_two_point_calibration_solves_both_parameters() -> None:
    c = ConsumptionCurve.from_two_points(3100, (14, 4120), (23, 2370))
    assert c.endurance_nm(3100, 14) == pytest.approx(4120)
    assert c.endurance_nm(3100, 23) == pytest.approx(2370)
    one = ConsumptionCurve.from_one_point(1000, (12, 5000), 2.0)
    assert one.endurance_nm(1000, 12) == pytest.approx(5000)
    assert one.fixed_t_per_day / one.cubic_t_per_day == pytest.approx(2.0)
    assert math.isclose(ConsumptionCurve.rate_from_endurance(3100, 14, 4120), 3100 * 24 * 14 / 4120)


# ------------------------------------------------------------------------------------------ lookup and errors


def test_aka_lookup_is_case_insensitive() -> None:
    assert find_ship("Bogados").name == "Bogadir"
    assert find_ship("bogados") is find_ship("BOGADIR")
    assert find_ship("HMS Indomitable").name == "Indomitable"
    assert find_ship("Yavuz Sultan Selim").name == "Goeben"


def test_unknown_name_lists_close_matches() -> None:
    with pytest.raises(KeyError, match="Goeben"):
        find_ship("Goben")


def test_default_ships_is_cached_and_read_only() -> None:
    assert default_ships() is default_ships()
    with pytest.raises(TypeError):
        default_ships()["x"] = None  # type: ignore[index]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad_ships.yaml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD_CLASS = """
classes:
  Test:
    nation: Germany
    type: light_cruiser
    displacement_t: 4000
    length_m: 130
    beam_m: 13
    draught_m: 5
    speed_kn: {design: 25, sustained: 24, economical: 10}
    coal: {capacity_t: 1000}
    consumption: {method: stand_in, fixed_t_per_day: 10, cubic_t_per_day: 20, basis: "stand-in: a test curve"}
    crew: 300
    sources: {displacement_t: "a source", length_m: "a source", beam_m: "a source", draught_m: "a source",
              speed_kn: "a source", coal: "a source", consumption: "a source", crew: "a source"}
"""


def test_minimal_file_loads(tmp_path: Path) -> None:
    ships = load_ships(_write(tmp_path, GOOD_CLASS + "ships:\n  Probe: {class: Test, aka: [Sonde]}\n"))
    assert find_ship("sonde", ships).name == "Probe"
    assert ships["Probe"].torpedo_tubes is not None and ships["Probe"].torpedo_tubes.count == 0


def test_bad_field_error_names_file_ship_and_field(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD_CLASS + "ships:\n  Probe: {class: Test, beam_m: -3}\n")
    with pytest.raises(ShipDataError) as err:
        load_ships(path)
    msg = str(err.value)
    assert "bad_ships.yaml" in msg and "'Probe'" in msg and "beam_m" in msg


def test_speed_order_is_enforced(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD_CLASS + "ships:\n  Probe: {class: Test, speed_kn: {sustained: 26}}\n")
    with pytest.raises(ShipDataError, match="speed_kn"):
        load_ships(path)


def test_unsourced_number_is_refused(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        GOOD_CLASS
        + "ships:\n  Probe: {class: Test, cargo_coal_t: 0, crew: 5}\n".replace("cargo_coal_t: 0, ", ""),
    )
    load_ships(path)  # crew override inherits the class citation
    path = _write(tmp_path, GOOD_CLASS.replace('crew: "a source"}', "}") + "ships:\n  Probe: {class: Test}\n")
    with pytest.raises(ShipDataError, match="crew"):
        load_ships(path)


def test_unknown_class_and_bad_yaml(tmp_path: Path) -> None:
    with pytest.raises(ShipDataError, match="unknown class 'Tset'"):
        load_ships(_write(tmp_path, GOOD_CLASS + "ships:\n  Probe: {class: Tset}\n"))
    with pytest.raises(ShipDataError, match="not valid YAML"):
        load_ships(_write(tmp_path, "ships: [unclosed\n"))
    with pytest.raises(ShipDataError, match="needs a top-level 'ships:'"):
        load_ships(_write(tmp_path, "classes: {}\n"))


def test_duplicate_alias_is_refused(tmp_path: Path) -> None:
    path = _write(
        tmp_path, GOOD_CLASS + "ships:\n  Probe: {class: Test}\n  Other: {class: Test, aka: [probe]}\n"
    )
    with pytest.raises(ShipDataError, match="already used"):
        load_ships(path)


# ------------------------------------------------------------------------------------------ gun arcs and rate


ARMED_CLASS = GOOD_CLASS.replace(
    "    crew: 300\n",
    "    crew: 300\n"
    "    guns:\n"
    "      - {count: 12, calibre_mm: 105, label: \"10.5 cm\", mounting: \"single\", broadside: 6, ahead: 2,"
    " astern: 2, quick_firing: true}\n",
).replace('crew: "a source"}', 'crew: "a source", guns: "a source", guns.arcs: "a layout source",\n'
          '              guns.quick_firing: "a rate source"}')


def test_gun_arcs_and_rate_load(tmp_path: Path) -> None:
    ships = load_ships(_write(tmp_path, ARMED_CLASS + "ships:\n  Probe: {class: Test}\n"))
    (gun,) = ships["Probe"].guns
    assert (gun.broadside, gun.ahead, gun.astern, gun.cross_deck, gun.quick_firing) == (6, 2, 2, 0, True)
    assert gun.has_arcs
    assert ships["Probe"].source_of("guns.arcs") == "a layout source"


def test_gun_arcs_default_to_unknown(tmp_path: Path) -> None:
    text = ARMED_CLASS.replace(", broadside: 6, ahead: 2, astern: 2, quick_firing: true", "")
    (gun,) = load_ships(_write(tmp_path, text + "ships:\n  Probe: {class: Test}\n"))["Probe"].guns
    assert (gun.broadside, gun.ahead, gun.astern, gun.quick_firing) == (None, None, None, None)
    assert gun.cross_deck == 0 and not gun.has_arcs


@pytest.mark.parametrize(
    "old, new, match",
    [
        ("broadside: 6", "broadside: 13", "exceeds the group's 12 barrels"),
        ("ahead: 2, astern: 2, ", "", "give all of broadside, ahead and astern or none"),
        ("broadside: 6,", "broadside: 6, cross_deck: 7,", "cross_deck"),
        ("astern: 2", "astern: -1", "astern"),
        ('guns.arcs: "a layout source",', "", r"arcs given without a source \(guns.arcs\)"),
        ('guns.quick_firing: "a rate source"', "", r"quick_firing given without a source"),
    ],
)
def test_bad_gun_arcs_are_refused(tmp_path: Path, old: str, new: str, match: str) -> None:
    assert old in ARMED_CLASS
    path = _write(tmp_path, ARMED_CLASS.replace(old, new) + "ships:\n  Probe: {class: Test}\n")
    with pytest.raises(ShipDataError, match=match) as err:
        load_ships(path)
    assert "'Probe'" in str(err.value) and "guns" in str(err.value)


@pytest.mark.parametrize("ship", [s for s in SHIPS.values() if s.guns], ids=[n for n, s in SHIPS.items() if s.guns])
def test_every_armed_ship_has_cited_arcs_within_its_barrels(ship: Ship) -> None:
    assert len(ship.sources.get("guns.arcs", "")) > 10
    assert len(ship.sources.get("guns.quick_firing", "")) > 10
    for gun in ship.guns:
        assert gun.has_arcs
        assert 0 <= gun.cross_deck <= gun.broadside <= gun.count
        assert 0 <= gun.ahead <= gun.count and 0 <= gun.astern <= gun.count


def test_merchant_ships_carry_no_guns() -> None:
    assert all(not s.guns for s in SHIPS.values() if s.is_merchant)
