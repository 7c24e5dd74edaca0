"""Signals: cable delays by the 1905 rule with handling and queues, wireless ranges by day and night,
relays, interception (sea and area only), jamming, holding, determinism; the data; the seas and areas."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest
import simpy
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.clock import Clock
from campaign.geo.earth import M_PER_NM, distance_nm, forward
from campaign.geo.land import default_land
from campaign.geo.places import default_places, place_key
from campaign.records import Recorder
from campaign.world.sea_areas import default_sea_areas, sea_area_at
from campaign.world.signal_data import (
    TELEGRAPH_FILE,
    WIRELESS_FILE,
    SignalDataError,
    default_signal_data,
    parse_signal_data,
)
from campaign.world.signals import BOUND_MARGIN_M, Message, SignalNetwork, default_is_night

START = datetime(1914, 8, 4, 12, 0, tzinfo=UTC)
SIDES = {"United Kingdom": "Entente", "France": "Entente", "Germany": "Central Powers",
         "Austria-Hungary": "Central Powers", "Italy": "Italy"}
BASE = (36.0, 18.0)  # Ionian Sea, area B


def day(lat: float, lon: float, when: datetime) -> bool:
    return False


def night(lat: float, lon: float, when: datetime) -> bool:
    return True


def raw(path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def small_data(**wireless_rules: Any):
    """The bundled rules and sets over a small test network: Alpha -1000 nm cable- Beta -500 nm line- Gamma."""
    tel = raw(TELEGRAPH_FILE)
    tel["stations"] = [
        {"name": "Alpha", "nation": "United Kingdom", "kind": "telegraph_office", "lat": 36.0, "lon": 10.0, "source": "test"},
        {"name": "Beta", "nation": "Italy", "kind": "telegraph_office", "lat": 36.0, "lon": 20.0, "source": "test"},
        {"name": "Gamma", "nation": "United Kingdom", "kind": "telegraph_office", "lat": 36.0, "lon": 25.0, "source": "test"},
    ]
    tel["links"] = [
        {"a": "Alpha", "b": "Beta", "kind": "cable", "length_nm": 1000, "source": "test"},
        {"a": "Beta", "b": "Gamma", "kind": "land_line", "length_nm": 500, "source": "test"},
    ]
    tel["circuits"] = []
    wl = raw(WIRELESS_FILE)
    wl["shore_stations"] = []
    wl["rules"].update(wireless_rules)
    return parse_signal_data(tel, wl, origin="test")


def network(data=None, is_night=day, **kw):
    env = simpy.Environment()
    rec = Recorder()
    net = SignalNetwork(env, rec.emit, Clock(START), np.random.default_rng(0), is_night=is_night,
                        data=data or small_data(), sides=SIDES, neutral_sides={"Italy"}, **kw)
    return env, rec, net


def at(dist_nm: float, bearing: float = 90.0, origin: tuple[float, float] = BASE) -> tuple[float, float]:
    lat, lon = forward(origin[0], origin[1], bearing, dist_nm)
    return float(lat), float(lon)


def fixed(p: tuple[float, float]):
    return lambda _t: p


def of_type(rec: Recorder, type_: str) -> list:
    return [r for r in rec.records if r.type == type_]


def received(rec: Recorder, msg: Message):
    got = [r for r in of_type(rec, "message_received") if r.data["id"] == msg.id]
    return got[0] if got else None


WORDS = "Goeben and Breslau steering east at 17 knots"  # 8 words


def wireless_min(data, relays: int = 0) -> float:
    """Encipher and key at the origin, re-key at each relay, decipher at the addressee."""
    w = data.wireless
    return w.encipher_min + (1 + relays) * w.transmit_min(WORDS) + w.decipher_min


# ------------------------------------------------------------------------------- the rules as data


def test_rules_are_the_sources_numbers() -> None:
    d = default_signal_data()
    assert (d.telegraph.day_min_per_1000_nm, d.telegraph.night_min_per_1000_nm) == (60, 90)  # seed 002
    assert d.telegraph.dispatch_min == 55  # Admiralty 14:05 -> land wire 15:00 (Churchill p.96)
    assert (d.wireless.encipher_min, d.wireless.decipher_min) == (12, 12)  # Magdeburg, 26 Aug 1914
    assert d.wireless.words_per_min == 10  # Jackson 1897
    assert d.wireless.transmit_min(WORDS) == pytest.approx((8 + d.wireless.header_words) / 10)
    # RN 1908 Mark I* table, S/U/W tunes: 150/250 to first-class, 120/200 to second-class cruisers.
    assert (d.sets["capital"].day_nm, d.sets["capital"].night_nm) == (150, 250)
    assert (d.sets["light_cruiser"].day_nm, d.sets["light_cruiser"].night_nm) == (120, 200)
    for s in d.sets.values():
        assert s.night_nm > s.day_nm and s.source.strip()
    for s in d.shore_stations:
        assert s.set.night_nm >= s.set.day_nm and s.source.strip()


def test_a_station_is_found_by_any_of_its_names_in_any_case_or_accents() -> None:
    d = default_signal_data()
    # data/telegraph.yaml: Valletta is also "Malta", Bône also "Bona", London also "Admiralty".
    assert d.station("Malta") is d.station("valletta") is d.station("  VALLETTA ")
    assert d.station("Bona") is d.station("Bone") is d.station("Bône")
    assert d.station("Admiralty").name == "London"
    # Every name of every station finds the first station that bears it, as a plain search would.
    for s in d.stations:
        for n in (s.name, *s.aka):
            first = next(x for x in d.stations if place_key(n) in {place_key(m) for m in (x.name, *x.aka)})
            assert d.station(n) is first
    with pytest.raises(KeyError, match="unknown telegraph station 'Atlantis'"):
        d.station("Atlantis")


def test_a_link_or_shore_station_naming_an_unknown_station_is_refused_naming_the_entry() -> None:
    tel, wl = (yaml.safe_load(f.read_text()) for f in (TELEGRAPH_FILE, WIRELESS_FILE))
    first = tel["links"][0]
    tel["links"][0] = {**first, "a": "Atlantis"}
    with pytest.raises(SignalDataError, match=rf"link 1 'Atlantis' - '{first['b']}': .*unknown telegraph station 'Atlantis'"):
        parse_signal_data(tel, wl)
    tel["links"][0] = first
    shore = wl["shore_stations"][0]
    wl["shore_stations"][0] = {**shore, "telegraph": "Atlantis"}
    with pytest.raises(SignalDataError, match=rf"shore station '{shore['name']}', field 'telegraph'"):
        parse_signal_data(tel, wl)


def test_cable_routing_factor_is_computed_from_the_sourced_cables() -> None:
    d = default_signal_data()
    gib, malta, alex = d.station("Gibraltar"), d.station("Malta"), d.station("Alexandria")
    ratios = [1150 / distance_nm(gib.lat, gib.lon, malta.lat, malta.lon),
              943 / distance_nm(malta.lat, malta.lon, alex.lat, alex.lon)]
    assert d.telegraph.cable_routing_factor == pytest.approx(np.mean(ratios), abs=5e-4)


def test_every_gazetteer_cable_is_a_telegraph_link_and_every_link_has_a_source() -> None:
    d, gaz = default_signal_data(), default_places()
    by_place = {}
    for s in d.stations:
        for p in gaz.by_kind("cable_station"):
            if (p.lat, p.lon) == (s.lat, s.lon):
                by_place[p.name] = s.name
    pairs = {frozenset((link.a, link.b)) for link in d.links}
    for cable in gaz.cables:
        assert frozenset((by_place[cable.a], by_place[cable.b])) in pairs, (cable.a, cable.b)
    for link in d.links:
        assert link.source.strip() and link.length_nm > 0
    names = {s.name for s in d.stations}
    for required in ("London", "Paris", "Berlin", "Rome", "Vienna", "Constantinople", "Toulon", "Pola",
                     "Taranto", "Bizerte", "Messina", "Valletta", "Porthcurno", "Carcavelos", "Gibraltar",
                     "Alexandria", "Noto", "Cagliari", "Corfu", "Otranto", "Zante", "Syra", "Piraeus", "Chios",
                     "Sitia", "Tripoli", "Benghazi", "Bône", "Marseille", "Brindisi"):
        assert required in names


def test_which_ship_carries_which_set() -> None:
    d = default_signal_data()
    assert d.set_for("Germany", "battlecruiser") == "goeben"
    assert d.set_for("United Kingdom", "battlecruiser") == "capital"
    assert d.set_for("United Kingdom", "light_cruiser") == "light_cruiser"
    assert d.set_for("Germany", "station_ship") == "station_ship"
    assert d.set_for("Germany", "collier") is None  # Bogados had no W/T (Miller ch.8)


def test_default_light_is_day_at_noon_and_night_at_midnight_off_malta() -> None:
    assert default_is_night(35.9, 14.5, datetime(1914, 8, 4, 11, 0, tzinfo=UTC)) is False
    assert default_is_night(35.9, 14.5, datetime(1914, 8, 4, 23, 0, tzinfo=UTC)) is True


# ------------------------------------------------------------------------------------------ cable


def cable_net(is_night=day, on_receive=None):
    env, rec, net = network(is_night=is_night)
    net.register("HQ A", "Entente", "United Kingdom", station="Alpha")
    net.register("HQ C", "Entente", "United Kingdom", station="Gamma", on_receive=on_receive)
    return env, rec, net


def cable_delay(data, night_first: bool, night_second: bool) -> float:
    t = data.telegraph
    return (t.dispatch_min + t.line_min(1000, night_first) + t.relay_min + t.line_min(500, night_second)
            + t.relay_min + data.wireless.decipher_min)


def test_cable_delay_by_day_is_the_1905_rule_plus_handling() -> None:
    got = []
    env, rec, net = cable_net(on_receive=lambda m, t: got.append((m.id, m.content["go"], t)))
    msg = net.send("HQ A", "HQ C", "order", {"go": "Malta"}, "Proceed to Malta")
    env.run(until=1000)
    r = received(rec, msg)
    # 55 dispatch + 60 (1,000 nm by day) + 10 relay + 30 (500 nm by day) + 10 relay + 12 decipher
    assert r.data["delay_min"] == pytest.approx(177.0)
    assert cable_delay(net.data, False, False) == pytest.approx(177.0)
    assert got == [(msg.id, "Malta", pytest.approx(177.0))]
    sent = of_type(rec, "message_sent")[0]
    assert sent.data["expected_delay_min"] == pytest.approx(177.0)
    assert [h["by"] for h in sent.data["route"]] == ["local", "cable", "land_line", "local"]
    assert (sent.unit, r.unit) == ("HQ A", "HQ C")


def test_cable_delay_at_night_is_half_as_long_again_on_the_lines() -> None:
    env, rec, net = cable_net(is_night=night)
    msg = net.send("HQ A", "HQ C", "order", {}, "Proceed to Malta")
    env.run(until=1000)
    # 55 + 90 (1,000 nm by night) + 10 + 45 (500 nm by night) + 10 + 12
    assert received(rec, msg).data["delay_min"] == pytest.approx(222.0)
    assert cable_delay(net.data, True, True) == pytest.approx(222.0)


def test_night_is_judged_at_the_sending_station_when_the_hop_begins() -> None:
    # Night falls at minute 100: the cable hop leaves Alpha at 55 (day), the line leaves Beta at 125 (night).
    falls = Clock(START).utc(100)
    env, rec, net = cable_net(is_night=lambda lat, lon, when: when >= falls)
    msg = net.send("HQ A", "HQ C", "order", {}, "Proceed to Malta")
    env.run(until=1000)
    assert received(rec, msg).data["delay_min"] == pytest.approx(55 + 60 + 10 + 45 + 10 + 12)
    # By place: night east of 15 E (Beta), day at Alpha.
    env, rec, net = cable_net(is_night=lambda lat, lon, when: lon > 15)
    msg = net.send("HQ A", "HQ C", "order", {}, "Proceed to Malta")
    env.run(until=1000)
    assert received(rec, msg).data["delay_min"] == pytest.approx(55 + 60 + 10 + 45 + 10 + 12)


def test_two_messages_at_once_queue_at_the_relay_station() -> None:
    env, rec, net = cable_net()
    first = net.send("HQ A", "HQ C", "order", {}, "Proceed to Malta")
    second = net.send("HQ A", "HQ C", "info", {}, "Colliers ordered to Malta")
    env.run(until=1000)
    # Both are dispatched together (the headquarters' capacity is 2); Beta's single clerk takes the first
    # for 10 minutes while the second waits, so the second arrives one relay handling later.
    assert net.data.telegraph.hq_capacity == 2 and net.data.telegraph.relay_capacity == 1
    assert received(rec, first).data["delay_min"] == pytest.approx(177.0)
    assert received(rec, second).data["delay_min"] == pytest.approx(177.0 + net.data.telegraph.relay_min)


def test_a_ship_in_port_relays_wireless_to_the_telegraph() -> None:
    alpha = (36.0, 10.0)  # station Alpha of the test network
    for in_port in (False, True):
        env, rec, net = cable_net()
        net.register("A", "Entente", "United Kingdom", fixed(at(100, 0, alpha)), wireless="capital")
        net.register("S", "Entente", "United Kingdom", fixed(alpha), wireless="light_cruiser")
        if in_port:
            net.set_station("S", "Alpha")  # S enters port and can hand messages ashore
        msg = net.send("A", "HQ C", "report", {}, WORDS)
        env.run(until=3000)
        r = received(rec, msg)
        if not in_port:
            assert r is None  # no shore station in the test network: no way ashore
            continue
        assert [(h["from"], h["by"]) for h in r.data["route"]] == [
            ("A", "wireless"), ("S", "local"), ("Alpha", "cable"), ("Beta", "land_line"), ("Gamma", "local")]
        w, t = net.data.wireless, net.data.telegraph
        # A enciphers and keys; S re-keys it ashore; Alpha, Beta and Gamma each handle it (S is not a
        # headquarters dispatching its own message); 60 + 30 minutes of line by day; HQ C deciphers.
        expected = w.encipher_min + 2 * w.transmit_min(WORDS) + 3 * t.relay_min + 60 + 30 + w.decipher_min
        assert r.data["delay_min"] == pytest.approx(expected)


def real_network(is_night=day):
    env = simpy.Environment()
    rec = Recorder()
    net = SignalNetwork(env, rec.emit, Clock(START), is_night=is_night, data=default_signal_data(), sides=SIDES,
                        neutral_sides={"Italy"})
    return env, rec, net


def test_real_network_admiralty_to_malta_goes_by_the_eastern_companys_through_circuit() -> None:
    # London to Valletta on the Eastern's circuit, worked through (data/telegraph.yaml, circuits): the
    # Admiralty's dispatch, the circuit's minutes, Valletta's handling, the addressee's deciphering.
    data = default_signal_data()
    env, rec, net = real_network()
    net.register("Admiralty", "Entente", "United Kingdom", station="London")
    net.register("C-in-C Malta", "Entente", "United Kingdom", station="Valletta")
    msg = net.send("Admiralty", "C-in-C Malta", "order", {}, "Goeben is your objective")
    env.run(until=2000)
    r = received(rec, msg)
    assert [(h["from"], h["to"], h["by"]) for h in r.data["route"]] == [
        ("Admiralty", "London", "local"), ("London", "Valletta", "cable"), ("Valletta", "C-in-C Malta", "local")]
    (circuit,) = data.circuits
    valletta = data.station("Valletta").handling_min
    assert r.data["delay_min"] == pytest.approx(data.telegraph.dispatch_min + circuit.transit_min + valletta
                                                + data.wireless.decipher_min)


# The war telegram of 4 Aug 1914, sent at 23:00 GMT, was received in the fleet at '1.15 A.M., 5th'
# [tz unstated] (Churchill, The World Crisis vol.1 p.107): 75 minutes if the receipt is CET, 135 if GMT
# (data/telegraph.yaml, circuits).
WAR_TELEGRAM_MIN = (75.0, 135.0)


@pytest.mark.parametrize("is_night", [day, night])
def test_an_admiralty_order_reaches_milne_at_malta_by_cable_within_the_record(is_night) -> None:
    env, rec, net = real_network(is_night)
    net.register("Admiralty", "Entente", "United Kingdom", station="London")
    net.register("Milne", "Entente", "United Kingdom", fixed((35.897, 14.515)), station="Valletta", wireless="capital")
    msg = net.send("Admiralty", "Milne", "order", {}, "Commence hostilities against Germany.")
    env.run(until=2000)
    r = received(rec, msg)
    assert {h["by"] for h in r.data["route"]} <= {"local", "cable", "land_line"}  # no wireless hop
    assert WAR_TELEGRAM_MIN[0] <= r.data["delay_min"] <= WAR_TELEGRAM_MIN[1]


def test_a_ship_that_sails_before_the_telegram_reaches_her_port_is_reached_by_wireless() -> None:
    # Milne lies at Valletta when the Admiralty sends; he has sailed when it reaches Malta: the telegraph
    # office there cannot hand it to him, and Malta's station keys it to him at sea.
    env, rec, net = real_network()
    net.register("Admiralty", "Entente", "United Kingdom", station="London")
    where = {"at": (35.897, 14.515)}
    net.register("Milne", "Entente", "United Kingdom", lambda t: where["at"], station="Valletta", wireless="capital")
    msg = net.send("Admiralty", "Milne", "order", {}, "Commence hostilities against Germany.")
    env.run(until=10.0)
    where["at"] = at(20, 90, (35.9, 14.5))
    net.set_station("Milne", None)
    env.run(until=2000)
    r = received(rec, msg)
    assert [(h["from"], h["to"], h["by"]) for h in r.data["route"]][-2:] == [
        ("Valletta", "Malta W/T", "land_line"), ("Malta W/T", "Milne", "wireless")]
    (rerouted,) = of_type(rec, "message_rerouted")
    assert (rerouted.data["at"], rerouted.data["reason"]) == ("Valletta", "left port")


def test_an_admiralty_order_reaches_milne_at_sea_off_malta_by_cable_and_maltas_wireless() -> None:
    # Gibraltar's high-power station reaches him too (1,000 nm by day), but the wire takes the message on
    # to Malta, the navy's station nearest him, which keys the last leg.
    env, rec, net = real_network()
    net.register("Admiralty", "Entente", "United Kingdom", station="London")
    net.register("Milne", "Entente", "United Kingdom", fixed(at(60, 270, (35.9, 14.5))), wireless="capital")
    gibraltar, milne = net._vertices["W:Gibraltar W/T"], net._node("Milne")
    assert net._in_range(gibraltar, milne, 0.0)
    msg = net.send("Admiralty", "Milne", "order", {}, "Commence hostilities against Germany.")
    env.run(until=2000)
    r = received(rec, msg)
    assert [(h["from"], h["to"], h["by"]) for h in r.data["route"]][-2:] == [
        ("Valletta", "Malta W/T", "land_line"), ("Malta W/T", "Milne", "wireless")]
    assert WAR_TELEGRAM_MIN[0] <= r.data["delay_min"] <= WAR_TELEGRAM_MIN[1]


@pytest.mark.parametrize("is_night", [day, night])
def test_a_german_message_reaches_goeben_west_of_sicily_by_nauen(is_night) -> None:
    # 'At 2:35 a.m. on August 4, as Souchon was nearing the Algerian coast, an unexpected signal arrived
    # from the Naval Staff in Berlin' (Massie): no German or Austrian station but Nauen reaches her there.
    env, rec, net = real_network(is_night)
    net.register("Admiralstab", "Central Powers", "Germany", station="Berlin")
    net.register("Goeben", "Central Powers", "Germany", fixed((37.6, 7.0)), wireless="goeben")
    msg = net.send("Admiralstab", "Goeben", "order", {}, "Proceed at once to Constantinople.")
    env.run(until=2000)
    r = received(rec, msg)
    assert r is not None and not of_type(rec, "message_lost")
    assert of_type(rec, "message_sent")[0].data["held"] is False
    last = r.data["route"][-1]
    assert (last["from"], last["by"]) == ("Nauen W/T", "wireless") and "stand_in" in last  # its ranges are stand-ins
    assert r.data["delay_min"] < 120.0


def test_a_british_message_is_not_keyed_by_a_french_station_nor_relayed_by_a_french_ship() -> None:
    # No common W/T procedure in Aug 1914 (Encyclopaedia Britannica 1922: Milne 'unable to establish
    # communication' with the French C-in-C): off Bizerta, nearer Bizerte's station and a French battleship
    # than any British set, Dublin is reached from Malta.
    env, rec, net = real_network()
    net.register("Admiralty", "Entente", "United Kingdom", station="London")
    net.register("Courbet", "Entente", "France", fixed((37.5, 9.9)), wireless="capital")
    net.register("Dublin", "Entente", "United Kingdom", fixed((38.0, 9.5)), wireless="light_cruiser")
    msg = net.send("Admiralty", "Dublin", "order", {}, "Proceed to Malta.")
    env.run(until=3000)
    r = received(rec, msg)
    assert r is not None
    froms = {h["from"] for h in r.data["route"]}
    assert not froms & {"Bizerte W/T", "Courbet", "Porquerolles W/T", "Fort-de-l'Eau W/T", "Saintes-Maries W/T"}


# --------------------------------------------------------------------------------------- wireless


def test_wireless_within_day_range_is_delivered_with_cipher_and_keying_time() -> None:
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(140)), wireless="capital")
    msg = net.send("A", "B", "report", {"enemy": ["Goeben", "Breslau"], "course_deg": 90}, WORDS)
    env.run(until=500)
    assert received(rec, msg).data["delay_min"] == pytest.approx(wireless_min(net.data))
    assert received(rec, msg).data["route"] == ({"from": "A", "to": "B", "by": "wireless"},)


def test_wireless_beyond_day_range_but_within_night_range() -> None:
    # 200 nm: beyond a capital ship's 150 nm by day, within its 250 nm by night.
    env, rec, net = network(is_night=night)
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(200)), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=500)
    assert received(rec, msg).data["delay_min"] == pytest.approx(wireless_min(net.data))

    env, rec, net = network(is_night=day)
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(200)), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=3000)
    assert received(rec, msg) is None
    assert of_type(rec, "message_sent")[0].data["held"] is True
    lost = of_type(rec, "message_lost")
    assert [r.data["id"] for r in lost] == [msg.id]
    assert lost[0].t_min == pytest.approx(net.data.wireless.hold_limit_min)


def test_range_is_the_transmitters_light_times_the_receivers_factor() -> None:
    # Night at the transmitter (west), day at the receiver: the transmitter's night range counts.
    _env, _rec, net = network(is_night=lambda lat, lon, when: lon < 18.5)
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(200)), wireless="capital")
    assert net._in_range(net._node("A"), net._node("B"), 0.0)
    assert not net._in_range(net._node("B"), net._node("A"), 0.0)  # B keys by day: 150 nm
    # A light cruiser receives at 0.8 of the range: 250 x 0.8 = 200 nm, so 210 nm is out even by night.
    _env, _rec, net = network(is_night=night)
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("C", "Entente", "United Kingdom", fixed(at(210)), wireless="light_cruiser")
    assert not net._in_range(net._node("A"), net._node("C"), 0.0)


@settings(max_examples=30, deadline=None)
@given(dist=st.floats(min_value=1.0, max_value=400.0), is_dark=st.booleans())
def test_direct_delivery_iff_within_range(dist: float, is_dark: bool) -> None:
    env, rec, net = network(is_night=night if is_dark else day, )
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(dist)), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=100)
    reach = 250 if is_dark else 150
    assert (received(rec, msg) is not None) == (dist <= reach)


def test_relay_through_a_ship_of_the_senders_navy() -> None:
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("R", "Entente", "United Kingdom", fixed(at(140)), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=500)
    r = received(rec, msg)
    assert [(h["from"], h["to"]) for h in r.data["route"]] == [("A", "R"), ("R", "B")]
    assert r.data["delay_min"] == pytest.approx(wireless_min(net.data, relays=1))


def test_an_allied_ship_does_not_relay_but_may_if_the_rules_say_her_side_relays() -> None:
    # A French ship between two British: no relay under the rules of 1914 (data/wireless.yaml relay_for:
    # nation); a side's ships relay for one another under relay_for: side.
    for relay_for, relayed in (("nation", False), ("side", True)):
        env, rec, net = network(small_data(relay_for=relay_for))
        net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
        net.register("R", "Entente", "France", fixed(at(140)), wireless="capital")
        net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
        msg = net.send("A", "B", "report", {}, WORDS)
        env.run(until=500)
        assert (received(rec, msg) is not None) == relayed


def test_a_hostile_or_neutral_ship_does_not_relay() -> None:
    for side, nation in (("Central Powers", "Germany"), ("Italy", "Italy")):
        env, rec, net = network()
        net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
        net.register("R", side, nation, fixed(at(140)), wireless="capital")
        net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
        msg = net.send("A", "B", "report", {}, WORDS)
        env.run(until=100)
        assert received(rec, msg) is None


def test_goeben_reaches_constantinople_through_the_general_at_smyrna() -> None:
    """The German path (Lorey, Russian tr. p.10): Goeben -> the steamer General (a relay) -> ashore ->
    Constantinople."""
    data = default_signal_data()
    env = simpy.Environment()
    rec = Recorder()
    net = SignalNetwork(env, rec.emit, Clock(START), is_night=night, data=data, sides=SIDES, neutral_sides={"Italy"})
    matapan = default_places().get("Cape Matapan")
    net.register("Goeben", "Central Powers", "Germany", fixed((matapan.lat - 0.1, matapan.lon)), wireless="goeben")
    net.register("Embassy", "Central Powers", "Germany", station="Constantinople")
    net.register("General", "Central Powers", "Germany", fixed((38.44, 27.10)), station="Smyrna", wireless="merchant")
    msg = net.send("Goeben", "Embassy", "report", {}, "Am 7 August Cape Matapan. Establish W/T contact.")
    env.run(until=2000)
    route = [(h["from"], h["to"], h["by"]) for h in received(rec, msg).data["route"]]
    assert route[0] == ("Goeben", "General", "wireless")
    assert ("General", "Smyrna", "local") in route and route[-1] == ("Constantinople", "Embassy", "local")


def test_italian_signal_station_sighting_reaches_the_flagship_by_messina_wt() -> None:
    """Coast signal stations telegraphed sightings; Millo relayed them by radio (Italian Adriatic history,
    asa.archiviostudiadriatici.it libria_144489 OCR p.203)."""
    data = default_signal_data()
    env = simpy.Environment()
    rec = Recorder()
    net = SignalNetwork(env, rec.emit, Clock(START), is_night=day, data=data, sides=SIDES, neutral_sides={"Italy"})
    net.register("Taormina signal station", "Italy", "Italy", station="Taormina")
    net.register("Dante", "Italy", "Italy", fixed((38.6, 15.9)), wireless="capital")
    msg = net.send("Taormina signal station", "Dante", "report", {"sighted": "two warships"}, "Two warships south")
    env.run(until=1000)
    route = [(h["from"], h["to"], h["by"]) for h in received(rec, msg).data["route"]]
    assert route[0] == ("Taormina signal station", "Taormina", "local")
    assert route[-1] == ("Messina W/T", "Dante", "wireless")


def test_out_of_range_at_keying_time_reroutes() -> None:
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("R", "Entente", "United Kingdom", fixed(at(75)), wireless="capital")
    where = {"B": at(140)}
    net.register("B", "Entente", "United Kingdom", lambda t: where["B"], wireless="capital")

    def new_leg(env):  # an order the route search could not foresee takes B out of A's reach
        yield env.timeout(5)
        where["B"] = at(200)

    env.process(new_leg(env))
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=500)
    sent = of_type(rec, "message_sent")[0]
    assert [h["to"] for h in sent.data["route"]] == ["B"]
    [rr] = of_type(rec, "message_rerouted")
    keyed = net.data.wireless.encipher_min + net.data.wireless.transmit_min(WORDS)
    assert rr.data["id"] == msg.id and rr.t_min == pytest.approx(keyed) and rr.unit == "A"
    r = received(rec, msg)
    assert [h["to"] for h in r.data["route"]] == ["R", "B"]
    # A enciphered and keyed once for nothing, then re-keyed to R; R re-keyed to B; B deciphered.
    w = net.data.wireless
    assert r.t_min == pytest.approx(keyed + 2 * w.transmit_min(WORDS) + w.decipher_min)


def test_a_ship_that_changes_port_is_reached_at_the_port_it_is_in() -> None:
    # The route search keeps, for each station, the nodes standing at it: set_station must move S there.
    env, rec, net = cable_net()
    net.register("S", "Entente", "United Kingdom", fixed((30.0, 40.0)), station="Alpha", wireless="light_cruiser")
    net.set_station("S", "Gamma")
    msg = net.send("HQ A", "S", "order", {}, WORDS)
    env.run(until=3000)
    route = [(h["from"], h["to"], h["by"]) for h in received(rec, msg).data["route"]]
    assert route[-1] == ("Gamma", "S", "local") and ("Alpha", "S", "local") not in route
    net.set_station("S", None)  # out of port, and out of everybody's wireless range
    msg = net.send("HQ A", "S", "order", {}, WORDS)
    env.run(until=6000)
    assert received(rec, msg) is None and of_type(rec, "message_sent")[-1].data["held"] is True
    net.set_station("S", "Alpha")
    msg = net.send("HQ C", "S", "order", {}, WORDS)
    env.run(until=9000)
    assert [h["to"] for h in received(rec, msg).data["route"]][-2:] == ["Alpha", "S"]


def test_a_relay_registered_while_a_message_is_held_carries_it() -> None:
    # Route searches remember which sets a message may use; registering a node must make them look again.
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)  # 280 nm: held, no relay yet

    def detach(env):  # a ship joins half way, as a detached force does
        yield env.timeout(45)
        net.register("R", "Entente", "United Kingdom", fixed(at(140)), wireless="capital")

    env.process(detach(env))
    env.run(until=1000)
    retry = net.data.wireless.no_route_retry_min
    found = of_type(rec, "message_rerouted")[0]
    assert found.t_min == pytest.approx(2 * retry) and found.data["reason"] == "route found after holding"
    assert [h["to"] for h in received(rec, msg).data["route"]] == ["R", "B"]


def test_an_office_calls_once_for_all_it_holds_for_one_addressee_and_they_go_together() -> None:
    # Three reports to B handed in ten minutes apart, none with a route: the office calls for a route
    # every retry from the first, one search for the three (not three), and when a relay joins, the call
    # that finds it sends all three on.
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
    searches = []
    plan = net._plan
    net._plan = lambda msg, start, t0, came_by: searches.append(t0) or plan(msg, start, t0, came_by)
    msgs = []

    def hand_in(env):
        for _ in range(3):
            msgs.append(net.send("A", "B", "report", {}, WORDS))
            yield env.timeout(10)

    def detach(env):
        yield env.timeout(100)
        net.register("R", "Entente", "United Kingdom", fixed(at(140)), wireless="capital")

    env.process(hand_in(env))
    env.process(detach(env))
    env.run(until=1000)
    retry = net.data.wireless.no_route_retry_min
    assert retry < 100 < 4 * retry  # the relay joins before the fourth call
    calls = [retry * k for k in range(1, 4)]
    # At sending (three searches), then one a call until the fourth, which finds R: then each its own.
    assert searches == [0.0, 10.0, 20.0, *calls, 4 * retry, 4 * retry, 4 * retry, 4 * retry]
    found = [r for r in of_type(rec, "message_rerouted") if r.data["reason"] == "route found after holding"]
    assert [(r.data["id"], r.t_min) for r in found] == [(m.id, 4 * retry) for m in msgs]
    assert all(received(rec, m) is not None for m in msgs)
    assert net._calls == {}  # nothing held: the calls are over


def test_each_held_message_is_lost_at_its_own_limit() -> None:
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
    first = net.send("A", "B", "report", {}, WORDS)
    env.run(until=7)
    second = net.send("A", "B", "report", {}, WORDS)
    env.run(until=3 * net.data.wireless.hold_limit_min)
    limit = net.data.wireless.hold_limit_min
    lost = {r.data["id"]: r.t_min for r in of_type(rec, "message_lost")}
    assert lost == {first.id: pytest.approx(limit), second.id: pytest.approx(7 + limit)}
    assert net._calls == {}


@settings(max_examples=40, deadline=None)
@given(offset_nm=st.floats(min_value=-1e-6, max_value=1e-6), bearing=st.floats(min_value=0.0, max_value=360.0),
       is_dark=st.booleans())
def test_route_search_agrees_with_the_geodesic_at_the_edge_of_range(offset_nm: float, bearing: float,
                                                                     is_dark: bool) -> None:
    # The search rules sets out by their chord first: at the very edge of range it must still decide
    # exactly as the geodesic distance does.
    reach = 250 if is_dark else 150
    env, rec, net = network(is_night=night if is_dark else day)
    b = at(reach + offset_nm, bearing)
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(b), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=100)
    assert (received(rec, msg) is not None) == (distance_nm(*BASE, *b) <= reach)


def test_held_message_goes_when_the_geometry_allows() -> None:
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    start = at(295)
    # B closes at 30 kn from 295 nm: within 150 nm from t = 290, found at the next retry, t = 300.
    net.register("B", "Entente", "United Kingdom",
                 lambda t: tuple(map(float, forward(start[0], start[1], 270.0, 0.5 * t))), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=1000)
    assert of_type(rec, "message_sent")[0].data["held"] is True
    assert received(rec, msg).t_min == pytest.approx(300 + wireless_min(net.data))


# ------------------------------------------------------------------------------------ interception


def test_interception_reveals_only_sea_and_area() -> None:
    env, rec, net = network()
    heard: list[dict] = []
    net.register("Gloucester", "Entente", "United Kingdom", fixed(at(100, 0)), wireless="light_cruiser",
                 on_intercept=lambda info, t: heard.append(dict(info)))
    net.register("Far", "Entente", "United Kingdom", fixed(at(400, 0)), wireless="capital",
                 on_intercept=lambda info, t: heard.append({"far": info}))
    net.register("Neutral", "Italy", "Italy", fixed(at(50, 0)), wireless="capital",
                 on_intercept=lambda info, t: heard.append({"neutral": info}))
    net.register("Goeben", "Central Powers", "Germany", fixed(BASE), wireless="goeben")
    net.register("Breslau", "Central Powers", "Germany", fixed(at(30, 180)), wireless="light_cruiser")
    msg = net.send("Goeben", "Breslau", "order", {"rendezvous": "Cape Matapan"}, WORDS)
    env.run(until=100)
    assert received(rec, msg) is not None
    keyed_at = net.data.wireless.encipher_min + net.data.wireless.transmit_min(WORDS)
    assert heard == [{"sea": "Ionian", "area": "B", "t_min": pytest.approx(keyed_at)}]
    assert set(heard[0]) == {"sea", "area", "t_min"}
    assert sea_area_at(*BASE) == ("Ionian", "B")
    [rec_i] = of_type(rec, "intercept")
    assert rec_i.unit == "Gloucester" and rec_i.side == "Entente"
    assert dict(rec_i.data) == {"sea": "Ionian", "area": "B"}
    assert (rec_i.lat, rec_i.lon) == pytest.approx(at(100, 0))  # the listener's place, not the sender's
    flat = repr((rec_i.unit, rec_i.side, dict(rec_i.data)))
    assert "Goeben" not in flat and "Breslau" not in flat and msg.id not in flat


def test_a_listener_proved_out_of_hearing_by_its_last_placing_is_not_placed_again() -> None:
    """Interception asks a moving listener where it is only when where it was last placed, on the plan it
    still has, and its speed since, leave it possibly within hearing."""
    env, rec, net = network()
    asked = {"Far": 0, "Near": 0}

    def moving(name, where):
        def position(t):
            asked[name] += 1
            return where
        return position

    for name, where in (("Far", at(900, 0)), ("Near", at(100, 0))):
        net.register(name, "Entente", "United Kingdom", moving(name, where), wireless="light_cruiser",
                     plan=lambda: ("leg 1", 10.0))
        net._place({}, net._node(name), 0.0)
    net.register("Goeben", "Central Powers", "Germany", fixed(BASE), wireless="goeben")
    net.register("Breslau", "Central Powers", "Germany", fixed(at(30, 180)), wireless="light_cruiser")
    before = dict(asked)
    msg = net.send("Goeben", "Breslau", "order", {"rendezvous": "Cape Matapan"}, WORDS)
    env.run(until=100)
    assert received(rec, msg) is not None
    assert asked["Far"] == before["Far"]  # 900 nm off at 10 kn: never asked again
    assert asked["Near"] > before["Near"]  # within hearing: placed, and it hears
    assert [r.unit for r in of_type(rec, "intercept")] == ["Near"]


# ----------------------------------------------------------------------------------------- jamming


def jam_net(jammer_pos):
    env, rec, net = network()
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(100)), wireless="capital")
    net.register("Goeben", "Central Powers", "Germany", jammer_pos, wireless="goeben")
    return env, rec, net


def test_jamming_blocks_then_releases() -> None:
    env, rec, net = jam_net(fixed(at(110)))
    net.set_jamming("Goeben", True)

    def stop(env):
        yield env.timeout(60)
        net.set_jamming("Goeben", False)

    env.process(stop(env))
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=500)
    r = received(rec, msg)
    assert r.t_min == pytest.approx(60 + net.data.wireless.decipher_min)
    [jam] = of_type(rec, "message_jammed")
    assert jam.data["id"] == msg.id and jam.data["jammers"] == ("Goeben",)
    assert [(x.type, x.t_min) for x in rec.records if x.type.startswith("jamming_")] == [
        ("jamming_start", 0.0), ("jamming_end", 60.0)]


@pytest.mark.parametrize("jamming", [False, True])
def test_a_hop_is_measured_against_jammers_only_when_a_set_jams(jamming, monkeypatch) -> None:
    # Goeben lies 110 nm from B. Jamming, she is weighed against A's signal at B (the range of each at B);
    # silent, A's hop is keyed without measuring anything at B for jamming (Goeben still listens: the
    # range at which she hears A is measured either way).
    env, rec, net = jam_net(fixed(at(110)))
    net.set_jamming("Goeben", jamming)
    measured = []
    range_nm = net._range
    monkeypatch.setattr(net, "_range", lambda tx, rx, t: measured.append((tx.label, rx.label)) or range_nm(tx, rx, t))
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=30)
    assert bool(of_type(rec, "message_jammed")) == jamming
    assert (received(rec, msg) is None) == jamming
    assert sorted({tx for tx, rx in measured if rx == "B"}) == (["A", "Goeben"] if jamming else [])


def test_jammed_operator_calls_again_every_retry_interval() -> None:
    # The jammer steams away (no jamming_end): the message goes at the first call after it is out of reach.
    near, away = at(110), at(400)
    env, rec, net = jam_net(lambda t: near if t < 40 else away)
    net.set_jamming("Goeben", True)
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=500)
    keyed = net.data.wireless.encipher_min + net.data.wireless.transmit_min(WORDS)  # 13.8
    retry = net.data.wireless.jam_retry_min
    first_clear = keyed + retry * np.ceil((40 - keyed) / retry)
    assert received(rec, msg).t_min == pytest.approx(first_clear + net.data.wireless.decipher_min)


def test_a_distant_jammer_does_not_drown_a_stronger_signal() -> None:
    # By day the sender is 100 nm from B with 150 nm of range (0.67 of it); a jammer 400 nm from B with
    # Goeben's 290 nm is out of reach, and one 200 nm away (0.69) is weaker than the sender: no jamming.
    for place in (at(500), at(300)):
        env, rec, net = jam_net(fixed(place))
        net.set_jamming("Goeben", True)
        msg = net.send("A", "B", "report", {}, WORDS)
        env.run(until=500)
        assert received(rec, msg).data["delay_min"] == pytest.approx(wireless_min(net.data))
        assert not of_type(rec, "message_jammed")


# ----------------------------------------------------------------------------------- determinism


def busy_run() -> list[tuple]:
    env, rec, net = network()
    net.register("HQ A", "Entente", "United Kingdom", station="Alpha")
    net.register("HQ C", "Entente", "United Kingdom", station="Gamma")
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("R", "Entente", "United Kingdom", fixed(at(140)), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(280)), wireless="capital")
    net.register("Goeben", "Central Powers", "Germany", fixed(at(100, 0)), wireless="goeben")
    ids = [net.send("HQ A", "HQ C", "order", {}, "Proceed to Malta").id,
           net.send("A", "B", "report", {"seen": "Goeben"}, WORDS).id,
           net.send("HQ A", "HQ C", "politics", {"war": "Germany"}, "War declared").id,
           net.send("Goeben", "A", "info", {}, WORDS).id]
    assert ids == ["M0001", "M0002", "M0003", "M0004"]
    env.run(until=2000)
    return [(r.t_min, r.type, r.unit, r.side, r.lat, r.lon, repr(sorted(r.data.items()))) for r in rec.records]


def test_same_inputs_same_ids_and_records() -> None:
    assert busy_run() == busy_run()


def test_message_is_immutable_and_validated() -> None:
    _env, _rec, net = cable_net()
    msg = net.send("HQ A", "HQ C", "order", {"ships": ["Inflexible"], "to": {"lat": 35.9}}, "Go")
    with pytest.raises(AttributeError):
        msg.text = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        msg.content["to"]["lat"] = 0  # type: ignore[index]
    assert msg.content["ships"] == ("Inflexible",)
    with pytest.raises(ValueError, match="kind"):
        net.send("HQ A", "HQ C", "gossip", {}, "x")
    with pytest.raises(KeyError, match="unknown node"):
        net.send("HQ A", "Nobody", "order", {}, "x")
    with pytest.raises(KeyError, match="unknown W/T set"):
        net.register("X", "Entente", "United Kingdom", fixed(BASE), wireless="marconi_x")
    with pytest.raises(ValueError, match="already registered"):
        net.register("HQ A", "Entente", "United Kingdom", station="Alpha")


# ------------------------------------------------------------------------------------ seas and areas


def test_every_sea_point_of_the_main_basins_is_in_exactly_one_area() -> None:
    areas, land = default_sea_areas(), default_land()
    lons, lats = np.meshgrid(np.arange(-5.7, 37.4, 0.05), np.arange(29.65, 46.0, 0.05))
    lo, la = lons.ravel(), lats.ravel()
    sea = ~land.is_land(la, lo)
    off_map = ((lo < 1.5) & (la > 42.8))  # Bay of Biscay (Atlantic)
    off_map |= (lo > 26.2) & (la > 40.0) & (la < 41.3) & (lo < 30)  # Dardanelles and Sea of Marmara
    off_map |= (lo > 27.2) & (la > 40.9)  # Black Sea
    keep = sea & ~off_map
    index, count = areas.index_at(la[keep], lo[keep])
    assert keep.sum() > 100_000
    assert (count == 1).all(), np.column_stack([lo[keep], la[keep]])[count != 1][:10]
    assert set(index) == set(range(len(areas.areas)))  # every area holds water


def test_sea_area_lookup() -> None:
    assert len(default_sea_areas().sea_names) == 7
    for sea in default_sea_areas().sea_names:
        assert len(default_sea_areas().areas_of(sea)) >= 2  # seed 000: "two or more AREAS"
    gaz = default_places()
    expect = {"Valletta": ("Strait of Sicily", "B"), "Messina": ("Ionian", "A"), "Pola": ("Adriatic", "A"),
              "Toulon": ("Western Mediterranean", "C"), "Bizerte": ("Western Mediterranean", "D"),
              "Gibraltar": ("Western Mediterranean", "A"), "Palermo": ("Tyrrhenian", "C"),
              "Denusa": ("Aegean", "D"), "Piraeus": ("Aegean", "B"), "Alexandria": ("Levant", "C"),
              "Cape Matapan": ("Ionian", "B"), "Brindisi": ("Adriatic", "C"), "Taranto": ("Ionian", "A"),
              "Dardanelles entrance": ("Aegean", "A")}
    for name, where in expect.items():
        p = gaz.get(name)
        assert sea_area_at(p.anchorage_lat, p.anchorage_lon) == where, name
    for lat, lon in ((41.0, 28.98), (36.0, -8.0), (43.0, 34.0), (float("nan"), 10.0)):  # Bosporus, Atlantic, Black Sea
        assert sea_area_at(lat, lon) is None


def test_a_message_held_from_an_awkward_time_is_lost_at_the_limit_not_held_forever() -> None:
    # Held from t = 7162.793865510987 min (a time of the historical run), the retries' sum and the
    # clock's rounding once left a remainder too small to move the clock: the hold then waited forever
    # at one instant. The hold must end at its limit.
    env, rec, net = network(is_night=day)
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(200)), wireless="capital")
    start = 7162.793865510987
    env.run(until=start)
    msg = net.send("A", "B", "report", {}, WORDS)
    steps = 0
    while env.peek() < start + 2 * net.data.wireless.hold_limit_min and steps < 10_000:
        env.step()
        steps += 1
    assert steps < 10_000
    lost = of_type(rec, "message_lost")
    assert [r.data["id"] for r in lost] == [msg.id]
    assert lost[0].t_min == pytest.approx(start + net.data.wireless.hold_limit_min, abs=1 / 60)


@pytest.mark.parametrize("seed", [0, 3])
def test_bounds_from_where_ships_were_last_placed_change_no_route(seed, monkeypatch) -> None:
    """A route search rules out the sets a moving ship cannot have come within range of since it was
    last placed (its plan unchanged, at its speed) instead of placing it again: every record of a run
    is what placing every ship at every hop gives, and many placings are saved."""
    from campaign.batch.replicate import scenario_of
    from campaign.paths import SCENARIO_DIR
    from campaign.world.command import CommandRuntime
    from campaign.world.world import World

    scenario = scenario_of(str(SCENARIO_DIR / "goeben_1914.yaml"), "base")
    placed = {"n": 0}
    original = SignalNetwork._place

    def counted(self, places, v, t):
        placed["n"] += v.key not in places
        return original(self, places, v, t)

    monkeypatch.setattr(SignalNetwork, "_place", counted)
    bounded = World(scenario, seed)
    bounded.run()
    n_bounded, placed["n"] = placed["n"], 0
    monkeypatch.setattr(CommandRuntime, "_plan_of", lambda self, name: None)
    every = World(scenario, seed)
    every.run()
    assert [repr(r) for r in bounded.rec.records] == [repr(r) for r in every.rec.records]
    assert any(r.type == "message_received" for r in every.rec.records)
    # (Since a navy's ships relay only its own traffic, fewer ships are tried at all, and the bounds save
    # a smaller share of fewer placings: some two in five.)
    assert n_bounded < 0.7 * placed["n"]


def test_a_ship_is_ruled_out_only_on_the_plan_she_was_placed_on() -> None:
    """The bound holds only while the plan's stamp is the one she was placed with: a new plan (a new
    leg, a change of speed) makes the search place her again."""
    env, _, net = network()
    plan = {"stamp": "leg 1", "speed_kn": 10.0}
    net.register("Ship", "Entente", "Britain", lambda t: (36.0, 15.0), wireless="light_cruiser",
                 plan=lambda: (plan["stamp"], plan["speed_kn"]))
    v = net._node("Ship")
    far = net._xyz((36.0, 25.0))  # ~480 nm east
    net._place({}, v, 0.0)
    limit_m = 100 * 1852.0
    assert net._out_of_reach(v, far, 60.0, limit_m)  # 10 nm in an hour: still far beyond 100 nm
    # At 10 kn she may have closed the gap beyond the limit (the chord, less the margin) from then on.
    here = net._xyz((36.0, 15.0))
    t_may_m = (math.dist(here, far) - limit_m - BOUND_MARGIN_M) / (10.0 * M_PER_NM / 60.0)
    assert net._out_of_reach(v, far, t_may_m - 1.0, limit_m)
    assert not net._out_of_reach(v, far, t_may_m + 1.0, limit_m)
    plan["stamp"] = "leg 2"
    assert not net._out_of_reach(v, far, 60.0, limit_m)  # re-planned: place her again


@pytest.mark.parametrize("seed", [1])
def test_the_held_light_and_the_short_chord_change_no_route(seed, monkeypatch) -> None:
    """The world's network judges night by ``night_hold`` (an answer stands at a place while the sun
    cannot reach the threshold), and takes a chord short enough as proof of range: every record of a run
    is what asking ``is_night`` afresh and measuring every geodesic gives, and most questions of the
    light are saved."""
    from campaign.batch.replicate import scenario_of
    from campaign.paths import SCENARIO_DIR
    from campaign.world import light, radio_range
    from campaign.world import signals as signals_module
    from campaign.world.world import World

    scenario = scenario_of(str(SCENARIO_DIR / "goeben_1914.yaml"), "base")
    asked = {"held": 0, "afresh": 0}
    night_and_hold = light.night_and_hold

    def held(lat, lon, when):
        asked["held"] += 1
        return night_and_hold(lat, lon, when)

    def afresh(lat, lon, when):
        asked["afresh"] += 1
        return light.is_night(lat, lon, when)

    monkeypatch.setattr(light, "night_and_hold", held)
    quick = World(scenario, seed)
    quick.run()
    monkeypatch.setattr(light, "night_and_hold", None)
    original_init = SignalNetwork.__init__

    def without_hold(self, *args, **kwargs):
        kwargs.pop("night_hold", None)
        original_init(self, *args, is_night=afresh, **kwargs)

    monkeypatch.setattr(SignalNetwork, "__init__", without_hold)
    monkeypatch.setattr(signals_module, "within_chord_m", lambda range_nm: -1.0)  # no chord is proof
    assert radio_range.within_chord_m(100.0) > 0  # the module's own is untouched
    slow = World(scenario, seed)
    slow.run()
    assert [repr(r) for r in quick.rec.records] == [repr(r) for r in slow.rec.records]
    assert any(r.type == "message_received" for r in slow.rec.records)
    assert asked["held"] < 0.7 * asked["afresh"]  # fewer relays by own navies only leave less to hold


def test_a_route_search_asks_a_ship_for_her_plan_once() -> None:
    """Within one route search no time passes: a ship found still on the plan she was placed on is not
    asked for it again at every hop that rules her out."""
    env, _, net = network()
    calls = {"n": 0}

    def plan():
        calls["n"] += 1
        return "leg 1", 10.0

    net.register("Ship", "Entente", "United Kingdom", lambda t: (36.0, 25.0), wireless="light_cruiser", plan=plan)
    v = net._node("Ship")
    net._place({}, v, 0.0)
    calls["n"] = 0
    near, limit_m = net._xyz((36.0, 15.0)), 100 * 1852.0
    same_plan: set[str] = set()
    assert all(net._out_of_reach(v, near, 60.0 + k, limit_m, same_plan) for k in range(5))
    assert calls["n"] == 1 and same_plan == {v.key}
    assert net._out_of_reach(v, near, 60.0, limit_m)  # without a search's memo: asked every time
    assert calls["n"] == 2


@pytest.mark.parametrize("seed", [2])
def test_the_light_alone_decides_a_chord_between_the_day_and_night_ranges(seed, monkeypatch) -> None:
    """A route search takes a chord surely beyond the shorter range of a set and surely within the longer
    as the geodesic's place between them, and lets the light decide, as the geodesic would: every record
    of a run is what measuring the geodesic of every such set gives, and most geodesics are saved."""
    from campaign.batch.replicate import scenario_of
    from campaign.paths import SCENARIO_DIR
    from campaign.world import signals as signals_module
    from campaign.world.world import World

    scenario = scenario_of(str(SCENARIO_DIR / "goeben_1914.yaml"), "base")
    measured = {"n": 0}
    geodesic = signals_module.distance_nm

    def counted(*args):
        measured["n"] += 1
        return geodesic(*args)

    monkeypatch.setattr(signals_module, "distance_nm", counted)
    quick = World(scenario, seed)
    quick.run()
    n_quick, measured["n"] = measured["n"], 0
    monkeypatch.setattr(signals_module, "beyond_chord_m", lambda range_nm: math.inf)  # no chord is proof
    slow = World(scenario, seed)
    slow.run()
    assert [repr(r) for r in quick.rec.records] == [repr(r) for r in slow.rec.records]
    assert any(r.type == "message_received" for r in slow.rec.records)
    assert n_quick < 0.5 * measured["n"]


@settings(max_examples=40, deadline=None)
@given(dist=st.one_of(st.floats(min_value=140.0, max_value=260.0), st.sampled_from([150.0, 250.0])),
       bearing=st.floats(min_value=0.0, max_value=360.0), is_dark=st.booleans(), moving=st.booleans())
def test_a_set_between_the_day_and_night_ranges_is_reached_only_in_the_light_that_carries(
        dist: float, bearing: float, is_dark: bool, moving: bool) -> None:
    """Between a capital set's day range (150 nm) and night range (250 nm) the light decides; at the
    edges the geodesic does. The sender may be a ship that moves (placed by the search) or lie still."""
    env, rec, net = network(is_night=night if is_dark else day)
    b = at(dist, bearing)
    # A sender steaming at 1 kn northward, or lying at BASE, with the receiver where it stands at keying.
    position = (lambda t: (BASE[0] + t * 1e-9, BASE[1])) if moving else fixed(BASE)
    net.register("A", "Entente", "United Kingdom", position, wireless="capital",
                 plan=(lambda: ("leg", 1.0)) if moving else None)
    net.register("B", "Entente", "United Kingdom", fixed(b), wireless="capital")
    msg = net.send("A", "B", "report", {}, WORDS)
    env.run(until=100)
    reach = 250 if is_dark else 150
    key_min = net.data.wireless.encipher_min + net.data.wireless.transmit_min(WORDS)
    d = distance_nm(*position(key_min), *b)
    assert (received(rec, msg) is not None) == (d <= reach)


def test_a_ship_is_not_asked_where_she_is_when_her_plan_says_it_cannot_have_changed() -> None:
    """The search asks a ship's position again only when her plan has changed, or moves her and the
    minute differs: lying still (speed 0) on the same plan, or asked at the same minute, she is where she
    was placed, and the place given back is the one her position gives."""
    env, _, net = network()
    plan = {"stamp": ("in port", 36.0, 15.0), "speed_kn": 0.0}
    asked = {"n": 0}
    where = {"p": (36.0, 15.0)}

    def position(t: float) -> tuple[float, float]:
        asked["n"] += 1
        return where["p"]

    net.register("Ship", "Entente", "United Kingdom", position, wireless="light_cruiser",
                 plan=lambda: (plan["stamp"], plan["speed_kn"]))
    v = net._node("Ship")
    first = net._place({}, v, 0.0)
    assert asked["n"] == 1 and first == ((36.0, 15.0), net._xyz((36.0, 15.0)))
    assert net._place({}, v, 500.0) == first and asked["n"] == 1  # lying still: not asked again
    # She sails: a new plan, at 10 kn, so she is asked (and is where her position says).
    plan["stamp"], plan["speed_kn"], where["p"] = ("leg 1", 36.0, 15.0), 10.0, (36.1, 15.0)
    moved = net._place({}, v, 600.0)
    assert asked["n"] == 2 and moved == ((36.1, 15.0), net._xyz((36.1, 15.0)))
    assert net._place({}, v, 600.0) == moved and asked["n"] == 2  # the same minute, the same plan
    where["p"] = (36.2, 15.0)
    assert net._place({}, v, 601.0) == ((36.2, 15.0), net._xyz((36.2, 15.0))) and asked["n"] == 3  # she moves


def test_a_shore_station_tries_only_the_ships_sets() -> None:
    """Shore stations work ships, not each other: the search's list for a shore station is the list of
    wireless ends without the shore stations, in the same order."""
    from campaign.world.signal_data import default_signal_data

    env, _, net = network(data=default_signal_data())
    net.register("A", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    net.register("B", "Entente", "United Kingdom", fixed(at(100)), wireless="capital")
    a = net._node("A")
    reach = net._reach(a, net._node("B"))
    assert any(r[5] for r in reach.radios) and any(not r[5] for r in reach.radios)
    assert reach.ship_radios == tuple(r for r in reach.radios if r[0].kind != "shore")


def test_a_set_is_covered_by_one_tried_that_reaches_as_far_and_tries_as_many() -> None:
    """At one place and minute a set's hops add nothing when a set tried there reaches at least as far
    by day and by night, and tried every end this one may (a shore station's tries only ships' sets)."""
    from campaign.world.signals import _covered

    sets = default_signal_data().sets
    capital, cruiser = sets["capital"], sets["light_cruiser"]
    assert not _covered([], cruiser, shore=False)
    assert _covered([(capital.day_nm, capital.night_nm, False)], cruiser, shore=False)
    assert _covered([(cruiser.day_nm, cruiser.night_nm, False)], cruiser, shore=False)
    assert not _covered([(cruiser.day_nm, cruiser.night_nm, False)], capital, shore=False)
    # Farther by day but not by night: the light may decide otherwise.
    assert not _covered([(capital.day_nm, cruiser.night_nm - 1.0, False)], cruiser, shore=False)
    # A shore station tried only the ships' sets: it covers another shore station, not a ship.
    assert not _covered([(capital.day_nm, capital.night_nm, True)], cruiser, shore=False)
    assert _covered([(capital.day_nm, capital.night_nm, True)], cruiser, shore=True)
    assert _covered([(capital.day_nm, capital.night_nm, False)], cruiser, shore=True)


def test_ships_lying_together_try_their_hops_once_and_the_route_is_the_same(monkeypatch) -> None:
    """Two cruisers and a battleship lying at one place 100 nm from the sender are reached at one minute:
    the second cruiser's hops are not tried (the first's reach as far), the battleship's are, and the
    route found (through the battleship, the only one reaching the addressee 140 nm beyond) and its times
    are what trying every set gives."""
    from campaign.world import signals as signals_module

    original = signals_module._covered

    def sent(covering: bool) -> tuple[list, list[bool]]:
        answers: list[bool] = []

        def counted(tried, v_set, shore):
            answers.append(original(tried, v_set, shore) if covering else False)
            return answers[-1]

        monkeypatch.setattr(signals_module, "_covered", counted)
        env, rec, net = network()
        net.register("S", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
        port = at(100)
        for name, kind in (("C1", "light_cruiser"), ("C2", "light_cruiser"), ("B", "capital")):
            net.register(name, "Entente", "United Kingdom", fixed(port), wireless=kind)
        net.register("T", "Entente", "United Kingdom", fixed(at(240)), wireless="capital")
        msg = net.send("S", "T", "report", {}, WORDS)
        env.run(until=500)
        assert received(rec, msg) is not None
        return [repr(r) for r in rec.records], answers

    records, answers = sent(covering=True)
    every, tried_all = sent(covering=False)
    assert records == every
    assert "'from': 'B', 'to': 'T'" in records[-1]
    assert answers == [False, False, True, False]  # S; C1; C2, covered by C1; B, which reaches farther
    assert len(tried_all) == 4


@pytest.mark.parametrize("seed", [1])
def test_sets_covered_at_their_place_and_minute_change_no_route(seed, monkeypatch) -> None:
    """In the historical campaign ships lying in one port (at Malta above all) are reached together:
    every record of a run is what trying every set's hops gives, and many sets are not tried."""
    from campaign.batch.replicate import scenario_of
    from campaign.paths import SCENARIO_DIR
    from campaign.world import signals as signals_module
    from campaign.world.world import World

    scenario = scenario_of(str(SCENARIO_DIR / "goeben_1914.yaml"), "base")
    original = signals_module._covered
    covered = {"n": 0, "asked": 0}

    def counted(tried, v_set, shore):
        covered["asked"] += 1
        answer = original(tried, v_set, shore)
        covered["n"] += answer
        return answer

    monkeypatch.setattr(signals_module, "_covered", counted)
    quick = World(scenario, seed)
    quick.run()
    monkeypatch.setattr(signals_module, "_covered", lambda tried, v_set, shore: False)
    slow = World(scenario, seed)
    slow.run()
    assert [repr(r) for r in quick.rec.records] == [repr(r) for r in slow.rec.records]
    assert any(r.type == "message_received" for r in slow.rec.records)
    # (Fewer since a navy's ships relay only its own traffic: the French fleet lying at Toulon is no
    # longer tried for British messages.)
    assert covered["n"] > 0.1 * covered["asked"]


