"""What each side saw and said, for the replay: sightings, messages, pictures and the views that show them.

From the records alone (every output can be rebuilt from them):

* **contacts** (``sighting`` / ``contact_lost``): one segment per pair of forces and level of contact,
  from the record that opened it to the next record of the pair (or the end). The page draws a line
  from the observer force to the target force, each where the tracks put the ships whose ``force`` is
  that name at the frame's time; where no ship carries the name the line falls back to the positions of
  the record (the observer's, and the target's from the record's range and bearing).
* **messages** (``message_sent`` joined to ``message_received`` or ``message_lost`` by ``id``): a line
  from sender to receiver while the message travels, labelled with its delay. A node is drawn where it
  is: a force where its ships are; a headquarters aboard a ship where that ship is (inferred from the
  positions on the node's own records: the ship found there each time); a headquarters ashore at the
  fixed position of its records.
* **pictures** (``picture``): per side, what its commands believe about each enemy contact. The page's
  side view takes, for each ``about``, the report with the latest ``seen`` among that side's records up
  to the frame's time (a ``replaces`` field, when present, retires the earlier label of a contact now
  recognised), and draws it as a ghost at the reported position, dead-reckoned along the reported course
  and speed, in a circle of doubt that grows as :meth:`campaign.command.picture.Picture.estimate` grows
  it: at the fastest enemy speed (28 kn), plus the reported speed when the position is dead-reckoned.
  An intercept (no position) shades its sea area (``data/sea_areas.yaml``).
* **views**: "Truth", then one per side that saw, signalled or learnt anything ("Entente's picture").

Texts stay plain here; the page escapes them for Plotly and sets the panels' text with ``textContent``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import shapely

from campaign.clock import parse_utc
from campaign.command.picture import MAX_ENEMY_SPEED_KN
from campaign.output import replay_map as rmap
from campaign.output.replay_events import KIND_WORDS, deliveries, quoted
from campaign.output.replay_frames import FrameStates

CONTACT_LEVELS = ("smoke", "ships", "recognised")
INTEL_TYPES = frozenset({"sighting", "contact_lost", "picture", "message_sent", "message_received",
                         "message_lost", "intercept", "jamming_start"})
NODE_MATCH_NM = 3.0  # a headquarters' record this close to a ship is taken to be aboard her
AREA_SIMPLIFY_DEG = 0.02
INTERCEPT_SHOW_MIN = 12 * 60.0  # an intercepted area is shaded for half a day after it was heard
DOUBT_MAX_NM = 600.0  # beyond this the circle of doubt covers the chart: the hover gives the figure
GHOST_FADE_MIN = 48 * 60.0  # a ghost fades to its faintest over two days
GHOST_LABEL_MAX_MIN = 24 * 60.0  # and loses its label after one (its hover stays)


def _f(x: Any, digits: int = 4) -> float | None:
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return round(v, digits) if np.isfinite(v) else None


def _minutes(iso: Any, start: datetime) -> float | None:
    try:
        return round((parse_utc(str(iso)) - start).total_seconds() / 60.0, 3)
    except (TypeError, ValueError):
        return None


def _row(times: np.ndarray, t_min: float) -> int:
    """The frame at or nearest to ``t_min``."""
    i = int(np.clip(np.searchsorted(times, t_min), 0, len(times) - 1))
    if i > 0 and abs(times[i - 1] - t_min) < abs(times[i] - t_min):
        i -= 1
    return i


def _forward(lat: float, lon: float, bearing_deg: float, dist_nm: float) -> tuple[float, float]:
    """Great-circle destination on a sphere (the page does the same for dead reckoning)."""
    r = 3440.065
    p1, l1, b, d = np.radians(lat), np.radians(lon), np.radians(bearing_deg), dist_nm / r
    p2 = np.arcsin(np.sin(p1) * np.cos(d) + np.cos(p1) * np.sin(d) * np.cos(b))
    l2 = l1 + np.arctan2(np.sin(b) * np.sin(d) * np.cos(p1), np.cos(d) - np.sin(p1) * np.sin(p2))
    return float(np.degrees(p2)), float(np.degrees(l2))


def possessive(name: str) -> str:
    """"Entente's", "Central Powers'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def intel_sides(events: Sequence[Mapping[str, Any]], sides: Sequence[str]) -> list[int]:
    """Indices (into ``sides``) of the sides that sighted, signalled or learnt anything."""
    seen = {str(r["side"]) for r in events if r.get("type") in INTEL_TYPES and r.get("side")}
    return [i for i, s in enumerate(sides) if s in seen]


