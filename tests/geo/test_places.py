"""Tests of the gazetteer (campaign/geo/places.py) and its bundled data (data/places.yaml).

Numbers asserted here come from the sources cited in data/places.yaml: the coordinates (WPI-dm port
directory, ferry-port script, Wikipedia-family pages), seed 000's coaling rules and the historical
coaling rates, and the GSHHG land data.
"""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest
import shapely
import yaml
from hypothesis import given
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.geo.land import LAND_FILE, default_land, read_layer
from campaign.geo.places import (
    KINDS,
    PLACES_FILE,
    Coaling,
    Gazetteer,
    PlacesError,
    UnknownPlaceError,
    default_places,
    load_places,
    parse_point,
    place_key,
)

GAZ = default_places()
RAW = yaml.safe_load(PLACES_FILE.read_text(encoding="utf-8"))
NAMES = [p.name for p in GAZ]


# ------------------------------------------------------------------------- coordinates and names


@pytest.mark.parametrize(
    ("name", "lat", "lon"),
    [
        ("Messina", 38.1833, 15.5667),  # WPI-dm 38°11'N 15°34'E
        ("Cape Matapan", 36.385, 22.48278),  # Wikipedia 36°23'06"N 22°28'58"E
        ("Cape Malea", 36.43806, 23.19861),
        ("Denusa", 37.1, 25.81639),
        ("Valletta", 35.90, 14.5167),
        ("Pola", 44.85, 13.85),
        ("Tenedos", 39.82194, 26.02889),  # Wikipedia 39°49'19"N 26°01'44"E
        ("Cape Spartivento", 37.918056, 16.051944),  # it.wikipedia 37°55'05"N 16°03'07"E
        ("Cape San Vito", 38.18833, 12.73333),  # WAIL 38°11,3'N 12°44,0'E
        ("Cape Bon", 37.081389, 11.044167),  # lighthouse 37°04'53"N 11°02'39"E
        ("Sète", 43.4053, 3.6975),
        ("Sapienza", 36.776111, 21.695),
    ],
)
def test_reference_points_are_the_sourced_coordinates(name: str, lat: float, lon: float) -> None:
    place = GAZ.get(name)
    assert place.lat == pytest.approx(lat, abs=1e-6)
    assert place.lon == pytest.approx(lon, abs=1e-6)


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Bone", "Bône"), ("Bône", "Bône"), ("Annaba", "Bône"), ("BONA", "Bône"), ("  bône ", "Bône"),
        ("Skikda", "Philippeville"), ("Donoussa", "Denusa"), ("Denousa", "Denusa"),
        ("Malta", "Valletta"), ("Malta (Valletta)", "Valletta"), ("Crete (Heraklion)", "Candia"),
        ("Gökçeada", "Imbros"), ("gokceada", "Imbros"), ("Bozcaada", "Tenedos"),
        ("Kumkale", "Kum Kale"), ("kum-kale", "Kum Kale"), ("Seddülbahir", "Sedd el Bahr"),
        ("Bizerta", "Bizerte"), ("Tunis (La Goulette)", "La Goulette"), ("Cette", "Sète"),
        ("Zakynthos", "Zante"), ("Kythira", "Cerigo"), ("Lefkada", "Santa Maura"), ("Pula", "Pola"),
        ("Kotor", "Cattaro"), ("Istanbul", "Constantinople"), ("Capo Passero", "Cape Passero"),
        ("Dardanelles (strait reference point)", "Dardanelles"), ("off Pantellaria", "Off Pantelleria"),
    ],
)
def test_lookup_resolves_other_names_ignoring_case_and_accents(alias: str, name: str) -> None:
    assert GAZ.get(alias).name == name
    assert alias in GAZ


def test_every_name_and_aka_resolves_to_its_place() -> None:
    for place in GAZ:
        for name in place.names:
            assert GAZ.get(name) is place


# Place names of the historical orders and events (the ports, destinations and ordered areas the sources
# name for 2-12 August 1914): orders copied from the sources resolve.
TIMELINE_PLACES = [
    "Algiers", "Andros", "Bizerte", "Bône", "Brindisi", "Cape Malea", "Cape Matapan", "Crete (Heraklion)",
    "Dardanelles (strait reference point)", "Denusa", "Malta (Valletta)", "Messina", "Milos", "Pantelleria",
    "Philippeville", "Piraeus", "Pola", "Port Said", "Toulon", "Trieste", "Vasilico Bay", "Zante",
]


