"""Load a scenario file: check its form and its meaning, and resolve it into a ``Scenario``.

Every fault is reported with the file, the field (as a path such as ``forces[0].orders[2].to``) and
what is wrong, in one ``ScenarioError`` listing all the faults found, so that a user can mend the file
in one pass.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Any, get_args

import shapely
from pydantic import ValidationError

from campaign import userfile
from campaign.clock import Clock, parse_utc
from campaign.geo.land import default_land
from campaign.geo.places import Gazetteer, default_places, parse_point
from campaign.geo.regions import restricted_waters, sovereigns, territorial_belt
from campaign.model import orders as o
from campaign.model.politics import PoliticalEvent, Politics
from campaign.model.ships import Ship, ShipType, default_ships, find_ship
from campaign.scenario import overlay as ov
from campaign.scenario import schema as s
from campaign.scenario.model import Factors, ForceSpec, NeutralNotice, Scenario, Variant
from campaign.scenario.wording import merged, plain


@dataclass(frozen=True)
class Fault:
    field: str
    fault: str


class ScenarioError(ValueError):
    """A scenario file that cannot be run: names the file and each faulty field."""

    def __init__(self, path: Path | str, faults: list[Fault]) -> None:
        self.path = str(path)
        self.faults = faults
        lines = [f"{self.path}: {f.field}: {f.fault}" if f.field else f"{self.path}: {f.fault}" for f in faults]
        super().__init__("\n".join(lines))


def _loc(loc: tuple[Any, ...], raw: Any, missing: bool) -> str:
    """A pydantic error location as a readable field path, naming forces by name where possible.

    Parts that are not keys of the file (the tags pydantic gives the members of a union, such as
    ``sail`` or ``float``) are left out.
    """
    out = ""
    node = raw
    for k, part in enumerate(loc):
        last = k == len(loc) - 1
        if isinstance(part, int):
            out += f"[{part}]"
            if isinstance(node, list) and part < len(node):
                node = node[part]
                if isinstance(node, dict) and isinstance(node.get("name"), str) and out.startswith("forces[") \
                        and out.count("[") == 1:
                    out += f" ({node['name']})"
            else:
                node = None
            continue
        if not isinstance(node, dict) or (part not in node and not (last and missing)):
            continue
        out += f".{part}" if out else str(part)
        node = node.get(part) if isinstance(node, dict) else None
    return out


def read_yaml(path: Path) -> Any:
    """A user's YAML file, read within the limits of ``campaign.userfile`` (size, a regular file, UTF-8,
    no key given twice, no absurd nesting); ScenarioError naming the file, line and fault otherwise."""
    try:
        return userfile.read_yaml(Path(path))
    except userfile.UserFileError as exc:
        raise ScenarioError(path, [Fault(exc.where, exc.fault)]) from None


def validate_form(path: Path, raw: Any, model: type = s.ScenarioModel) -> Any:
    """Check a file's form against a pydantic ``model`` (a scenario by default); every fault names
    its field."""
    if not isinstance(raw, dict):
        raise ScenarioError(path, [Fault("", "the file must hold a mapping of scenario fields")])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        faults = []
        for err in exc.errors():
            if err["type"] == "union_tag_invalid":
                msg = f"unknown order '{err.get('input', {}).get('do') if isinstance(err.get('input'), dict) else err.get('input')}'" \
                      " (expected sail, wait, coal, coal_from_collier, detach, bombard or stop)"
            elif err["type"] == "union_tag_not_found":
                msg = "an order needs 'do:' (sail, wait, coal, coal_from_collier, detach, bombard or stop)"
            else:
                msg = plain(err)
            faults.append((_loc(err["loc"], raw, err["type"] == "missing"), err["type"], msg))
        # One fault per field: the members of a union each give theirs ("not a number", "not one of
        # design, sustained, economical"); the telling one is kept, or they are joined.
        raise ScenarioError(path, [Fault(k, v) for k, v in merged(faults)]) from None


class _Resolver:
    """Checks the meaning of a validated file and builds the resolved scenario, collecting faults."""

    def __init__(self, path: Path, model: s.ScenarioModel, places: Gazetteer, ships: Any) -> None:
        self.path = path
        self.label: Path | str = path  # how faults name the file (an overlay names itself and its base)
        self.m = model
        self.places = places
        self.ships = ships
        self.faults: list[Fault] = []
        self.land = default_land()
        self.span_known = True  # start and end are good: times are checked against them

    def fault(self, field: str, fault: str) -> None:
        self.faults.append(Fault(field, fault))

    def time(self, field: str, value: Any, clock: Clock, start_min: float, end_min: float) -> float | None:
        try:
            t = clock.t_min(parse_utc(value))
        except (TypeError, ValueError):
            self.fault(field, f"'{value}' is not a UTC time such as 1914-08-04T23:00Z")
            return None
        if self.span_known and not (start_min - 1e-9 <= t <= end_min + 1e-9):
            if start_min < 0:  # a time that may be any before the start (politics in force from it)
                self.fault(field, f"{clock.iso(t)} is after the scenario's end ({clock.iso(end_min)})")
            else:
                self.fault(field, f"{clock.iso(t)} is outside the scenario ({clock.iso(start_min)} to "
                                  f"{clock.iso(end_min)})")
            return None
        return t

    def point(self, field: str, where: s.Where, *, must_be_sea: bool = True) -> o.Point | None:
        if isinstance(where, s.LatLon):
            lat, lon, name, place = where.lat, where.lon, where.name, None
        else:
            try:
                lat, lon, pname = parse_point(where, self.places)
            except (KeyError, ValueError) as exc:
                msg = exc.args[0] if exc.args else str(exc)
                self.fault(field, str(msg))
                return None
            name = place = pname
        if not self.land.contains_area(lat, lon):
            self.fault(field, f"{lat:.4f},{lon:.4f} is outside the charted area (lon {self.land.bounds[0]}.."
                              f"{self.land.bounds[2]}, lat {self.land.bounds[1]}..{self.land.bounds[3]})")
            return None
        if must_be_sea and self.land.is_land(lat, lon):
            self.fault(field, f"{lat:.4f},{lon:.4f} is on land")
            return None
        return o.Point(lat, lon, name, place)

    def outside(self, field: str, p: o.Point | None, avoid: list) -> o.Point | None:
        """The point, or None (with a fault) if it lies in waters the force must avoid."""
        if p is None:
            return None
        for area in avoid:
            if shapely.intersects_xy(area.geometry, p.lon, p.lat):
                self.fault(field, f"{p.label()} lies inside {area.key}, which this force must avoid")
                return None
        return p

    def orders(self, field: str, specs: list, clock: Clock, end_min: float, force_ships: set[str],
               force_names: set[str], avoid: list) -> tuple[o.Order, ...]:
        out: list[o.Order] = []
        last_t = 0.0
        for i, spec in enumerate(specs):
            f = f"{field}[{i}]"
            at = self.time(f"{f}.at", spec.at, clock, 0.0, end_min) if spec.at is not None else None
            if at is not None and at < last_t - 1e-9:
                self.fault(f"{f}.at", "is earlier than a time given in a previous order")
            last_t = max(last_t, at or 0.0)

            def until(name: str, value: Any, f: str = f) -> float | None:
                if value is None or value == "full":
                    return None
                return self.time(f"{f}.{name}", value, clock, 0.0, end_min)

            if isinstance(spec, s.SailOrder):
                to = self.outside(f"{f}.to", self.point(f"{f}.to", spec.to), avoid)
                via = tuple(self.outside(f"{f}.via[{k}]", self.point(f"{f}.via[{k}]", v), avoid)
                            for k, v in enumerate(spec.via))
                u = until("until", spec.until)
                if to is not None and all(v is not None for v in via):
                    out.append(o.Sail(to, spec.speed, via, at, u, spec.note))
            elif isinstance(spec, s.WaitOrder):
                u = until("until", spec.until)
                if u is not None:
                    out.append(o.Wait(u, at, spec.note))
            elif isinstance(spec, s.CoalOrder):
                out.append(o.Coal(until_min=until("until", spec.until), max_t=spec.max_t, hours=spec.hours,
                                  at_min=at, note=spec.note))
            elif isinstance(spec, s.CoalFromCollierOrder):
                if spec.collier not in force_names:
                    self.fault(f"{f}.collier", f"no force named '{spec.collier}'")
                out.append(o.CoalFromCollier(spec.collier, until_min=until("until", spec.until), max_t=spec.max_t,
                                             hours=spec.hours, at_min=at, note=spec.note))
            elif isinstance(spec, s.DetachOrder):
                missing = [n for n in spec.ships if n not in force_ships]
                if missing:
                    self.fault(f"{f}.ships", f"not in this force: {', '.join(missing)}")
                sub = self.orders(f"{f}.orders", spec.orders, clock, end_min, set(spec.ships), force_names, avoid)
                out.append(o.Detach(spec.name, tuple(spec.ships), sub, at, spec.note))
            elif isinstance(spec, s.BombardOrder):
                u = until("until", spec.until)
                town = self.town(f"{f}.town", spec.town)
                if town is not None and (spec.until is None or u is not None):
                    out.append(o.Bombard(town, until_min=u, hours=spec.hours, at_min=at, note=spec.note))
            elif isinstance(spec, s.StopOrder):
                out.append(o.Stop(at, spec.note))
        return tuple(out)

    def town(self, field: str, name: str) -> str | None:
        """The gazetteer name of a town to be shelled: a place with a sovereign (None, with a fault,
        for an unknown name or a point at sea)."""
        try:
            place = self.places.get(name)
        except KeyError as exc:
            self.fault(field, str(exc))
            return None
        if place.nation is None:
            self.fault(field, f"{place.name} has no sovereign in data/places.yaml: it is not a town to shell")
            return None
        return place.name

    def command(self, clock: Clock, end_min: float, force_names: set[str], force_avoid: dict,
                force_ships: dict[str, set[str]], entering: Mapping[str, float]) -> tuple:
        """Headquarters, standing instructions and historical messages, checked and resolved.

        ``entering``: the forces that come into the theatre after the start, and when (minutes): no
        headquarters rides in one, and no historical message is sent by or to one before it is there."""
        from campaign.scenario.model import HeadquartersSpec, MessageSpec
        from campaign.world.signal_data import default_signal_data

        cm = self.m.command
        hq_names = {h.name for h in cm.headquarters}
        for n in hq_names & force_names:
            self.fault("command.headquarters", f"'{n}' is the name of a force too")
        nodes = force_names | hq_names
        sides = set(self.m.sides)
        stations = default_signal_data()
        hqs = []
        for i, h in enumerate(cm.headquarters):
            f = f"command.headquarters[{i}] ({h.name})"
            if h.side not in sides:
                self.fault(f"{f}.side", f"unknown side '{h.side}'")
            if (h.station is None) == (h.aboard is None):
                self.fault(f, "give either station (ashore) or aboard (a force)")
            if h.station is not None:
                try:
                    stations.station(h.station)
                except KeyError:
                    self.fault(f"{f}.station", f"no telegraph station '{h.station}' in data/telegraph.yaml")
            if h.aboard is not None and h.aboard not in force_names:
                self.fault(f"{f}.aboard", f"no force named '{h.aboard}'")
            elif h.aboard in entering:
                self.fault(f"{f}.aboard", f"force '{h.aboard}' enters at {clock.iso(entering[h.aboard])}: "
                                          "a headquarters rides in a force there from the start")
            if h.superior is not None and h.superior not in hq_names:
                self.fault(f"{f}.superior", f"no headquarters named '{h.superior}'")
            for k, r in enumerate(h.relay_to):
                if r not in nodes:
                    self.fault(f"{f}.relay_to[{k}]", f"no force or headquarters named '{r}'")
            overlooks = []
            for k, name in enumerate(h.overlooks):
                try:
                    overlooks.append(self.places.get(name).name)
                except KeyError as exc:
                    self.fault(f"{f}.overlooks[{k}]", str(exc))
            if h.overlooks and (h.station is None or h.superior is None):
                self.fault(f"{f}.overlooks", "a headquarters overlooks places from ashore (station) and reports "
                                             "what it sees to its superior: give both")
            hqs.append(HeadquartersSpec(h.name, h.side, h.nation, h.station, h.aboard, h.superior,
                                        tuple(h.relay_to), h.note, tuple(overlooks)))
        standing = {}
        for name, sm in cm.standing.items():
            f = f"command.standing.{name}"
            if name not in force_names:
                self.fault(f, f"no force named '{name}'")
                continue
            standing[name] = self.standing(f, sm, force_names, nodes)
        messages = []
        for i, mm in enumerate(self.m.messages):
            f = f"messages[{i}]"
            t = self.time(f"{f}.at", mm.at, clock, 0.0, end_min)
            receivers = [mm.to] if isinstance(mm.to, str) else list(mm.to)
            if not receivers:
                self.fault(f"{f}.to", "name at least one receiver")
            if mm.sender not in nodes:
                self.fault(f"{f}.from", f"no force or headquarters named '{mm.sender}'")
            for k, who in enumerate(receivers):
                key = "to" if isinstance(mm.to, str) else f"to[{k}]"
                if who not in nodes:
                    self.fault(f"{f}.{key}", f"no force or headquarters named '{who}'")
                elif t is not None and t < entering.get(who, 0.0):
                    self.fault(f"{f}.{key}", f"'{who}' enters at {clock.iso(entering[who])}, after the message")
            if t is not None and t < entering.get(mm.sender, 0.0):
                self.fault(f"{f}.from", f"'{mm.sender}' enters at {clock.iso(entering[mm.sender])}, after the message")
            named = None if mm.orders_for is None else ([mm.orders_for] if isinstance(mm.orders_for, str)
                                                         else list(mm.orders_for))
            for k, who in enumerate(named or []):
                if who not in force_names:
                    key = "orders_for" if isinstance(mm.orders_for, str) else f"orders_for[{k}]"
                    self.fault(f"{f}.{key}", f"no force named '{who}'")
            carries = bool(mm.orders) or mm.standing is not None
            if named is not None and not carries:
                self.fault(f"{f}.orders_for", "names forces but the message carries no orders or standing")
            changes: tuple = ()
            if mm.standing is not None:
                full = self.standing(f"{f}.standing", mm.standing, force_names, nodes)
                changes = tuple((k, getattr(full, k)) for k in sorted(mm.standing.model_fields_set) if k != "note")
            resolved: dict[str, tuple] = {}

            def orders_of(target: str) -> tuple:
                if target not in resolved:
                    resolved[target] = self.orders(f"{f}.orders", mm.orders, clock, end_min,
                                                   force_ships.get(target, set()), force_names,
                                                   list(force_avoid.get(target, ()))) if mm.orders else ()
                return resolved[target]

            for who in receivers:
                if named is not None:
                    targets = tuple(t for t in named if t in force_names)
                elif carries and who in force_names:
                    targets = (who,)
                elif carries and isinstance(mm.to, str):
                    if who in nodes:
                        self.fault(f"{f}.orders_for", f"'{who}' is a headquarters: say which forces the orders are for")
                    continue
                else:
                    targets = ()
                if t is not None and who in nodes and mm.sender in nodes:
                    messages.append(MessageSpec(t, mm.sender, who, mm.text, targets,
                                                {tg: orders_of(tg) for tg in targets}, mm.note, changes,
                                                id=message_id(i, mm.id)))
        return tuple(hqs), standing, tuple(sorted(messages, key=lambda m: m.t_min))

    def standing(self, f: str, sm, force_names: set[str], nodes: set[str]):
        """Standing instructions, checked and resolved (places to points)."""
        from campaign.command.view import Port, Standing

        if sm.report_to is not None and sm.report_to not in nodes:
            self.fault(f"{f}.report_to", f"no force or headquarters named '{sm.report_to}'")
        base = None
        if sm.base is not None:
            p = self.point(f"{f}.base", sm.base)
            base = Port(p.name or sm.base, p.lat, p.lon) if p is not None else None
        patrol = tuple((p.lat, p.lon) for k, w in enumerate(sm.patrol)
                       if (p := self.point(f"{f}.patrol[{k}]", w)) is not None)
        station = tuple((p.lat, p.lon) for k, w in enumerate(sm.station)
                        if (p := self.point(f"{f}.station[{k}]", w)) is not None)
        guard = None
        if sm.guard is not None:
            p = self.point(f"{f}.guard", sm.guard)
            guard = (p.lat, p.lon) if p is not None else None
        if sm.escort is not None and sm.escort not in force_names:
            self.fault(f"{f}.escort", f"no force named '{sm.escort}'")
        if sm.mission == "patrol" and not sm.patrol:
            self.fault(f"{f}.patrol", "a patrol needs its points")
        if sm.mission == "plan" and sm.plan is None:
            self.fault(f"{f}.plan", "a commander who decides his own moves needs his plan (data/doctrine/<plan>.yaml)")
        if sm.plan is not None:
            from campaign.command.plan_file import DOCTRINE_DIR

            if not (DOCTRINE_DIR / f"{sm.plan}.yaml").is_file():
                self.fault(f"{f}.plan", f"no plan file data/doctrine/{sm.plan}.yaml")
        known = {n for side in self.m.sides.values() for n in side.nations}
        for nation in sm.fire_on:
            if nation not in known:
                self.fault(f"{f}.fire_on.{nation}", f"{nation} is not a nation of any side "
                                                    f"(known: {', '.join(sorted(known))})")
        fire_on = tuple(sorted((n, bool(v)) for n, v in sm.fire_on.items() if n in known))
        return Standing(on_contact=sm.on_contact, mission=sm.mission, report_to=sm.report_to,
                        patrol=patrol, guard=guard, intercept=sm.intercept, escort=sm.escort,
                        base=base, station=station, coal_low=sm.coal_low, report_every_h=sm.report_every_h,
                        resume_after_h=sm.resume_after_h, may_fire=sm.may_fire, fire_on=fire_on, jam=sm.jam,
                        avoid_superior=sm.avoid_superior, plan=sm.plan, objective=sm.objective,
                        may_enter=tuple(sm.may_enter))

    def weather_script(self) -> tuple:
        """The scripted weather periods: the named file's, then the inline ones."""
        from campaign.paths import DATA_DIR
        from campaign.world.weather import parse_script

        w = self.m.weather
        raw: list = []
        if w.script_file is not None:
            # Beside the scenario or in data/, and nowhere else (campaign/userfile.py).
            try:
                found = userfile.confined(w.script_file, [self.path.parent, DATA_DIR])
            except ValueError as exc:
                self.fault("weather.script_file", str(exc))
                found = None
            else:
                if found is None:
                    self.fault("weather.script_file", f"no file '{w.script_file}' beside the scenario or in data/")
            if found is not None:
                try:
                    content = userfile.read_yaml(found)
                    raw += list(content["periods"] if isinstance(content, dict) else content)
                except userfile.UserFileError as exc:
                    self.fault("weather.script_file", f"{found.name}: {exc.where + ': ' if exc.where else ''}{exc.fault}")
                except (KeyError, TypeError) as exc:
                    self.fault("weather.script_file", f"{found.name}: not a list of periods ({exc})")
        raw += list(w.script)
        try:
            return parse_script(raw)
        except ValueError as exc:  # (the weather model's words, with pydantic's put as ours are)
            words = str(exc).replace("Input should be ", "must be ").replace("Value error, ", "")
            self.fault("weather.script", _shortened(words))
            return ()

    def politics(self, clock: Clock, end_min: float) -> Politics:
        """The political timeline, with every nation and sovereign checked."""
        known = {n for sm in self.m.sides.values() for n in sm.nations}
        events = []
        for i, pm in enumerate(self.m.politics):
            f = f"politics[{i}]"
            t = self.time(f"{f}.at", pm.at, clock, -1e12, end_min)  # before the start: in force from it
            kind = pm.kind
            body = getattr(pm, kind)
            if kind in ("war", "peace"):
                nations, extra = tuple(body), {}
            elif kind in ("fire", "hold_fire"):
                nations, extra = (body.by, body.target), {}
            elif kind == "fire_on_attack":
                nations, extra = (body.by, body.target), {"protecting": body.protecting,
                                                          "ship_types": tuple(body.ship_types)}
                if body.protecting not in known:
                    self.fault(f"{f}.{kind}.protecting", f"{body.protecting} is not a nation of any side")
                bad = sorted(set(body.ship_types) - set(get_args(ShipType)))
                if bad:
                    self.fault(f"{f}.{kind}.ship_types", f"unknown ship type {', '.join(bad)} "
                                                         f"(known: {', '.join(get_args(ShipType))})")
            elif kind in ("keep_out", "allow_in"):
                nations, extra = tuple(body.who), {"sovereign": body.sovereign, "width_nm": body.width_nm}
                if body.sovereign not in sovereigns():
                    self.fault(f"{f}.{kind}.sovereign", f"unknown sovereign '{body.sovereign}' "
                                                        f"(known: {', '.join(sorted(sovereigns()))})")
            else:
                nations, extra = tuple(body.who), {"what": body.what}
                permits = sorted({rw.permit for rw in restricted_waters()})
                if body.what not in permits:
                    self.fault(f"{f}.{kind}.what", f"unknown permission '{body.what}' (known, from "
                                                   f"data/restricted_waters.yaml: {', '.join(permits)})")
            for n in nations:
                if n not in known and kind not in ("war", "peace"):
                    self.fault(f"{f}.{kind}", f"{n} is not a nation of any side")
            if t is not None:
                events.append(PoliticalEvent(t, kind, nations, note=pm.note, **extra))
        return Politics(tuple(events))

    def coal_map(self, field: str, value: Any, ships: list[Ship], what: str) -> dict[str, float]:
        names = [sh.name for sh in ships]
        cap = {sh.name: (sh.coal_capacity_t if what == "coal" else sh.cargo_coal_t) for sh in ships}
        if value is None or not ships:  # no ships resolved: their own faults are reported
            return dict(cap)
        if isinstance(value, (int, float)):
            if len(ships) != 1:
                self.fault(field, "give tonnes per ship (a mapping) for a force of several ships")
                return dict(cap)
            value = {names[0]: float(value)}
        out = dict(cap)
        for k, v in value.items():
            try:
                name = find_ship(k, self.ships).name
            except KeyError:
                name = k
            if name not in cap:
                self.fault(f"{field}.{k}", "is not a ship of this force")
                continue
            if not 0 <= v <= cap[name] + 1e-6:  # (NaN too, should one get past the schema)
                unit = "bunkers" if what == "coal" else "cargo"
                self.fault(f"{field}.{k}", f"{v:g} t is outside 0..{cap[name]:g} t ({name}'s {unit})")
                continue
            out[name] = float(v)
        return out

    def span(self) -> tuple[datetime, datetime]:
        """The scenario's start and end. A fault in either (unreadable, end not after start, too long) is
        noted and the rest of the file is still checked, its times only for their form."""
        m = self.m
        before = len(self.faults)
        start = end = None
        for name, value in (("start", m.start), ("end", m.end)):
            try:
                t = parse_utc(value)
            except (TypeError, ValueError):
                self.fault(name, f"'{value}' is not a UTC time such as 1914-08-04T23:00Z")
                continue
            start, end = (t, end) if name == "start" else (start, t)
        if start is not None and end is not None:
            if end <= start:
                self.fault("end", f"{end:%Y-%m-%dT%H:%MZ} is not after the start ({start:%Y-%m-%dT%H:%MZ})")
            elif end - start > timedelta(days=s.MAX_DURATION_DAYS):
                self.fault("end", f"the scenario would last {(end - start) / timedelta(days=1):,.1f} days, more than "
                                  f"the {s.MAX_DURATION_DAYS} a scenario may last")
        self.span_known = len(self.faults) == before
        fallback = datetime(1914, 8, 1, tzinfo=UTC)
        return start or end or fallback, end if self.span_known else (start or end or fallback)

    def resolve(self, faults: list[Fault] = ()) -> Scenario:
        """The resolved scenario, or ScenarioError listing ``faults`` (found before, as in its
        ship_changes) and every fault of meaning found now."""
        m = self.m
        start, end = self.span()
        self.faults.extend(faults)
        clock = Clock(start)
        end_min = clock.t_min(end) if self.span_known else math.inf

        nation_side: dict[str, str] = {}
        for side, sm in m.sides.items():
            for nation in sm.nations:
                if nation in nation_side:
                    self.fault(f"sides.{side}.nations", f"{nation} is already on side {nation_side[nation]}")
                nation_side[nation] = side

        force_names: set[str] = set()

        def collect(names: list[str], specs: list) -> None:
            for spec in specs:
                if isinstance(spec, s.DetachOrder):
                    names.append(spec.name)
                    collect(names, spec.orders)

        all_names: list[str] = []
        for fm in m.forces:
            all_names.append(fm.name)
            collect(all_names, fm.orders)
        for mm in m.messages:  # forces detached by orders that come by message
            collect(all_names, mm.orders)
        for n in all_names:
            if n in force_names:
                self.fault("forces", f"two forces are named '{n}'")
            force_names.add(n)

        used: dict[str, str] = {}
        forces: list[ForceSpec] = []
        for i, fm in enumerate(m.forces):
            f = f"forces[{i}] ({fm.name})"
            if fm.side not in m.sides:
                self.fault(f"{f}.side", f"unknown side '{fm.side}' (sides: {', '.join(m.sides)})")
            ships: list[Ship] = []
            for k, name in enumerate(fm.ships):
                try:
                    ship = find_ship(name, self.ships)
                except KeyError as exc:
                    self.fault(f"{f}.ships[{k}]", exc.args[0] if exc.args else f"unknown ship '{name}'")
                    continue
                if ship.name in used:
                    self.fault(f"{f}.ships[{k}]", f"{ship.name} is already in force {used[ship.name]}")
                used[ship.name] = fm.name
                ships.append(ship)
            nation = fm.nation or (ships[0].nation if ships else "")
            if fm.side in m.sides and nation and nation not in m.sides[fm.side].nations:
                self.fault(f"{f}.nation", f"{nation} is not a nation of side {fm.side}")
            start_pt = self.point(f"{f}.start", fm.start)
            coal = self.coal_map(f"{f}.coal_t", fm.coal_t, ships, "coal")
            cargo = self.coal_map(f"{f}.cargo_t", fm.cargo_t, [sh for sh in ships if sh.cargo_coal_t > 0], "cargo") \
                if fm.cargo_t is not None else {sh.name: sh.cargo_coal_t for sh in ships if sh.cargo_coal_t > 0}
            avoid = []
            for k, aw in enumerate(fm.avoid_waters):
                if aw.sovereign not in sovereigns():
                    self.fault(f"{f}.avoid_waters[{k}].sovereign",
                               f"unknown sovereign '{aw.sovereign}' (known: {', '.join(sorted(sovereigns()))})")
                    continue
                avoid.append(territorial_belt(aw.sovereign, aw.width_nm))
            orders = self.orders(f"{f}.orders", fm.orders, clock, end_min, {sh.name for sh in ships}, force_names,
                                 avoid)
            enters = 0.0 if fm.enters is None else self.time(f"{f}.enters", fm.enters, clock, 0.0, end_min)
            if enters is not None and enters >= end_min - 1e-9:
                self.fault(f"{f}.enters", f"{clock.iso(enters)} is the scenario's end: the force would take no part")
                enters = None
            if start_pt is not None and ships and enters is not None:
                forces.append(ForceSpec(fm.name, fm.side, nation, tuple(ships), start_pt, coal, cargo, orders,
                                        tuple(avoid), fm.note, enters))

        notices = []
        for i, nm in enumerate(m.neutral_notices):
            f = f"neutral_notices[{i}]"
            try:
                port = self.places.get(nm.port).name
            except KeyError as exc:
                self.fault(f"{f}.port", exc.args[0] if exc.args else f"unknown place '{nm.port}'")
                continue
            t = self.time(f"{f}.at", nm.at, clock, 0.0, end_min)
            if t is not None:
                notices.append(NeutralNotice(port, nm.nation, t, nm.note))

        politics = self.politics(clock, end_min)
        weather_script = self.weather_script()
        force_avoid = {f.name: f.avoid for f in forces}
        force_ships: dict[str, set[str]] = {}

        def ships_of(name: str, specs: list, ships: list[str]) -> None:
            force_ships.setdefault(name, set()).update(ships)
            for spec in specs:
                if isinstance(spec, s.DetachOrder):
                    ships_of(spec.name, spec.orders, spec.ships)

        for fm in m.forces:
            ships_of(fm.name, fm.orders, list(fm.ships))
        entering = {f.name: f.enters_min for f in forces if f.enters_min > 0.0}
        headquarters, standing, messages = self.command(clock, end_min, force_names, force_avoid, force_ships,
                                                        entering)

        # Ids name messages and politics for overlays, and a message's copies for the forces that obey it:
        # one id, one item (a message without one is named by its place in the list).
        for what, items in (("messages", m.messages), ("politics", m.politics)):
            seen_ids: set[str] = set()
            for i, item in enumerate(items):
                name = message_id(i, item.id) if what == "messages" else item.id
                if name is not None and name in seen_ids:
                    self.fault(f"{what}[{i}].id", f"another item is already named '{name}'")
                seen_ids.add(name)
        if self.faults:
            raise ScenarioError(self.label, self.faults)
        return Scenario(
            name=m.name, title=m.title, start_utc=start, end_utc=end,
            sides={k: tuple(v.nations) for k, v in m.sides.items()}, forces=tuple(forces), seed=m.seed,
            neutral_sides=frozenset(k for k, v in m.sides.items() if v.neutral),
            neutral_notices=tuple(notices), politics=politics, weather_script=weather_script,
            headquarters=headquarters, standing=standing, messages=messages,
            description=m.description, path=self.path,
            local_time=m.local_time.model_dump() if m.local_time else {},
            engine=m.tactics.engine,
            damage=m.tactics.damage,
            scoring=m.scoring.rules if m.scoring is not None else None,
            factors=Factors(m.factors.sighting_range, m.factors.telegraph_delay),
        )