class Strings:
    """A table of the strings the intel columns share (names, texts repeated by many records): each column
    holds an index into ``values``, so a name or a routine report's text is written into the page once."""

    def __init__(self) -> None:
        self.values: list[str] = []
        self._index: dict[str, int] = {}

    def id(self, text: Any) -> int:
        """The index of ``text`` (-1 for None)."""
        if text is None:
            return -1
        key = str(text)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self.values)
            self.values.append(key)
        return i


# ------------------------------------------------------------------------------------------ contacts


def contacts(events: Sequence[Mapping[str, Any]], force_ids: Mapping[str, int], side_index: Mapping[str, int],
             end_min: float, st: Strings) -> dict[str, list[Any]]:
    """Contact segments as columns: ``t0``, ``t1`` (minutes), ``obs``/``tgt`` (force string ids, -1 when
    no ship carries the name) and ``on``/``tn`` (their names), ``level`` (index into CONTACT_LEVELS),
    ``side`` (the observer's), fallback positions ``olat``/``olon``/``tlat``/``tlon``, and what was made
    out (``what``), ``range``, ``bearing`` and ``light`` for the hover."""
    cols: dict[str, list[Any]] = {k: [] for k in ("t0", "t1", "obs", "tgt", "on", "tn", "level", "side", "olat",
                                                  "olon", "tlat", "tlon", "what", "range", "bearing", "light")}
    open_: dict[tuple[str, str], int] = {}
    for rec in events:
        type_ = rec.get("type")
        if type_ not in ("sighting", "contact_lost"):
            continue
        pair = (str(rec.get("observer") or rec.get("force") or rec.get("unit")), str(rec.get("target")))
        t = float(rec["t_min"])
        if pair in open_:
            cols["t1"][open_.pop(pair)] = round(t, 3)
        if type_ == "contact_lost" or rec.get("level") not in CONTACT_LEVELS:
            continue
        olat, olon = _f(rec.get("lat")), _f(rec.get("lon"))
        tlat = tlon = None
        if olat is not None and olon is not None and rec.get("bearing_deg") is not None \
                and rec.get("range_nm") is not None:
            tlat, tlon = _forward(olat, olon, float(rec["bearing_deg"]), float(rec["range_nm"]))
            tlat, tlon = round(tlat, 4), round(tlon, 4)
        seen = rec.get("recognised")
        what = ", ".join(str(s) for s in seen) if isinstance(seen, list) else str(seen or rec.get("level"))
        if what != rec.get("level"):
            what += f" ({rec.get('level')})"
        open_[pair] = len(cols["t0"])
        for k, v in (("t0", round(t, 3)), ("t1", round(end_min, 3)), ("obs", force_ids.get(pair[0], -1)),
                     ("tgt", force_ids.get(pair[1], -1)), ("on", st.id(pair[0])), ("tn", st.id(pair[1])),
                     ("level", CONTACT_LEVELS.index(rec["level"])),
                     ("side", side_index.get(str(rec.get("side")), -1)), ("olat", olat), ("olon", olon),
                     ("tlat", tlat), ("tlon", tlon), ("what", st.id(what)), ("range", _f(rec.get("range_nm"), 1)),
                     ("bearing", _f(rec.get("bearing_deg"), 0)),
                     ("light", st.id(str(rec.get("light") or "").replace("_", " ")))):
            cols[k].append(v)
    return cols


# ------------------------------------------------------------------------------------------ messages