@pytest.mark.parametrize("name", TIMELINE_PLACES)
def test_historical_timeline_places_resolve(name: str) -> None:
    assert name in GAZ


def test_unknown_name_raises_keyerror_with_close_matches() -> None:
    with pytest.raises(KeyError) as info:
        GAZ.get("Messna")
    assert isinstance(info.value, UnknownPlaceError)
    assert "Messina" in str(info.value)
    with pytest.raises(UnknownPlaceError, match="Bône"):
        GAZ.get("Bonne")
    with pytest.raises(UnknownPlaceError, match="no close match"):
        GAZ.get("Qwertyuiop")
    assert "Atlantis" not in GAZ
    assert 42 not in GAZ


def test_place_key() -> None:
    assert place_key("  Bône ") == place_key("BONE") == "bone"
    assert place_key("Malta (Valletta)") == "malta valletta"
    assert place_key("Gökçeada") == "gokceada"


@given(st.sampled_from(NAMES), st.lists(st.booleans(), min_size=1, max_size=40))
def test_lookup_ignores_case_property(name: str, upper: list[bool]) -> None:
    mangled = "".join(c.upper() if upper[i % len(upper)] else c.lower() for i, c in enumerate(name))
    assert GAZ.get(mangled).name == name


# ------------------------------------------------------------------------- kinds, nations, sources


def test_kinds_and_container_protocol() -> None:
    assert len(GAZ) == len(RAW["places"]) == len(list(GAZ))
    assert [p.name for p in GAZ] == [p["name"] for p in RAW["places"]]
    assert {p.kind for p in GAZ} <= set(KINDS)
    assert all(p.kind in ("port", "naval_base") for p in GAZ.ports())
    port_names = {p.name for p in GAZ.ports()}
    assert {"Messina", "Valletta", "Pola", "Toulon", "Bizerte", "Constantinople"} <= port_names
    bases = {p.name for p in GAZ.by_kind("naval_base")}
    assert {"Pola", "Valletta", "Toulon", "Gibraltar", "Taranto"} <= bases
    for kind in KINDS:
        assert GAZ.by_kind(kind), f"no place of kind {kind}"
    with pytest.raises(ValueError, match="unknown kind"):
        GAZ.by_kind("harbour")


def test_gazetteer_and_places_are_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        GAZ.places = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        GAZ.get("Messina").lat = 0.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        GAZ._index["x"] = GAZ.get("Messina")  # type: ignore[index]
    assert default_places() is GAZ


def test_every_place_has_a_source_and_computed_ones_say_how() -> None:
    for place in GAZ:
        assert place.source.strip(), place.name
        if place.anchorage_source is not None:
            assert place.anchorage_source.startswith(("computed:", "chosen:")), place.name
    computed = {p.name for p in GAZ if p.source.startswith("computed:")}
    assert computed == {"Off Pantelleria", "Denusa anchorage", "Dardanelles entrance"}


def test_nation_is_the_1914_sovereign_of_the_nearest_land() -> None:
    """Each place's nation is the sovereign of the nearest polygon of the sovereignty_1914 layer."""
    geoms, cols = read_layer(LAND_FILE, "sovereignty_1914")
    sovereigns = list(cols["sovereign"])
    for place in GAZ:
        if place.nation is None:
            assert place.kind in ("sea_point", "strait"), place.name
            continue
        pt = shapely.Point(place.lon, place.lat)
        dists = [g.distance(pt) for g in geoms]
        nearest = min(range(len(geoms)), key=dists.__getitem__)
        assert dists[nearest] < 0.1, place.name  # degrees: every named place is at the coast
        assert sovereigns[nearest] == place.nation, place.name


# ------------------------------------------------------------------------- anchorages


def test_every_anchorage_is_at_sea_clear_of_land_and_near_its_place() -> None:
    land = default_land()
    for place in GAZ:
        lat, lon = place.anchorage
        assert not land.is_land(lat, lon), place.name
        assert land.distance_to_land_nm(lat, lon) >= 0.2, place.name
        assert earth.distance_nm(place.lat, place.lon, lat, lon) <= 5.0, place.name


def test_every_port_has_an_anchorage_at_sea() -> None:
    land = default_land()
    for port in GAZ.ports():
        assert not land.is_land(*port.anchorage), port.name
        assert land.distance_to_land_nm(*port.anchorage) >= 0.2, port.name