def _shortened(text: str, parts: int = 5) -> str:
    """A long list of faults joined by '; ' cut to its first ``parts``, saying how many more there are."""
    items = text.split("; ")
    if len(items) <= parts:
        return text
    return "; ".join(items[:parts]) + f"; and {len(items) - parts} more"


def message_id(index: int, given: str | None) -> str:
    """A historical message's id: the one the scenario gives it, else its place in the list."""
    return given if given is not None else f"messages[{index}]"


def _changed_ships(model: s.ScenarioModel, ships: Mapping[str, Ship]) -> tuple[Mapping[str, Ship], list[Fault]]:
    """The ship data with the scenario's ``ship_changes`` applied (for this scenario only), and the faults
    of the changes that cannot be made."""
    if not model.ship_changes:
        return ships, []
    out = dict(ships)
    faults: list[Fault] = []
    for name, ch in model.ship_changes.items():
        f = f"ship_changes.{name}"
        try:
            ship = find_ship(name, ships)
        except KeyError as exc:
            faults.append(Fault(f, exc.args[0] if exc.args else f"unknown ship '{name}'"))
            continue
        sp = ch.speed_kn
        design = sp.design if sp and sp.design is not None else ship.design_speed_kn
        sustained = sp.sustained if sp and sp.sustained is not None else ship.sustained_speed_kn
        economical = sp.economical if sp and sp.economical is not None else ship.economical_speed_kn
        if not design >= sustained >= economical:
            faults.append(Fault(f"{f}.speed_kn", f"speeds must keep design >= sustained >= economical "
                                                 f"(now {design:g} / {sustained:g} / {economical:g} kn)"))
            continue
        sources = dict(ship.sources)
        factor = ch.consumption_factor
        for key in ("speed_kn" if sp else None, "coal" if ch.coal_capacity_t is not None else None,
                    "consumption.condition_factor" if factor is not None else None):
            if key:
                sources[key] = f"scenario change: {ch.note}"
        curve = ship.consumption if factor is None else ship.calibrated_consumption.scaled(factor)
        out[ship.name] = replace(
            ship, design_speed_kn=design, sustained_speed_kn=sustained, economical_speed_kn=economical,
            coal_capacity_t=ch.coal_capacity_t if ch.coal_capacity_t is not None else ship.coal_capacity_t,
            consumption=curve, consumption_factor=ship.consumption_factor if factor is None else factor,
            sources=MappingProxyType(sources))
    return out, faults