def _aboard(events: Sequence[Mapping[str, Any]], fs: FrameStates, force_ids: Mapping[str, int]) -> dict[str, int]:
    """Headquarters (nodes that are no force) aboard a ship: node -> unit column, by the ship found at the
    node's own recorded positions most often."""
    votes: dict[str, Counter[int]] = {}
    for rec in events:
        node = rec.get("unit")
        if (not str(rec.get("type", "")).startswith(("message_", "intercept", "jamming_")) or not node
                or node in force_ids or rec.get("lat") is None):
            continue
        k = _row(fs.t_min, float(rec["t_min"]))
        dlat = (fs.lat[k] - float(rec["lat"])) * 60.0
        dlon = (fs.lon[k] - float(rec["lon"])) * 60.0 * np.cos(np.radians(float(rec["lat"])))
        near = np.nonzero(np.hypot(dlat, dlon) <= NODE_MATCH_NM)[0]
        votes.setdefault(str(node), Counter()).update(int(j) for j in near)
    return {node: c.most_common(1)[0][0] for node, c in votes.items() if c}


def route_text(route: Any) -> str:
    """"by land line to Porthcurno, cable to Gibraltar, wireless to Milne" (local hand-overs left out)."""
    hops = [h for h in (route or []) if isinstance(h, Mapping) and h.get("by") != "local"]
    if not hops:
        return ""
    return "by " + ", ".join(f"{str(h.get('by', '')).replace('_', ' ')} to {h.get('to')}"
                             + (f" (stand-in: {h['stand_in']})" if h.get("stand_in") else "") for h in hops)


def messages(events: Sequence[Mapping[str, Any]], fs: FrameStates, force_ids: Mapping[str, int],
             side_index: Mapping[str, int], end_min: float, st: Strings) -> dict[str, list[Any]]:
    """Messages as columns: ``id``, ``t0`` (sent), ``t1`` (received, lost, or the end), ``state`` (0
    received, 1 lost, 2 still travelling), ``side`` (the sender's), endpoints ``a``/``b`` (``[force id,
    unit, lat, lon]``: the page uses the force's ships if the id is >= 0, else the unit if >= 0, else the
    position), and for the hover ``snd``, ``rcv``, ``kind``, ``text`` (quoted, cut to 200 characters),
    ``route`` and ``why`` (a loss's reason). The delay is ``t1 - t0`` (``delay_min`` of the arrival)."""
    got = deliveries(events)
    aboard = _aboard(events, fs, force_ids)
    cols: dict[str, list[Any]] = {k: [] for k in ("id", "t0", "t1", "state", "side", "a", "b", "snd", "rcv",
                                                  "kind", "text", "route", "why")}

    def endpoint(node: str, rec: Mapping[str, Any] | None) -> list[Any]:
        lat = _f(rec.get("lat")) if rec is not None else None
        lon = _f(rec.get("lon")) if rec is not None else None
        return [force_ids.get(node, -1), aboard.get(node, -1), lat, lon]

    for rec in events:
        if rec.get("type") != "message_sent":
            continue
        mid = str(rec.get("id"))
        d = got.get(mid, {})
        sender, receiver = str(rec.get("sender") or rec.get("unit")), str(rec.get("receiver"))
        t0 = float(rec["t_min"])
        if d.get("received"):
            state, t1, why = 0, float(d["t_min"]), None
        elif d.get("lost"):
            state, t1, why = 1, float(d["t_min"]), d.get("reason") or "no route"
        else:
            state, t1, why = 2, end_min, None
        arrival = d.get("record") if state == 0 else None
        route = route_text((arrival or {}).get("route") or rec.get("route"))
        a = endpoint(sender, rec)
        b = endpoint(receiver, arrival)
        if b[2] is None and b[0] < 0 and b[1] < 0:
            continue  # a headquarters that never received it and was never seen: nowhere to draw to
        for k, v in (("id", mid), ("t0", round(t0, 3)), ("t1", round(t1, 3)), ("state", state),
                     ("side", side_index.get(str(rec.get("side")), -1)), ("a", a), ("b", b),
                     ("snd", st.id(sender)), ("rcv", st.id(receiver)),
                     ("kind", st.id(KIND_WORDS.get(str(rec.get("kind")), "message"))),
                     ("text", st.id(quoted(rec.get("text"), 200))), ("route", st.id(route)), ("why", st.id(why))):
            cols[k].append(v)
    return cols


