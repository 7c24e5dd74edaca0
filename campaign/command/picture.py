"""A command's picture of the enemy: what it has seen or been told, how old it is, how sure.

Plain data, built only from reports — a sighting by the command's own ships, a report that came by
message, an intercepted transmission. Nothing here can reach the world: a picture is what decision code
sees, and the world never hands it anything else (truth and belief apart).
"""

from __future__ import annotations

from dataclasses import dataclass

from campaign.geo import earth

# Nothing in these waters in August 1914 steamed faster than this (Breslau, 27.5 kn design, with a
# margin): the radius of doubt round a contact grows at this speed with its age.
MAX_ENEMY_SPEED_KN = 28.0


@dataclass(frozen=True)
class Report:
    """One observation of an enemy force (or of its wireless).

    ``about`` is the command's name for it: the ships' names once they have been recognised, else a
    label the observer gave ("contact Gloucester-2"). ``lat``/``lon`` are None for an intercepted
    transmission, which gives only the ``sea`` and ``area`` the sender is in. ``seen_min`` is when the
    observation was made; ``source`` says how the command learnt it; ``place`` names the port it was
    seen lying in.
    """

    about: str
    seen_min: float
    lat: float | None
    lon: float | None
    course_deg: float | None = None
    speed_kn: float | None = None
    level: str = "ships"  # smoke, ships, recognised, intercept, lost
    ships: tuple[str, ...] = ()
    n_ships: int | None = None
    sea: str | None = None
    area: str | None = None
    source: str = ""
    replaces: str | None = None  # an earlier label for the same contact, now recognised
    place: str | None = None  # the port it was seen lying in (None: at sea)

    def as_content(self) -> dict:
        """The report as the content of a message (plain values only)."""
        return {"report": {k: getattr(self, k) for k in self.__dataclass_fields__}}

    @classmethod
    def from_content(cls, content: dict, source: str) -> Report:
        raw = dict(content["report"])
        raw["ships"] = tuple(raw.get("ships") or ())
        raw["source"] = source
        return cls(**raw)


@dataclass(frozen=True)
class Estimate:
    """Where a contact should be now: dead reckoning from its last report, and the radius of doubt."""

    about: str
    lat: float | None
    lon: float | None
    radius_nm: float
    age_h: float
    report: Report


class Picture:
    """The latest report of each contact a command knows of."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._reports: dict[str, Report] = {}
        self.version = 0
        self.history: list[tuple[float, str, str]] = []  # (when learnt, about, source)

    def learn(self, report: Report, now_min: float | None = None) -> bool:
        """Take a report if it is newer than what is known of that contact; True if anything changed.
        ``now_min`` is when it was learnt (for the record of what the command knew when)."""
        if report.replaces and report.replaces in self._reports:
            del self._reports[report.replaces]
        old = self._reports.get(report.about)
        if old is not None and old.seen_min > report.seen_min:
            return False
        if old is not None and report.lat is None and old.lat is not None and report.seen_min - old.seen_min < 60:
            # An intercept says less than a fresh sighting: keep the sighting for an hour.
            return False
        self._reports[report.about] = report
        self.version += 1
        self.history.append((report.seen_min if now_min is None else now_min, report.about, report.source))
        return True

    def reports(self) -> tuple[Report, ...]:
        return tuple(sorted(self._reports.values(), key=lambda r: (r.seen_min, r.about)))

    def get(self, about: str) -> Report | None:
        return self._reports.get(about)

    def estimate(self, about: str, t_min: float) -> Estimate | None:
        """Dead reckoning from the last report; the doubt grows at the fastest enemy speed."""
        r = self._reports.get(about)
        if r is None:
            return None
        age_h = max(t_min - r.seen_min, 0.0) / 60.0
        if r.lat is None or r.lon is None:
            return Estimate(about, None, None, float("inf"), age_h, r)
        lat, lon = r.lat, r.lon
        if r.course_deg is not None and r.speed_kn and age_h > 0:
            lat, lon = earth.forward(r.lat, r.lon, r.course_deg, r.speed_kn * age_h)
        # The contact may have turned at any moment since, at any speed up to the fastest.
        spare = MAX_ENEMY_SPEED_KN + (r.speed_kn or 0.0)
        return Estimate(about, float(lat), float(lon), spare * age_h, age_h, r)