def test_anchorages_hold_the_stated_computation() -> None:
    """Where the reference point is on land or within 0.2 nm of the shore, the anchorage is the nearest
    water at least 0.3 nm from the shore; elsewhere the reference point is its own anchorage."""
    land = default_land()
    for place in GAZ:
        lat, lon = place.lat, place.lon
        near = bool(land.is_land(lat, lon)) or land.distance_to_land_nm(lat, lon) < 0.2
        if not near:
            assert place.anchorage_source is None and place.anchorage == (place.lat, place.lon), place.name
            continue
        assert place.anchorage_source is not None, place.name
        if place.anchorage_source.startswith("chosen:"):
            continue  # placed by hand for the reason it states (the computed water is cut off)
        want = land.nearest_sea_point(place.lat, place.lon, 0.3)
        assert place.anchorage_lat == pytest.approx(want[0], abs=2e-5), place.name
        assert place.anchorage_lon == pytest.approx(want[1], abs=2e-5), place.name


def test_computed_sea_points_follow_their_derivation() -> None:
    land = default_land()
    pan, den = GAZ.get("Pantelleria"), GAZ.get("Denusa")
    off = GAZ.get("Off Pantelleria")
    assert (off.lat, off.lon) == pytest.approx(land.nearest_sea_point(pan.lat, pan.lon, 6.0), abs=2e-5)
    assert land.distance_to_land_nm(off.lat, off.lon) >= 6.0 * 0.999  # Italy's 6-mile limit
    anch = GAZ.get("Denusa anchorage")
    assert (anch.lat, anch.lon) == pytest.approx(land.nearest_sea_point(den.lat, den.lon, 0.3), abs=2e-5)
    helles, kum = GAZ.get("Cape Helles"), GAZ.get("Kum Kale")
    entrance = GAZ.get("Dardanelles entrance")
    d1 = earth.distance_nm(helles.lat, helles.lon, entrance.lat, entrance.lon)
    d2 = earth.distance_nm(kum.lat, kum.lon, entrance.lat, entrance.lon)
    assert d1 == pytest.approx(d2, abs=0.01)
    assert d1 + d2 == pytest.approx(earth.distance_nm(helles.lat, helles.lon, kum.lat, kum.lon), abs=0.01)


# ------------------------------------------------------------------------- coaling


def _derived_rate(basis: str, nation: str) -> float:
    """The t/h that a basis string of data/places.yaml stands for (see its coaling_basis)."""
    cb = RAW["coaling_basis"]
    kind, _, rest = basis.partition(":")
    key, _, of = rest.partition(" of ")
    if kind == "historical":
        return float(cb["historical"][key]["t_per_h"])
    assert kind == "game", basis
    navy = cb["units"][(of.split(" (")[0] if of else nation)]
    units = cb["game_rates"][key]["units_per_turn"]
    return units * navy["bunker_t"] / navy["max_units"] / cb["turn_h"]


def test_every_port_has_coaling_with_a_source() -> None:
    for port in GAZ.ports():
        assert port.coaling is not None, port.name
        assert port.coaling.source.strip(), port.name
        assert port.coaling.default_t_per_h >= 0


def test_coaling_rates_match_their_stated_derivation() -> None:
    checked = 0
    for place in GAZ:
        if place.coaling is None:
            continue
        basis = dict(place.coaling.basis)
        for nation, rate in place.coaling.rates_t_per_h.items():
            assert nation in basis, f"{place.name}: no basis for {nation}"
            assert rate == pytest.approx(_derived_rate(basis[nation], nation), abs=0.01), (place.name, nation)
            checked += 1
    assert checked > 50


def test_historical_coaling_figures() -> None:
    hist = RAW["coaling_basis"]["historical"]
    goeben = hist["goeben_messina_1914"]
    assert goeben["t_per_h"] == pytest.approx(goeben["coal_t"] / goeben["hours"], abs=0.05)
    assert goeben["t_per_h"] == pytest.approx(1500 / 23, abs=0.05)  # 13:00 5 Aug to 12:00 6 Aug
    assert hist["new_zealand_1913"]["t_per_h"] == 4 * 60  # 'nearly four tons per minute'