def test_a_set_reached_as_soon_already_is_not_measured_again(monkeypatch) -> None:
    """Two ships in range of the sender are reached at one minute; when the first relays, the second is
    reached already as soon as that hop could reach her, so she is not measured from there (nor her plan
    asked): the route goes on through the first alone, as it must."""
    env, rec, net = network()
    asked: list[str] = []
    original = SignalNetwork._out_of_reach

    def counted(self, u, xyz, t, limit_m, same_plan=None):
        asked.append(u.label)
        return original(self, u, xyz, t, limit_m, same_plan)

    monkeypatch.setattr(SignalNetwork, "_out_of_reach", counted)
    net.register("S", "Entente", "United Kingdom", fixed(BASE), wireless="capital")
    for name, bearing in (("R1", 90.0), ("R2", 180.0)):
        net.register(name, "Entente", "United Kingdom", fixed(at(100, bearing)), wireless="capital",
                     plan=lambda: ("lying still", 0.0))
    net.register("T", "Entente", "United Kingdom", fixed(at(220)), wireless="capital")  # 120 nm beyond R1
    msg = net.send("S", "T", "report", {}, WORDS)
    assert asked.count("R1") == 1 and asked.count("R2") == 1  # from the sender only
    env.run(until=500)
    r = received(rec, msg)
    assert [(h["from"], h["to"]) for h in r.data["route"]] == [("S", "R1"), ("R1", "T")]
    assert r.data["delay_min"] == pytest.approx(wireless_min(net.data, relays=1))
