"""data/guns.yaml and its loader: every ship's gun has a reach, the sourced figures are the sources', the
computed stand-ins recompute, and a bad file is refused with every fault named."""

from __future__ import annotations

import copy
import re

import pytest

from campaign.datafile import load_yaml
from campaign.model import ballistics
from campaign.model.guns import (
    GUNS_FILE,
    GunDataError,
    default_guns,
    derived_reach_yd,
    gun_data,
    guns_without_data,
    load_guns,
    longest_reach_yd,
    parse_guns,
    reach_up_to_calibre_yd,
    reach_yd,
)
from campaign.model.ships import default_ships, find_ship

TABLE = default_guns()
EVERY = [*TABLE.entries.values(), *(g for m in TABLE.mountings.values() for g in m.values())]
FIGHTING = [s for s in default_ships().values() if s.guns and not s.is_merchant]
M = ballistics.M_PER_YD


def _gun(ship: str, label: str):
    return next(g for g in find_ship(ship).guns if g.label == label)


def test_every_gun_of_every_fighting_ship_has_a_reach():
    assert FIGHTING and guns_without_data(default_ships().values()) == []
    for ship in FIGHTING:
        for g in ship.guns:
            data = gun_data(g)
            assert data.max_range_yd > 0, (ship.name, g.label)
            assert abs(data.calibre_mm - g.calibre_mm) <= 1.0, (ship.name, g.label, data.calibre_mm)
    # and every entry describes a gun some ship carries (no orphan keyed by a label nobody spells)
    labels = {g.label.casefold() for s in default_ships().values() for g in s.guns}
    for data in TABLE.entries.values():
        assert {data.label.casefold(), *(a.casefold() for a in data.aka)} & labels, data.label


def test_reaches_are_plausible():
    for g in EVERY:
        assert 5000 <= g.max_range_yd <= 30000, g.label
        if g.calibre_mm >= 240:  # the heavy guns of 1914 ranged 15,000-26,000 yd
            assert g.max_range_yd >= 15000, g.label
        if g.calibre_mm < 60:  # the 3-pounders and 5 cm: a few miles
            assert g.max_range_yd <= 9000, g.label
        if g.max_elevation_deg is not None:
            assert 10 <= g.max_elevation_deg <= 25, g.label


def test_sourced_figures():
    mk_x = TABLE.find("BL 12-inch Mk X")  # WP 'Invincible-class battlecruiser': 16,450 m at 13.5 deg
    assert (mk_x.max_elevation_deg, mk_x.max_range_yd, mk_x.muzzle_velocity_mps) == (13.5, 17990, 831)
    assert mk_x.max_range_yd == pytest.approx(16450 / M, abs=5) and mk_x.heaviest_shell_kg == pytest.approx(385.6)
    assert not mk_x.is_stand_in("max_range_yd")
    mk_xi = TABLE.find("BL 9.2-inch Mk XI")  # WP 'Minotaur-class cruiser (1906)': 16,200 yd; 15 deg
    assert (mk_xi.max_elevation_deg, mk_xi.max_range_yd, mk_xi.muzzle_velocity_mps) == (15, 16200, 876)
    danton = TABLE.find("240 mm (9.4 in)")  # navweaps WNFR_94-50_m1902; deWP: 85 rounds a gun
    assert (danton.max_elevation_deg, danton.max_range_yd, danton.outfit_rounds_per_gun) == (13, 15300, 85)
    k10 = TABLE.find("30.5 cm/45 K10")  # deWP: 22 km at 20 deg, 450 kg, 800 m/s
    assert k10.max_range_yd == pytest.approx(22000 / M, abs=5) and k10.max_elevation_deg == 20
    assert k10.heaviest_shell_kg == 450 and k10.muzzle_velocity_mps == 800
    # Goeben's 28 cm: navweaps' 3 rounds a minute; reach a stand-in carried from 23,730 yd at 22.5 deg
    sk50 = TABLE.find("28 cm SK L/50")
    assert sk50.rate_of_fire_rounds_per_min == 3 and sk50.max_elevation_deg == 13.5
    assert sk50.is_stand_in("max_range_yd") and sk50.reach_derivation.from_range_yd == 23730
    assert sk50.max_range_yd == 18410
    # Breslau's 10.5 cm: the SK L/40's 12,200 m (a labelled stand-in)
    breslau = TABLE.find("10.5 cm SK L/45")
    assert breslau.max_range_yd == pytest.approx(12200 / M, abs=5) and breslau.is_stand_in("max_range_yd")
    three = TABLE.find("QF 3-pounder")  # WP: 5.9 km at +20 deg, 1.5 kg, 571 m/s
    assert three.max_range_yd == pytest.approx(5900 / M, abs=5) and three.heaviest_shell_kg == 1.5


def test_reach_stand_ins_recompute():
    derived = [g for g in EVERY if g.reach_derivation is not None]
    assert len(derived) > 20
    for g in derived:
        assert g.is_stand_in("max_range_yd"), g.label
        assert derived_reach_yd(g) == pytest.approx(g.max_range_yd, abs=10), (g.label, g.mounting)