@pytest.mark.parametrize(
    ("port", "nation", "rate"),
    [
        ("Messina", "Germany", 1500 / 23),  # Goeben, 5-6 Aug 1914
        ("Messina", "Italy", 6 * 3000 / 26 / 6),  # game friendly port, Dante Alighieri's bunkers
        ("Palermo", "Germany", 2 * 3100 / 36 / 6),  # game: merchantmen in Italian ports, Goeben's bunkers
        ("Pola", "Germany", 6 * 3100 / 36 / 6),  # game: friendly port
        ("Pola", "Austria-Hungary", 6 * 2000 / 26 / 6),
        ("Valletta", "United Kingdom", 240.0),  # HMS New Zealand 1913
        ("Valletta", "France", 6 * 2743 / 26 / 6),  # game: 'including French in Malta'
        ("Toulon", "France", 6 * 2743 / 26 / 6),
        ("Bizerte", "United Kingdom", 6 * 3083 / 30 / 6),  # Indomitable's bunkers
        ("Denusa anchorage", "Germany", 5 * 3100 / 36 / 6),  # game: from collier
    ],
)
def test_coaling_rate_by_receiving_nation(port: str, nation: str, rate: float) -> None:
    coaling = GAZ.get(port).coaling
    assert coaling is not None
    assert coaling.rate_t_per_h(nation) == pytest.approx(rate, abs=0.01)
    assert coaling.rate_t_per_h(nation.upper()) == pytest.approx(rate, abs=0.01)


def test_unlisted_nation_gets_the_default_rate() -> None:
    messina = GAZ.get("Messina").coaling
    assert messina is not None
    assert messina.rate_t_per_h("Spain") == messina.default_t_per_h == pytest.approx(115.38, abs=0.01)
    flat = Coaling("commercial", (), 50.0, "test")
    assert flat.rate_t_per_h("Germany") == 50.0


def test_seed_game_constants() -> None:
    """Seed 000 'Coaling Index': MAX boxes and refuelling units per 6-hour turn."""
    cb = RAW["coaling_basis"]
    assert cb["turn_h"] == 6
    assert {n: u["max_units"] for n, u in cb["units"].items()} == {
        "Germany": 36, "United Kingdom": 30, "France": 26, "Italy": 26, "Austria-Hungary": 26,
    }
    assert {k: v["units_per_turn"] for k, v in cb["game_rates"].items()} == {
        "friendly_port": 6, "british_at_malta": 10, "collier": 5, "merchantmen_in_italian_port": 2,
    }


# ------------------------------------------------------------------------- cables


def test_cables_join_cable_stations() -> None:
    stations = {p.name for p in GAZ.by_kind("cable_station")}
    assert {"Valletta cable station", "Gibraltar cable station"} <= stations
    joined = set()
    for cable in GAZ.cables:
        assert GAZ.get(cable.a).kind == GAZ.get(cable.b).kind == "cable_station"
        assert cable.source.strip()
        joined |= {cable.a, cable.b}
    assert joined == stations


# ------------------------------------------------------------------------- parse_point


def test_parse_point_names_give_the_anchorage() -> None:
    messina = GAZ.get("Messina")
    assert parse_point("Messina", GAZ) == (messina.anchorage_lat, messina.anchorage_lon, "Messina")
    assert parse_point("annaba", GAZ)[2] == "Bône"
    off = GAZ.get("Off Pantelleria")  # a sea point is its own anchorage
    assert parse_point("off pantellaria", GAZ) == (off.lat, off.lon, "Off Pantelleria")


@pytest.mark.parametrize(
    ("text", "want"),
    [("37.5,16.2", (37.5, 16.2)), (" 37.5 , 16.2 ", (37.5, 16.2)), ("36.1,-5.35", (36.1, -5.35)),
     ("-10,170", (-10.0, 170.0)), ("40,26", (40.0, 26.0))],
)
def test_parse_point_coordinates(text: str, want: tuple[float, float]) -> None:
    assert parse_point(text, GAZ) == (*want, None)


