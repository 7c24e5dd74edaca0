"""The score and the measures, from synthetic records (campaign/output/scoring.py).

Chart values come from data/scoring.yaml (stand-ins, read here from the file so the test follows it); the
advanced game's points are the seed's own and are written out here: "Sink BB - 10 pts, Sink B - 6 pts,
Sink CA - 2 pts ... Shell an Italian, Austrian (Pola) or French (Toulon) port, if it is your enemy, 10
points each time, each ship, each turn" (seed 000, 'Advanced Game Victory Conditions').
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from campaign.clock import Clock, parse_utc
from campaign.model.ships import find_ship
from campaign.model.victory_rules import default_scoring
from campaign.output.scoring import facts_of, measures, score

CLOCK = Clock(parse_utc("1914-08-02T09:00Z"))
END_MIN = CLOCK.t_min("1914-08-13T00:00Z")
META = {"name": "t", "start": "1914-08-02T09:00:00Z", "end": "1914-08-13T00:00:00Z", "scoring": "seed000"}
DEADLINE_MIN = CLOCK.t_min("1914-08-07T15:00Z")
CP, EN = "Central Powers", "Entente"
RULES = default_scoring().rules["seed000"]


def rec(t_min: float, type_: str, unit: str | None = None, side: str | None = None, **data: Any) -> dict[str, Any]:
    out = {"t": CLOCK.iso(t_min), "t_min": t_min, "type": type_}
    if unit is not None:
        out["unit"] = unit
    if side is not None:
        out["side"] = side
    out.update(data)
    return out


def start(name: str, side: str, **kw: Any) -> dict[str, Any]:
    return rec(0.0, "start", name, side, force=kw.pop("force", name), status="waiting", lat=36.0, lon=16.0, **kw)


def end(name: str, side: str, status: str = "waiting", place: str | None = None, lat: float = 36.0,
        lon: float = 16.0, coal_t: float = 500.0) -> dict[str, Any]:
    return rec(END_MIN, "end", name, side, force=name, status=status, place=place, lat=lat, lon=lon, coal_t=coal_t)


def draws(german: int, british: int) -> list[dict[str, Any]]:
    return [rec(1800.0, "victory_conditions", None, CP, player="German", chart="GVC", draw=german, secret=True),
            rec(2520.0, "victory_conditions", None, EN, player="British", chart="BVC", draw=british, secret=True)]


def points_of(chart: str, row: str, column: int) -> int:
    return next(r.points for r in RULES.charts[chart].rows if r.name == row)[column - 1]


def row(result: dict[str, Any], side: str, name: str) -> dict[str, Any]:
    s = result["sides"][side]
    return next(r for r in s["rows"] + s["additional"] if r["row"] == name)


def escaped_germans() -> list[dict[str, Any]]:
    """Goeben and Breslau into the Dardanelles, the British at sea: the historical outcome."""
    return [start("Goeben", CP), start("Breslau", CP), start("Gloucester", EN),
            rec(11469.0, "arrive", "Goeben", CP, force="Goeben", to="Chanak narrows", place="Chanak narrows",
                lat=40.1475, lon=26.3797, coal_t=2901.0, status="waiting"),
            rec(11469.0, "arrive", "Breslau", CP, force="Breslau", to="Chanak narrows", place="Chanak narrows",
                lat=40.1475, lon=26.3797, coal_t=1121.0, status="waiting"),
            end("Goeben", CP, place="Chanak narrows", lat=40.1475, lon=26.3797),
            end("Breslau", CP, place="Chanak narrows", lat=40.1475, lon=26.3797),
            end("Gloucester", EN)]


@pytest.mark.parametrize("column", range(1, 7))
def test_each_draw_picks_its_column_of_points(column):
    result = score(escaped_germans() + draws(column, column), META)
    r = row(result, CP, "Enter the Dardanelles")
    assert r["count"] == 2
    assert r["points_each"] == points_of("GVC", "Enter the Dardanelles", column)
    assert r["points"] == 2 * points_of("GVC", "Enter the Dardanelles", column)
    assert result["sides"][CP]["draw"] == column
    assert result["sides"][CP]["column"] == RULES.charts["GVC"].columns[column]
    assert row(result, EN, "Goeben kept out of the Dardanelles")["count"] == 0
    assert result["sides"][CP]["total"] == sum(x["points"] for x in result["sides"][CP]["rows"]
                                               + result["sides"][CP]["additional"])


def test_every_chart_has_six_columns_of_stand_ins():
    for chart in RULES.charts.values():
        assert sorted(chart.columns) == [1, 2, 3, 4, 5, 6]
        assert chart.stand_in and chart.stand_in.startswith("stand-in")
    gvc = [r.name for r in RULES.charts["GVC"].rows]
    # the row names that survive in our copy of the seed
    for name in ("Sink British BC", "Sink British CA", "Sink British LC", "Exit the Goeben off west edge to Atlantic"):
        assert name in gvc


def test_british_ships_sunk_score_their_rows_for_the_germans():
    events = [start("Goeben", CP), start("Indomitable", EN, force="Battle Cruisers"),
              start("Defence", EN, force="1st Cruiser Squadron"), start("Warrior", EN, force="1st Cruiser Squadron"),
              start("Gloucester", EN),
              rec(5000.0, "sunk", "Indomitable", EN, by="Goeben", battle=1),
              rec(6000.0, "sunk", "Defence", EN, by="Goeben", battle=2),
              rec(6001.0, "sunk", "Warrior", EN, by="Goeben", battle=2),
              rec(6001.0, "sunk", "Warrior", EN, by="Goeben", battle=2),  # a second record of one sinking
              rec(7000.0, "sunk", "Gloucester", EN, by="Goeben", battle=3),
              end("Goeben", CP, place="Pola", status="in_port")] + draws(3, 1)
    result = score(events, META)
    assert row(result, CP, "Sink British BC")["count"] == 1
    assert row(result, CP, "Sink British BC")["points"] == points_of("GVC", "Sink British BC", 3)
    assert row(result, CP, "Sink British CA")["count"] == 2
    assert row(result, CP, "Sink British LC")["count"] == 1
    # British ships are not the advanced game's French, Austrian or Italian ships
    assert all(r["count"] == 0 for r in result["sides"][CP]["additional"])


def test_advanced_game_points_for_french_austrian_and_italian_ships():
    events = [start("Goeben", CP), start("Courbet", EN), start("Danton", EN), start("Edgar Quinet", EN),
              start("Viribus Unitis", CP, force="Austro-Hungarian Fleet"), start("Indomitable", EN),
              rec(5000.0, "sunk", "Courbet", EN, by="Goeben", battle=1),
              rec(5001.0, "sunk", "Danton", EN, by="Goeben", battle=1),
              rec(5002.0, "sunk", "Edgar Quinet", EN, by="Goeben", battle=1),
              rec(6000.0, "sunk", "Viribus Unitis", CP, by="Indomitable", battle=2)] + draws(1, 1)
    result = score(events, META)
    german = {r["row"]: r["points"] for r in result["sides"][CP]["additional"]}
    british = {r["row"]: r["points"] for r in result["sides"][EN]["additional"]}
    assert german["Sink a French, Austrian or Italian dreadnought (BB)"] == 10   # Courbet
    assert german["Sink a French, Austrian or Italian older battleship (B)"] == 6  # Danton
    assert german["Sink a French, Austrian or Italian armoured cruiser (CA)"] == 2  # Edgar Quinet
    assert british["Sink a French, Austrian or Italian dreadnought (BB)"] == 10  # Viribus Unitis
    assert british["Sink a French, Austrian or Italian older battleship (B)"] == 0


def test_german_ships_at_large_at_the_end_are_considered_sunk():
    events = [start("Goeben", CP), start("Breslau", CP), start("Bogadir", CP), start("Gloucester", EN),
              end("Goeben", CP, lat=37.0, lon=18.0),                          # at sea in the Ionian
              end("Breslau", CP, status="interned", place="Messina"),        # interned: not a friendly port
              end("Bogadir", CP, status="in_port", place="Pola"),            # home: Pola, for the Germans
              end("Gloucester", EN, lat=37.0, lon=18.0)] + draws(1, 1)      # Allied ships at sea are not sunk
    result = score(events, META)
    goeben = row(result, EN, "Sink Goeben")
    assert goeben["count"] == 1 and goeben["what"][0]["how"] == "considered sunk at the end"
    assert goeben["points"] == points_of("BVC", "Sink Goeben", 1)
    assert row(result, EN, "Sink Breslau")["count"] == 1
    assert row(result, EN, "Sink a German collier")["count"] == 0
    assert row(result, EN, "Goeben kept out of the Dardanelles")["count"] == 1
    assert row(result, CP, "Sink British LC")["count"] == 0
    m = measures(events, META)
    assert m["ships"]["Goeben"]["escaped"] is False
    assert m["ships"]["Goeben"]["fate"] == "considered sunk at the end"  # as the score counts her
    assert [(s["ship"], s["how"]) for s in m["sunk"]["ships"]] == [
        ("Goeben", "considered sunk at the end"), ("Breslau", "considered sunk at the end")]
    assert m["sunk"]["in_the_run"] == 0 and m["sunk"]["considered_at_the_end"] == 2


def test_colliers_the_score_counts_sunk_are_the_measures_ships_sunk():
    # The 1914 board game scores "Sink a German collier" for every German ship still at large when it ends
    # (seed 000, 'Ending the Game'); the measures (and the report's "Ships sunk") must name the same ships.
    colliers = ("Bogadir", "Mudros", "Waltraute")
    events = (escaped_germans() + [start(c, CP) for c in colliers]
              + [end("Bogadir", CP, place="Denusa anchorage", lat=37.09, lon=25.82),
                 end("Mudros", CP, status="in_port", place="Messina"),      # a neutral port, not a friendly one
                 end("Waltraute", CP, lat=37.8, lon=20.6)] + draws(1, 1))
    result, m = score(events, META), measures(events, META)
    scored = row(result, EN, "Sink a German collier")
    assert scored["count"] == 3
    lost = {s["ship"]: s for s in m["sunk"]["ships"]}
    assert set(lost) == {w["ship"] for w in scored["what"]} == set(colliers)
    assert m["sunk"]["count"] == 3 and m["sunk"]["by_side"] == {CP: list(lost)}
    assert all(s["how"] == "considered sunk at the end" for s in lost.values())
    assert {s["type"] for s in lost.values()} == {"collier", "supply_ship"}  # Mudros: a supply ship (data/ships.yaml)
    assert lost["Mudros"]["place"] == "Messina"
    # Sunk in the run or considered sunk at the end, every ship a "sunk" row scores is a ship the measures lose.
    for side in result["sides"].values():
        for r in side["rows"]:
            assert all(w["ship"] in lost for w in r["what"] if "how" in w)
    # Without scoring rules nothing is "considered" sunk, in the measures as in the (absent) score.
    bare = {k: v for k, v in META.items() if k != "scoring"}
    assert measures(events, bare)["sunk"]["count"] == 0


def test_goeben_out_to_the_atlantic_has_escaped_and_scores_the_exit():
    events = [start("Goeben", CP),
              rec(9000.0, "arrive", "Goeben", CP, force="Goeben", to="off Cape Spartel", lat=35.9, lon=-6.1,
                  coal_t=800.0, status="waiting"),
              end("Goeben", CP, lat=35.9, lon=-6.1)] + draws(4, 1)
    result = score(events, META)
    assert row(result, CP, "Exit the Goeben off west edge to Atlantic")["count"] == 1
    assert row(result, CP, "Exit the Goeben off west edge to Atlantic")["points"] == points_of(
        "GVC", "Exit the Goeben off west edge to Atlantic", 4)
    assert row(result, EN, "Sink Goeben")["count"] == 0
    m = measures(events, META)["ships"]["Goeben"]
    assert m["escaped"] and m["how"] == "left the Mediterranean to the west"
    assert m["at"] == CLOCK.iso(9000.0)


def transports(arrive_min: dict[str, float]) -> list[dict[str, Any]]:
    events = []
    for name, t in arrive_min.items():
        events += [start(name, EN),
                   rec(t, "arrive", name, EN, force=name, to="Toulon", place="Toulon", lat=43.1, lon=5.9,
                       status="in_port"),
                   end(name, EN, status="in_port", place="Toulon")]
    return events


def test_divisions_count_only_when_they_reach_toulon_by_the_deadline():
    events = transports({"Transport Algiers": DEADLINE_MIN - 1, "Transport Oran": DEADLINE_MIN + 1,
                         "Transport Philippeville": DEADLINE_MIN}) + draws(1, 2)
    result = score(events, META)
    r = row(result, EN, "19th Corps division at Toulon by the deadline")
    assert r["count"] == 2  # Algiers, and Philippeville at 15:00 exactly ("by Aug. 7, 1500 at the latest")
    assert r["points"] == 2 * points_of("BVC", "19th Corps division at Toulon by the deadline", 2)
    troops = measures(events, META)["troops"]
    assert troops["corps_divisions"] == 3 and troops["transports"] == 3
    assert troops["delivered_by_deadline"] == 2 and troops["delivered_in_all"] == 3
    assert [a["by_deadline"] for a in troops["arrivals"]] == [True, False, True]


def test_a_transport_sunk_scores_for_the_germans_and_is_not_delivered():
    events = [start("Goeben", CP), start("Transport Oran", EN),
              rec(3000.0, "sunk", "Transport Oran", EN, by="Goeben", battle=1)] + draws(5, 2)
    result = score(events, META)
    assert row(result, CP, "Sink a French transport")["points"] == points_of("GVC", "Sink a French transport", 5)
    assert row(result, EN, "19th Corps division at Toulon by the deadline")["count"] == 0
    assert measures(events, META)["troops"]["transports_sunk"] == ["Transport Oran"]


def shelling(t_min: float, town: str, nation: str, ships: list[str], side: str = CP) -> list[dict[str, Any]]:
    """One shelling as the world writes it: a record for each ship, each naming every ship."""
    return [rec(t_min, "shelling", s, side, force="Mittelmeerdivision", town=town, town_nation=nation,
                ships=ships, until=CLOCK.iso(t_min + 45)) for s in ships]


def test_shelling_counts_each_ship_each_town_each_time():
    war = rec(1965.0, "politics", kind="war", nations=["Germany", "France"])
    events = ([start("Goeben", CP, force="Mittelmeerdivision"), start("Breslau", CP, force="Mittelmeerdivision"),
               war]
              + shelling(2550.0, "Philippeville", "France", ["Goeben", "Breslau"])
              + shelling(2600.0, "Bône", "France", ["Breslau"])
              + shelling(4000.0, "Philippeville", "France", ["Goeben", "Breslau"])
              + draws(2, 1))
    result = score(events, META)
    r = row(result, CP, "Shell a North African town")
    assert r["count"] == 5  # 2 + 1 + 2: each ship, each town, each time
    assert r["points"] == 5 * points_of("GVC", "Shell a North African town", 2)
    assert len(measures(events, META)["towns_shelled"]) == 3


def test_shelling_an_enemy_home_port_scores_ten_each_ship_but_not_for_cruisers_other_than_breslau():
    war = [rec(1965.0, "politics", kind="war", nations=["Germany", "France"]),
           rec(1965.0, "politics", kind="war", nations=["United Kingdom", "Austria-Hungary"])]
    events = ([start("Goeben", CP, force="Mittelmeerdivision"), start("Breslau", CP, force="Mittelmeerdivision"),
               start("Indomitable", EN, force="Squadron"), start("Dublin", EN, force="Squadron")] + war
              + shelling(3000.0, "Toulon", "France", ["Goeben", "Breslau"])
              + shelling(3100.0, "Pola", "Austria-Hungary", ["Indomitable", "Dublin"], side=EN)
              + draws(1, 1))
    result = score(events, META)
    home = "Shell an enemy home port (Pola, Toulon, an Italian port)"
    assert row(result, CP, home)["count"] == 2 and row(result, CP, home)["points"] == 20
    assert row(result, EN, home)["count"] == 1 and row(result, EN, home)["points"] == 10  # Dublin, a light cruiser
    assert row(result, CP, "Shell a North African town")["count"] == 0  # Toulon is not in North Africa


def test_a_home_port_not_at_war_scores_nothing():
    events = ([start("Goeben", CP, force="Mittelmeerdivision")]
              + shelling(3000.0, "Toulon", "France", ["Goeben"]) + draws(1, 1))
    assert row(score(events, META), CP, "Shell an enemy home port (Pola, Toulon, an Italian port)")["count"] == 0


def test_the_higher_total_wins_and_equal_totals_draw():
    result = score(escaped_germans() + draws(1, 1), META)
    assert result["winner"] == CP
    assert result["result"].startswith("Central Powers win on points")
    tied = score([start("Goeben", CP), end("Goeben", CP, status="in_port", place="Pola")] + draws(4, 1), META)
    # Goeben home in Pola: nobody scores except the British for keeping her out of the Dardanelles
    ent = tied["sides"][EN]["total"]
    assert ent == points_of("BVC", "Goeben kept out of the Dardanelles", 1)
    assert tied["winner"] == EN


def test_a_tie_is_a_draw():
    result = score([start("Gloucester", EN), end("Gloucester", EN)] + draws(2, 5), META)  # nothing scores
    assert result["sides"][CP]["total"] == result["sides"][EN]["total"] == 0
    assert result["winner"] is None and result["result"] == "a draw on points, 0 each"


def test_without_a_draw_the_score_is_undecided():
    result = score(escaped_germans() + draws(1, 1)[:1], META)
    assert result["sides"][EN]["draw"] is None and result["sides"][EN]["total"] is None
    assert result["winner"] is None and "undecided" in result["result"]


def test_no_scoring_rules_no_score_but_measures():
    meta = {k: v for k, v in META.items() if k != "scoring"}
    assert score(escaped_germans(), meta) is None
    m = measures(escaped_germans(), meta)
    assert m["ships"]["Goeben"]["escaped"] is True
    assert m["ships"]["Goeben"]["how"] == "entered the Dardanelles"
    assert m["ships"]["Goeben"]["coal_t"] == 2901.0
    assert m["ships"]["Goeben"]["coal_fraction"] == pytest.approx(2901.0 / find_ship("Goeben").coal_capacity_t, abs=1e-3)


def test_lying_off_the_entrance_is_not_entering_the_dardanelles():
    events = [start("Goeben", CP),
              rec(11000.0, "arrive", "Goeben", CP, force="Goeben", to="Dardanelles entrance",
                  place="Dardanelles entrance", lat=40.01, lon=26.21, status="waiting", coal_t=2900.0),
              end("Goeben", CP, place="Dardanelles entrance", lat=40.01, lon=26.21)]
    m = measures(events, META)["ships"]["Goeben"]
    assert m["escaped"] is False and m["fate"] == "considered sunk at the end"  # seed 000 'Ending the Game'
    bare = {k: v for k, v in META.items() if k != "scoring"}
    assert measures(events, bare)["ships"]["Goeben"]["fate"] == "at large at the end"  # no rules, no verdict


def test_a_position_inside_the_strait_is_in_the_dardanelles():
    events = [start("Goeben", CP),
              rec(11000.0, "course_change", "Goeben", CP, force="Goeben", lat=40.10, lon=26.33, status="underway"),
              end("Goeben", CP, lat=40.10, lon=26.33)]
    assert measures(events, META)["ships"]["Goeben"]["how"] == "entered the Dardanelles"


def test_measures_of_actions_hits_contacts_and_coal():
    t0 = 3000.0
    events = [start("Goeben", CP), start("Gloucester", EN), start("Bogadir", CP),
              rec(100.0, "sighting", "Gloucester", EN, force="Gloucester", observer="Gloucester", target="Goeben",
                  previous="none", level="smoke"),
              rec(110.0, "sighting", "Gloucester", EN, force="Gloucester", observer="Gloucester", target="Goeben",
                  previous="smoke", level="ships"),
              rec(120.0, "sighting", "Goeben", CP, force="Goeben", observer="Goeben", target="Gloucester",
                  previous="none", level="smoke"),
              rec(900.0, "sighting", "Gloucester", EN, force="Gloucester", observer="Gloucester", target="Goeben",
                  previous="none", level="smoke"),
              rec(t0, "engagement_start", "Goeben", CP, battle=1, engine="board"),
              rec(t0, "engagement_start", "Gloucester", EN, battle=1, engine="board"),
              rec(t0 + 5, "hit", "Gloucester", EN, battle=1, by="Goeben"),
              rec(t0 + 6, "hit", "Gloucester", EN, battle=1, by="Goeben"),
              rec(t0 + 7, "hit", "Goeben", CP, battle=1, by="Gloucester"),
              rec(t0 + 30, "engagement_end", "Goeben", CP, battle=1, reason="separated", damage=0.05, sunk=False),
              rec(t0 + 30, "engagement_end", "Gloucester", EN, battle=1, reason="separated", damage=0.3, sunk=False),
              rec(4000.0, "coal_start", "Goeben", CP, source="Messina"),
              rec(4100.0, "coal_end", "Goeben", CP, source="Messina", taken_t=1500.0),
              rec(5000.0, "coal_start", "Goeben", CP, source="Bogadir"),
              rec(5100.0, "coal_end", "Goeben", CP, source="Bogadir", taken_t=1200.0)]
    m = measures(events, META)
    g = m["ships"]["Goeben"]
    assert g["brought_to_action"] is True
    assert g["actions"][0]["against"] == ["Gloucester"] and g["actions"][0]["hits_taken"] == 1
    assert m["hits"] == {"Gloucester": 2, "Goeben": 1}
    c = m["contacts"]["Goeben"]
    assert c["contacts"] == 2 and c["sighting_records"] == 3
    assert c["first"]["t"] == CLOCK.iso(100.0) and c["last"]["t"] == CLOCK.iso(900.0)
    coal = m["coal"]["ships"]["Goeben"]
    assert coal["in_neutral_ports_t"] == 1500.0  # Messina: Italy, neutral (no war with Germany on record)
    assert coal["from_colliers_t"] == 1200.0
    assert [x["start"] for x in coal["coalings"]] == [CLOCK.iso(4000.0), CLOCK.iso(5000.0)]


def test_facts_read_once_give_the_score_and_measures_read_each_for_itself():
    """A summary and a batch read the records once for both (``facts_of``): the same score and measures."""
    events = escaped_germans() + draws(3, 4) + [
        rec(3000.0, "shelling", "Goeben", CP, force="Goeben", town="Bône", town_nation="France", ships=["Goeben"])]
    facts = facts_of(events)
    assert score(events, META, facts=facts) == score(events, META)
    assert measures(events, META, facts=facts) == measures(events, META)
    assert score(events, META, facts=facts)["sides"][CP]["total"] is not None


def test_the_deadline_and_draw_times_are_the_seeds():
    d = default_scoring().definitions
    assert d.transports.deadline == parse_utc("1914-08-07T15:00Z")
    assert d.transports.corps_divisions == 3 and sum(d.transports.divisions.values()) == 3
    assert {x.chart: x.at for x in RULES.draws} == {"GVC": parse_utc("1914-08-03T15:00Z"),
                                                    "BVC": parse_utc("1914-08-04T03:00Z")}
    assert all(x.faces == 6 for x in RULES.draws)
    assert RULES.additional.sink.points_by_type == {"dreadnought": 10, "battleship": 6, "armoured_cruiser": 2}
    assert RULES.additional.shell_home_port.points == 10
    assert RULES.additional.shell_home_port.except_ships == ("Breslau",)
    assert parse_utc("1914-08-07T15:00Z") - CLOCK.start_utc == timedelta(minutes=DEADLINE_MIN)


def test_the_definitions_name_real_places():
    from campaign.geo.places import default_places
    from campaign.geo.regions import restricted_waters

    places = default_places()
    d = default_scoring().definitions
    for name in (*d.dardanelles.places, *d.north_african_coast.towns, d.transports.destination,
                 *[p for n in ("Germany", "United Kingdom", "France") for p in d.ports_friendly_to(n)]):
        assert name in places, name
    assert d.dardanelles.restricted_water in {rw.name for rw in restricted_waters()}
    for town in d.north_african_coast.towns:
        assert places.get(town).nation == "France"
    for name in d.transports.divisions:
        assert find_ship(name).type == d.transports.ship_type


def test_the_ships_that_ran_out_of_coal_each_once_by_side():
    events = [start("Moltke", CP), start("Goeben", CP), start("Gloucester", EN),
              rec(7000.0, "out_of_coal", "Moltke", CP, force="Moltke", lat=36.44, lon=22.01, coal_t=0.0),
              rec(7400.0, "out_of_coal", "Moltke", CP, force="Moltke", lat=36.44, lon=22.01, coal_t=0.0),
              rec(8000.0, "out_of_coal", "Gloucester", EN, force="Gloucester", lat=37.0, lon=20.0, coal_t=0.0),
              end("Moltke", CP), end("Goeben", CP), end("Gloucester", EN)]
    dry = measures(events, META)["out_of_coal"]
    assert dry["count"] == 2 and dry["by_side"] == {CP: ["Moltke"], EN: ["Gloucester"]}
    assert [(s["ship"], s["t"], s["nation"]) for s in dry["ships"]] == [
        ("Moltke", CLOCK.iso(7000.0), "Germany"), ("Gloucester", CLOCK.iso(8000.0), "United Kingdom")]
    assert measures(escaped_germans(), META)["out_of_coal"] == {"count": 0, "by_side": {}, "ships": []}