VARIANT_NAME = re.compile(r"^[A-Za-z0-9_-]+$")  # as an overlay's ``variant`` (campaign/scenario/overlay.py)


def _variant_path(path: Path, variant: str) -> Path:
    """The overlay file of ``variant``, a name in the variants folder of the scenario at ``path``."""
    if not VARIANT_NAME.match(variant):
        raise ScenarioError(path, [Fault("--variant", f"'{variant}' is not a variant's name (letters, digits, '_' "
                                                      f"and '-'): 'run_campaign.py variants {path}' lists them; "
                                                      "an overlay file elsewhere is given as the scenario itself")])
    candidate = ov.variants_dir(path) / f"{variant}.yaml"
    if not candidate.is_file():
        known = ", ".join(o.variant for o in list_variants(path)) or "none"
        raise ScenarioError(path, [Fault("--variant", f"no variant '{variant}' for this scenario (known: {known})")])
    return candidate


def _base_roots(path: Path) -> list[Path]:
    """Where an overlay's base scenario may lie: the overlay's folder, and the folder above it when that is
    a scenario's ``variants`` folder."""
    folder = path.parent
    return [folder, folder.parent] if folder.resolve().name == ov.VARIANTS_DIR else [folder]


def read_overlay(path: Path, raw: Any | None = None) -> ov.Overlay:
    """Read and check an overlay file's form; its base must exist, lie beside it (or above its variants
    folder) and be a scenario, not an overlay."""
    raw = read_yaml(path) if raw is None else raw
    m = validate_form(path, raw, ov.OverlayModel)
    try:
        base_path = userfile.confined(m.base, _base_roots(path))
    except ValueError as exc:
        raise ScenarioError(path, [Fault("base", f"{exc}; the base lies beside the overlay, or above its "
                                                 "variants/ folder")]) from None
    if base_path is None:
        raise ScenarioError(path, [Fault("base", f"no base scenario at '{m.base}'")])
    return ov.Overlay(path, base_path, m.variant, m.title, m.summary, tuple(m.sources), m.changes)