# ------------------------------------------------------------------------------------------ pictures


def pictures(events: Sequence[Mapping[str, Any]], view_sides: Sequence[int], side_index: Mapping[str, int],
             unit_names: Sequence[str], unit_sides: Sequence[int], unit_types: Sequence[str],
             type_rank: Mapping[str, int], symbols: Mapping[str, str], start: datetime,
             area_index: dict[str, int], st: Strings) -> dict[str, Any]:
    """Per viewing side (keyed by its index as a string), the picture records in time order as columns:
    ``t``, ``seen`` (minutes), ``about``, ``node``, ``source``, ``level`` (string ids), ``lat``/``lon``
    (None for an intercept), ``course``, ``speed``, ``ships`` (string id of the names joined, -1),
    ``area`` (index into the areas, -1), ``colour`` (side index of the contact, -1 unknown), ``symbol``
    (string id) and ``replaces`` (string id, -1)."""
    unit_of = {n: j for j, n in enumerate(unit_names)}
    out: dict[str, Any] = {}
    keys = ("t", "seen", "about", "node", "source", "level", "lat", "lon", "course", "speed", "ships", "area",
            "colour", "symbol", "replaces")
    for s in view_sides:
        out[str(s)] = {k: [] for k in keys}
    for rec in events:
        if rec.get("type") != "picture":
            continue
        s = side_index.get(str(rec.get("side")), -1)
        if str(s) not in out:
            continue
        cols = out[str(s)]
        ships = [str(x) for x in (rec.get("ships") or [])]
        js = [unit_of[x] for x in ships if x in unit_of]
        colour = unit_sides[js[0]] if js else -1
        symbol = "circle"
        if js:
            best = min(js, key=lambda j: type_rank.get(unit_types[j], 99))
            symbol = symbols.get(unit_types[best], "circle")
        area = -1
        if rec.get("lat") is None and rec.get("sea"):
            key = f"{rec['sea']}|{rec.get('area') or ''}"
            area = area_index.setdefault(key, len(area_index))
        seen = _minutes(rec.get("seen"), start)
        for k, v in (("t", round(float(rec["t_min"]), 3)),
                     ("seen", round(float(rec["t_min"]), 3) if seen is None else seen),
                     ("about", st.id(rec.get("about") or "?")), ("node", st.id(rec.get("node") or "?")),
                     ("source", st.id(rec.get("source") or "")), ("level", st.id(rec.get("level") or "")),
                     ("lat", _f(rec.get("lat"))), ("lon", _f(rec.get("lon"))),
                     ("course", _f(rec.get("course_deg"), 1)), ("speed", _f(rec.get("speed_kn"), 2)),
                     ("ships", st.id(" & ".join(ships)) if ships else -1), ("area", area), ("colour", colour),
                     ("symbol", st.id(symbol)), ("replaces", st.id(rec.get("replaces")))):
            cols[k].append(v)
    return out