@pytest.mark.parametrize(
    ("text", "match"),
    [("95,10", "latitude"), ("37.5,190", "longitude"), ("37.5;16.2", "lat,lon"), ("37.5 16.2", "lat,lon"),
     ("", "empty"), ("Atlantis", "unknown place"), ("Messna", "Messina")],
)
def test_parse_point_errors(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        parse_point(text, GAZ)


@given(st.floats(-90, 90), st.floats(-180, 180))
def test_parse_point_roundtrip_property(lat: float, lon: float) -> None:
    assert parse_point(f"{lat!r},{lon!r}", GAZ) == (lat, lon, None)


# ------------------------------------------------------------------------- bad files


ENTRY = """\
  - name: {name}
    aka: {aka}
    kind: {kind}
    nation: {nation}
    lat: {lat}
    lon: 15.0
    source: "test"
"""


def _write(tmp_path: Path, *entries: dict[str, object], tail: str = "") -> Path:
    body = "places:\n"
    for e in entries:
        fields = {"name": "Alpha", "aka": "[]", "kind": "port", "nation": "Italy", "lat": 38.0, **e}
        body += ENTRY.format(**fields)
    path = tmp_path / "places.yaml"
    path.write_text(body + tail, encoding="utf-8")
    return path


def test_minimal_file_loads(tmp_path: Path) -> None:
    gaz = load_places(_write(tmp_path, {"name": "Alpha"}, {"name": "Beta", "aka": "[Gamma]"}))
    assert isinstance(gaz, Gazetteer) and len(gaz) == 2
    assert gaz.get("gamma").name == "Beta"
    assert gaz.get("Alpha").anchorage == (38.0, 15.0) and gaz.get("Alpha").coaling is None


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        (({"name": "Alpha"}, {"name": "Alpha"}), ["places.yaml", "'Alpha'", "'name'", "duplicate name"]),
        (({"name": "Alpha"}, {"name": "Beta", "aka": "[alpha]"}),
         ["'Beta'", "'aka'", "already a name of 'Alpha'"]),
        (({"name": "Alpha", "lat": 95.0},), ["'Alpha'", "'lat'", "less than or equal to 90"]),
        (({"name": "Alpha", "kind": "harbour"},), ["'Alpha'", "'kind'", "naval_base"]),
        (({"name": "Alpha", "nation": "Itly"},), ["'Alpha'", "'nation'", "1914 sovereign", "'Italy'"]),
    ],
)
def test_bad_data_names_file_place_and_field(
    tmp_path: Path, entries: tuple[dict[str, object], ...], words: list[str]
) -> None:
    path = _write(tmp_path, *entries)
    with pytest.raises(PlacesError) as info:
        load_places(path)
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message, message


def test_bad_coaling_and_cables(tmp_path: Path) -> None:
    entry = ENTRY.format(name="Alpha", aka="[]", kind="port", nation="Italy", lat=38.0)
    no_default = entry + "    coaling: {facility: commercial, rate_t_per_h: {Italy: 10}, source: s}\n"
    path = tmp_path / "a.yaml"
    path.write_text("places:\n" + no_default, encoding="utf-8")
    with pytest.raises(PlacesError, match=r"'Alpha'.*'coaling.rate_t_per_h'.*default"):
        load_places(path)
    bad_facility = entry + "    coaling: {facility: depot, rate_t_per_h: 10, source: s}\n"
    path.write_text("places:\n" + bad_facility, encoding="utf-8")
    with pytest.raises(PlacesError, match=r"coaling.facility"):
        load_places(path)
    bad_nation = entry + (
        "    coaling: {facility: commercial, rate_t_per_h: {Prussia: 1, default: 2}, source: s}\n"
    )
    path.write_text("places:\n" + bad_nation, encoding="utf-8")
    with pytest.raises(PlacesError, match=r"receiving nation 'Prussia'"):
        load_places(path)
    cable = "cables:\n  - {a: Alpha, b: Nowhere, laid: '1870', source: s}\n"
    path.write_text("places:\n" + entry + cable, encoding="utf-8")
    with pytest.raises(PlacesError, match="not a cable station"):
        load_places(path)


def test_bad_yaml_and_missing_fields(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("places: [\n  - name: x\n", encoding="utf-8")
    with pytest.raises(PlacesError, match="not valid YAML"):
        load_places(path)
    path.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(PlacesError, match="'places'"):
        load_places(path)
    path.write_text(textwrap.dedent("""\
        places:
          - name: Alpha
            kind: port
            lat: 38.0
            lon: 15.0
            source: s
        """), encoding="utf-8")
    with pytest.raises(PlacesError, match=r"'Alpha'.*'nation'.*required"):
        load_places(path)
    path.write_text("places:\n  - name: Alpha\n    kind: port\n    nation: Italy\n    lat: 38\n    lon: 15\n"
                    "    source: s\n    colour: red\n", encoding="utf-8")
    with pytest.raises(PlacesError, match=r"'colour'"):
        load_places(path)