def scan_variants(path: str | Path) -> tuple[list[ov.Overlay], list[ScenarioError]]:
    """The overlays in the scenario's variants folder that name it as their base, by name; and the faults
    of the files there that cannot be read as overlays (one bad file hides none of the others)."""
    path = Path(path).resolve()
    folder = ov.variants_dir(path)
    out, bad = [], []
    for p in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            overlay = read_overlay(p)
        except ScenarioError as exc:
            bad.append(exc)
            continue
        if overlay.base_path == path:
            out.append(overlay)
    return sorted(out, key=lambda o: o.variant), bad


def list_variants(path: str | Path) -> list[ov.Overlay]:
    """The overlays in the scenario's variants folder that name it as their base, by name (files that
    cannot be read as overlays left out: :func:`scan_variants` names them)."""
    return scan_variants(path)[0]


def load_scenario(path: str | Path, *, variant: str | None = None, places: Gazetteer | None = None,
                  ships: Any = None) -> Scenario:
    """Read, validate and resolve a scenario file, or a what-if overlay file (which names its base), or
    the base scenario's ``variant`` (a name in its variants folder). Raises ``ScenarioError`` listing
    every fault, each naming the file it is in."""
    path = Path(path)
    raw = read_yaml(path)
    if variant is not None:
        if ov.is_overlay(raw):
            raise ScenarioError(path, [Fault("--variant", "give the base scenario, not an overlay, with --variant")])
        path = _variant_path(path, variant)
        raw = read_yaml(path)
    overlay = None
    label: Path | str = path
    if ov.is_overlay(raw):
        overlay = read_overlay(path, raw)
        base_raw = read_yaml(overlay.base_path)
        if ov.is_overlay(base_raw):
            raise ScenarioError(path, [Fault("base", "the base must be a scenario, not another overlay")])
        raw, faults = ov.apply_changes(base_raw if isinstance(base_raw, dict) else {}, overlay.changes)
        if faults:
            raise ScenarioError(path, [Fault(f, x) for f, x in faults])
        label = f"{path} (over {overlay.base_path.name})"
        base_name = raw.get("name", overlay.base_path.stem)
        raw["name"] = f"{base_name}-{overlay.variant}"
        raw["title"] = f"{raw.get('title', base_name)}: {overlay.title}"
    places = places or default_places()
    ships = ships or default_ships()
    folder_of = overlay.base_path if overlay else path
    try:
        model = validate_form(label, raw)  # type: ignore[arg-type]
    except ScenarioError as exc:
        # A fault of form hides no unknown ship or place: they are named too, from the file as written.
        said = {f.field for f in exc.faults}
        names = [f for f in _name_faults(folder_of, raw, places, ships) if f.field not in said]
        raise ScenarioError(label, exc.faults + names) from None
    ships, ship_faults = _changed_ships(model, ships)
    resolver = _Resolver(folder_of, model, places, ships)
    resolver.label = label
    scenario = resolver.resolve(ship_faults)
    if overlay is not None:
        scenario = replace(scenario, path=path, variant=Variant(
            overlay.variant, overlay.title, overlay.summary, base_name, path, overlay.sources))
    return scenario