def area_shapes(area_index: Mapping[str, int], box: rmap.Extent) -> list[dict[str, Any]]:
    """The sea areas named by intercepts, clipped to the chart's box: ``sea``, ``area``, ``x``/``y`` (rings
    separated by None) and a label point ``lx``/``ly``. Areas not on the bundled map get no shape."""
    from campaign.world.sea_areas import default_sea_areas

    known = {(a.sea, a.letter): a.polygon for a in default_sea_areas().areas}
    out: list[dict[str, Any]] = [{} for _ in area_index]
    for key, i in area_index.items():
        sea, letter = key.split("|", 1)
        shape: dict[str, Any] = {"sea": sea, "area": letter, "x": [], "y": [], "lx": None, "ly": None}
        poly = known.get((sea, letter))
        if poly is not None:
            clip = shapely.clip_by_rect(poly, box.lon0, box.lat0, box.lon1, box.lat1)
            clip = shapely.simplify(clip, AREA_SIMPLIFY_DEG, preserve_topology=True)
            for part in shapely.get_parts(clip):
                if part.geom_type != "Polygon" or part.is_empty:
                    continue
                c = np.round(np.asarray(part.exterior.coords), 3)
                shape["x"] += c[:, 0].tolist() + [None]
                shape["y"] += c[:, 1].tolist() + [None]
            if not clip.is_empty:
                p = clip.point_on_surface()
                shape["lx"], shape["ly"] = round(p.x, 3), round(p.y, 3)
        out[i] = shape
    return out


def intel_payload(events: Sequence[Mapping[str, Any]], fs: FrameStates, sides: Sequence[str],
                  unit_names: Sequence[str], unit_sides: Sequence[int], unit_types: Sequence[str],
                  type_rank: Mapping[str, int], symbols: Mapping[str, str], start: datetime, end_min: float,
                  box: rmap.Extent) -> dict[str, Any]:
    """Everything the page needs to draw contacts, messages and each side's picture (see the module)."""
    names = set(_force_names(fs))
    force_ids = {name: i for i, name in enumerate(fs.strings) if name in names}
    side_index = {s: i for i, s in enumerate(sides)}
    view_sides = intel_sides(events, sides)
    area_index: dict[str, int] = {}
    st = Strings()
    pics = pictures(events, view_sides, side_index, unit_names, unit_sides, unit_types, type_rank, symbols,
                    start, area_index, st)
    cont = contacts(events, force_ids, side_index, end_min, st)
    views = [{"name": "Truth", "side": -1}]
    views += [{"name": f"{possessive(sides[s])} picture", "side": s, "owner": possessive(sides[s])}
              for s in view_sides]
    return {
        "contacts": cont, "enemy": _enemy_sides(cont, fs, unit_sides, view_sides),
        "messages": messages(events, fs, force_ids, side_index, end_min, st),
        "pictures": pics, "areas": area_shapes(area_index, box), "views": views,
        "contact_levels": list(CONTACT_LEVELS), "max_enemy_speed_kn": MAX_ENEMY_SPEED_KN,
        "intercept_show_min": INTERCEPT_SHOW_MIN, "doubt_max_nm": DOUBT_MAX_NM,
        "ghost_fade_min": GHOST_FADE_MIN, "label_max_min": GHOST_LABEL_MAX_MIN, "s": st.values,
    }


def _enemy_sides(cont: Mapping[str, list[Any]], fs: FrameStates, unit_sides: Sequence[int],
                 view_sides: Sequence[int]) -> dict[str, int]:
    """Per viewing side, the side it most often had in sight (the colour of the contacts it could not
    recognise); failing that the one other viewing side; else -1 (grey)."""
    force_side: dict[int, int] = {}
    ks, js = np.nonzero(fs.force >= 0)
    for k, j in zip(ks.tolist(), js.tolist()):
        force_side.setdefault(int(fs.force[k, j]), int(unit_sides[j]))
    out: dict[str, int] = {}
    for s in view_sides:
        seen = Counter(force_side[t] for t, o in zip(cont["tgt"], cont["side"])
                       if o == s and t in force_side and force_side[t] != s)
        others = [x for x in view_sides if x != s]
        out[str(s)] = seen.most_common(1)[0][0] if seen else (others[0] if len(others) == 1 else -1)
    return out


def _force_names(fs: FrameStates) -> list[str]:
    used = np.unique(fs.force[fs.force >= 0])
    return [fs.strings[int(i)] for i in used]


__all__ = ["CONTACT_LEVELS", "Strings", "contacts", "intel_payload", "intel_sides", "messages", "pictures",
           "route_text"]