def test_the_conversion_holds_for_a_gun_with_two_published_ranges():
    """Fitted to the 240 mm Mle 1902's coast-defence 23,812 m at 45 deg, the model gives the Danton
    turrets' 14,000 m at 13 deg within 1 % (navweaps WNFR_94-50_m1902)."""
    ff = ballistics.fit_form_factor(800, 45, 23812, 221, 240)
    assert ballistics.range_m(800, 13, 221, 240, ff) == pytest.approx(14000, rel=0.01)
    # and ranges grow with elevation below 45 deg, and with velocity
    assert ballistics.range_m(800, 10, 221, 240, ff) < ballistics.range_m(800, 20, 221, 240, ff)
    assert ballistics.range_m(700, 15, 221, 240, ff) < ballistics.range_m(800, 15, 221, 240, ff)


def test_lookup_by_aka_and_by_mounting():
    assert gun_data(_gun("Charlemagne", "305 mm/40 Mle 1893")).label == "305 mm Mle 1893/96"
    assert gun_data(_gun("Basilisk", "BL 4-inch")).muzzle_velocity_mps == 697  # the Mark VIII
    danton, bouvet = gun_data(_gun("Danton", "305 mm (12 in)")), gun_data(_gun("Bouvet", "305 mm (12 in)"))
    assert danton.mounting is None and bouvet.mounting == "single turret"
    assert (danton.max_elevation_deg, bouvet.max_elevation_deg) == (13, 15)
    assert "Bouvet" in bouvet.designation and danton.heaviest_shell_kg == 435.5
    assert reach_yd(_gun("Goeben", "28 cm SK L/50")) == longest_reach_yd(find_ship("Goeben")) == 18410
    assert longest_reach_yd(find_ship("Lorelei")) == TABLE.find("5 cm SK L/40").max_range_yd
    goeben = find_ship("Goeben")  # her reach with the 28 cm out of action: the 15 cm's
    assert reach_up_to_calibre_yd(goeben, 150) == 16400 and reach_up_to_calibre_yd(goeben, 50) == 0.0


def test_every_figure_cites_and_no_machine_path():
    text = GUNS_FILE.read_text(encoding="utf-8")
    assert not re.search(r"/(work|home|tmp)/", text)
    for g in EVERY:
        for name in ("muzzle_velocity_mps", "rate_of_fire_rounds_per_min", "max_elevation_deg", "max_range_yd",
                     "outfit_rounds_per_gun"):
            assert len(g.sources.get(name, "")) > 10, (g.label, name)
        assert all(len(s.source) > 10 for s in g.shells), g.label


# ------------------------------------------------------------------------------------------------ refusals


def _raw():
    return copy.deepcopy(load_yaml(GUNS_FILE.read_text(encoding="utf-8")))


def test_a_bad_file_is_refused_with_every_fault_named():
    raw = _raw()
    goeben = raw["guns"]["28 cm SK L/50"]
    del goeben["sources"]["rate_of_fire_rounds_per_min"]  # a figure without its citation
    goeben["muzzle_velocity_mps"] = 2887  # feet per second for metres
    breslau = raw["guns"]["10.5 cm SK L/45"]
    breslau["sources"]["muzzle_velocity_mps"] = "navweaps: a figure"  # null without 'unknown:'
    breslau["shells"][0]["type"] = "grapeshot"
    raw["guns"]["BL 4-inch"]["reach_derivation"] = {"method": "like", "gun": "BL 5-inch"}
    raw["guns"]["QF 3-pounder"]["sources"]["max_range_yd"] = "unknown: lost"  # a figure said unknown
    raw["guns"]["QF 12-pounder"]["range_nm"] = 5
    with pytest.raises(GunDataError) as err:
        parse_guns(raw, GUNS_FILE)
    msg = str(err.value)
    assert msg.startswith(str(GUNS_FILE)) and "7 fault(s)" in msg
    for fault in ("gun '28 cm SK L/50' field rate_of_fire_rounds_per_min: no citation",
                  "gun '28 cm SK L/50' field muzzle_velocity_mps: 2887 is outside",
                  "gun '10.5 cm SK L/45' field muzzle_velocity_mps: null, so its citation must start",
                  "gun '10.5 cm SK L/45' field shells[0].type: 'grapeshot' is not one of",
                  "gun 'BL 4-inch' field reach_derivation: no gun 'BL 5-inch'",
                  "gun 'QF 3-pounder' field max_range_yd: a figure is given but its citation says",
                  "gun 'QF 12-pounder' field range_nm: not a field"):
        assert fault in msg, fault


def test_a_derived_reach_must_be_a_stand_in_and_labels_unique():
    raw = _raw()
    raw["guns"]["BL 6-inch Mk XI"]["sources"]["max_range_yd"] = "WP 'BL 6-inch Mk XI naval gun'"
    raw["guns"]["Vickers 3-pounder"]["aka"] = ["QF 3-pounder"]
    with pytest.raises(GunDataError) as err:
        parse_guns(raw, GUNS_FILE)
    assert "gun 'BL 6-inch Mk XI' field max_range_yd: a derived reach is a stand-in" in str(err.value)
    assert "gun 'Vickers 3-pounder' field aka: label 'QF 3-pounder' already used" in str(err.value)


def test_unreadable_files_are_refused(tmp_path):
    with pytest.raises(GunDataError, match="cannot read"):
        load_guns(tmp_path / "none.yaml")
    bad = tmp_path / "guns.yaml"
    bad.write_text("guns: [1, 2]\n", encoding="utf-8")
    with pytest.raises(GunDataError, match="top-level 'guns:' mapping"):
        load_guns(bad)