def _name_faults(path: Path, raw: Any, places: Gazetteer, ships: Any) -> list[Fault]:
    """The unknown ships, places and sides named in a scenario's raw content (a file whose form is faulty,
    so that it cannot be resolved): each where the resolver would name it. Only what is written as a
    name (text) is looked at; anything else is the form's fault, already said."""
    r = _Resolver(path, None, places, ships)  # type: ignore[arg-type]
    if not isinstance(raw, dict):
        return []
    sides = set(raw["sides"]) if isinstance(raw.get("sides"), dict) else None

    def where(field: str, value: Any) -> None:
        if isinstance(value, str):
            r.point(field, value)

    def ship(field: str, value: Any) -> None:
        if isinstance(value, str):
            try:
                find_ship(value, ships)
            except KeyError as exc:
                r.fault(field, exc.args[0] if exc.args else f"unknown ship '{value}'")

    def each(value: Any) -> list[tuple[int, Any]]:
        return list(enumerate(value)) if isinstance(value, list) else []

    def orders(field: str, specs: Any) -> None:
        for i, spec in each(specs):
            if not isinstance(spec, dict):
                continue
            f = f"{field}[{i}]"
            where(f"{f}.to", spec.get("to"))
            for k, v in each(spec.get("via")):
                where(f"{f}.via[{k}]", v)
            if spec.get("do") == "bombard" and isinstance(spec.get("town"), str):
                r.town(f"{f}.town", spec["town"])
            if spec.get("do") == "detach":
                for k, v in each(spec.get("ships")):
                    ship(f"{f}.ships[{k}]", v)
                orders(f"{f}.orders", spec.get("orders"))

    for i, fm in each(raw.get("forces")):
        if not isinstance(fm, dict):
            continue
        f = f"forces[{i}] ({fm['name']})" if isinstance(fm.get("name"), str) else f"forces[{i}]"
        if sides is not None and isinstance(fm.get("side"), str) and fm["side"] not in sides:
            r.fault(f"{f}.side", f"unknown side '{fm['side']}' (sides: {', '.join(map(str, sides))})")
        for k, v in each(fm.get("ships")):
            ship(f"{f}.ships[{k}]", v)
        where(f"{f}.start", fm.get("start"))
        orders(f"{f}.orders", fm.get("orders"))
    for i, nm in each(raw.get("neutral_notices")):
        if isinstance(nm, dict) and isinstance(nm.get("port"), str):
            try:
                places.get(nm["port"])
            except KeyError as exc:
                r.fault(f"neutral_notices[{i}].port", exc.args[0] if exc.args else f"unknown place '{nm['port']}'")
    for i, mm in each(raw.get("messages")):
        if isinstance(mm, dict):
            orders(f"messages[{i}].orders", mm.get("orders"))
    command = raw.get("command")
    standing = command.get("standing") if isinstance(command, dict) else None
    for name, sm in standing.items() if isinstance(standing, dict) else ():
        if not isinstance(sm, dict):
            continue
        f = f"command.standing.{name}"
        for key in ("guard", "base"):
            where(f"{f}.{key}", sm.get(key))
        for key in ("patrol", "station"):
            for k, v in each(sm.get(key)):
                where(f"{f}.{key}[{k}]", v)
    changes = raw.get("ship_changes")
    for name in changes if isinstance(changes, dict) else ():
        ship(f"ship_changes.{name}", name)
    return r.faults
