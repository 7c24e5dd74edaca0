"""The historical run of goeben_1914: its history, its invariants, its determinism."""

from __future__ import annotations

import json

import numpy as np
import pytest
import shapely

from campaign.geo.land import default_land
from campaign.geo.routing import load_passages
from campaign.model.ships import default_ships
from campaign.paths import SCENARIO_DIR
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from campaign.world.units import STATUSES
from tests.world.helpers import one, records

SCENARIO = SCENARIO_DIR / "goeben_1914.yaml"
SHIPS = default_ships()


@pytest.fixture(scope="module")
def result():
    return run(load_scenario(SCENARIO))


def test_goeben_reaches_the_dardanelles_on_10_august(result) -> None:
    arrival = next(e for e in records(result, "Goeben", "arrive") if e["to"] == "Dardanelles entrance")
    assert arrival["t"].startswith("1914-08-10")
    # Historically she arrived off the entrance in the afternoon (~17:00 local, Massie ch.10).
    assert 12 <= int(arrival["t"][11:13]) <= 18


def test_goebens_coal_is_what_she_took_at_messina_and_denusa_less_what_she_burnt(result) -> None:
    goeben = SHIPS["Goeben"]
    takes = records(result, "Goeben", "coal_end")
    by_source = [(e["source"], e["taken_t"]) for e in takes]
    # Messina on 2 Aug (173 t, van der Vat) and 5-6 Aug (~1,500 t, Massie; Tuchman), then the collier.
    assert by_source[0] == ("Messina", pytest.approx(173.0, abs=0.01))
    assert by_source[1] == ("Messina", pytest.approx(1500.0, abs=0.01))
    assert by_source[2][0] == "Bogadir" and by_source[2][1] > 500.0
    end = one(result, "Goeben", "end")
    start = one(result, "Goeben", "start")
    assert end["coal_t"] == pytest.approx(start["coal_t"] + end["taken_t"] - end["burnt_t"], abs=0.05)
    # From Denusa to the entrance at 18 kn: the burn is the curve's.
    dep = next(e for e in records(result, "Goeben", "depart") if e["to"] == "Dardanelles entrance")
    arr = next(e for e in records(result, "Goeben", "arrive") if e["to"] == "Dardanelles entrance")
    hours = (arr["t_min"] - dep["t_min"]) / 60.0
    assert dep["coal_t"] - arr["coal_t"] == pytest.approx(goeben.consumption.t_per_h(18.0) * hours, abs=0.05)
    assert not records(result, "Goeben", "out_of_coal")


def test_the_historical_movements_happen(result) -> None:
    arrivals = [(e["t"][:10], e["to"]) for e in records(result, "Goeben", "arrive")]
    assert ("1914-08-02", "Messina") in arrivals
    assert ("1914-08-04", "Philippeville") in arrivals
    assert ("1914-08-05", "Messina") in arrivals
    assert ("1914-08-09", "Denusa anchorage") in arrivals
    assert any(to == "Bône" for _, to in [(e["t"], e["to"]) for e in records(result, "Breslau", "arrive")])
    # Italy let Goeben stay at Messina until 24 hours after its notice of 17:00 on 5 Aug.
    assert one(result, "Goeben", "neutral_limit")["t"] == "1914-08-06T16:00:00Z"
    # The collier came from Piraeus by Cape Malea.
    assert [e["to"] for e in records(result, "Bogadir", "arrive")] == ["Cape Malea", "Denusa anchorage"]


def test_no_order_fails_and_no_ship_runs_dry(result) -> None:
    assert not records(result, type_="order_failed")
    assert not records(result, type_="out_of_coal")
    assert not records(result, type_="interned")


def test_british_ships_keep_out_of_italian_waters(result) -> None:
    import shapely

    from campaign.geo.regions import territorial_belt

    belt = territorial_belt("Italy", 6.0).geometry
    for e in records(result, type_="depart"):
        if e["side"] == "Entente" and e["force"] in ("Inflexible", "Battle Cruisers", "Gloucester", "Dublin"):
            line = shapely.LineString([(lon, lat) for lat, lon in e["route"]])
            assert not line.intersects(belt), f"{e['unit']} at {e['t']}"


def test_tracks_are_at_sea_and_coal_within_bunkers(result) -> None:
    tracks = result.tracks
    land = default_land()
    lat, lon = tracks["lat"].values, tracks["lon"].values
    assert np.isfinite(lat).all()
    on_land = land.is_land(lat.ravel(), lon.ravel())
    # The only land a ship may cross is a canal's cut (the steamer General fits the Corinth Canal).
    canals = shapely.union_all([shapely.LineString(list(zip(p.lons, p.lats))).buffer(0.01)
                                for p in load_passages()])
    in_canal = shapely.intersects_xy(canals, lon.ravel(), lat.ravel())
    assert not (on_land & ~in_canal).any()
    coal = tracks["coal_t"].values
    cap = np.array([SHIPS[u].coal_capacity_t for u in tracks["unit"].values])
    assert (coal >= 0).all() and (coal <= cap[None, :] + 1e-3).all()
    assert set(np.unique(tracks["status"].values)) <= set(range(len(STATUSES)))


def test_tracks_agree_with_the_records(result) -> None:
    tracks = result.tracks
    for e in records(result, "Goeben", "arrive"):
        t = np.datetime64(e["t"].rstrip("Z"))
        k = int(np.searchsorted(tracks["time"].values, t))
        if k < tracks.sizes["time"] and tracks["time"].values[k] == t:
            row = tracks.sel(unit="Goeben").isel(time=k)
            assert float(row["lat"]) == pytest.approx(e["lat"], abs=1e-4)
            assert float(row["coal_t"]) == pytest.approx(e["coal_t"], abs=0.01)


def test_same_seed_same_records(result) -> None:
    again = run(load_scenario(SCENARIO), seed=result.seed)
    lines = [json.dumps(e, sort_keys=True) for e in result.events]
    assert lines == [json.dumps(e, sort_keys=True) for e in again.events]
    assert len(lines) > 300


def test_the_run_writes_nothing_unless_asked(tmp_path, monkeypatch, result) -> None:
    monkeypatch.chdir(tmp_path)
    run(load_scenario(SCENARIO))
    assert list(tmp_path.iterdir()) == []
