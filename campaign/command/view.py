"""What a commander is given to decide on: his own force, his picture, his standing instructions.

A ``CommandView`` is immutable and holds plain values only — no reference into the world — so decision
code cannot look at the truth even by mistake (tests/command/test_view.py walks a view to prove it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from campaign.command.picture import Estimate, Report


@dataclass(frozen=True)
class OwnForce:
    """The commander's own force, as he knows it: he is aboard."""

    name: str
    side: str
    nation: str
    lat: float
    lon: float
    course_deg: float | None
    speed_kn: float
    sustained_kn: float  # the slowest ship's sustained speed: what the force can hold
    coal_fraction: float  # the emptiest ship's coal as a fraction of her bunkers
    status: str
    in_port: bool
    place: str | None
    ships: tuple[str, ...]
    order: str  # what it is doing, in words
    # His orders are carried out, or could not be: nothing is left of them (the force lies where they
    # left it until he, or someone, gives it more).
    orders_done: bool = False


@dataclass(frozen=True)
class Port:
    """A port the force could coal at (its own nation's or an ally's), where it is."""

    name: str
    lat: float
    lon: float


@dataclass(frozen=True)
class Standing:
    """Standing instructions (the 1905 rules' "general instructions") for one force.

    ``on_contact``: what to do on sighting the enemy — shadow (hold contact at a safe range and
    report), chase, evade, or report only (evading the contacts of ``keep_away_from`` all the same).
    ``mission`` when no enemy is in sight: follow the scripted orders, patrol ``patrol`` points, guard
    ``guard``, intercept the contact ``intercept`` (a name in the picture), escort the force ``escort``,
    or return to ``base``. ``coal_low`` sends the force to the
    nearest friendly port when its emptiest ship falls below that fraction. When his orders are done he
    asks ``report_to`` for more and patrols his ``station`` (points at sea), or, without one, returns to
    ``base`` and coals: only a commander given a station or a base does (``doctrine.orders_done``).
    """

    on_contact: str = "report"
    mission: str = "script"
    report_to: str | None = None
    patrol: tuple[tuple[float, float], ...] = ()
    guard: tuple[float, float] | None = None
    intercept: str | None = None
    escort: str | None = None
    base: Port | None = None
    station: tuple[tuple[float, float], ...] = ()  # (lat, lon) of his station's points
    coal_low: float | None = None
    report_every_h: float = 2.0
    resume_after_h: float = 3.0
    review_min: float = 30.0
    may_fire: bool = False  # whether the commander believes he may open fire (his rules of engagement)
    # What he believes of particular enemy nations, overriding ``may_fire`` for each: (nation, may he
    # fire on it), sorted by nation. The Admiralty's 'Commence hostilities against Austria' of 8 Aug
    # 1914, sent in error and cancelled on the 9th, made the British believe they might fire on
    # Austria-Hungary while no war had been declared.
    fire_on: tuple[tuple[str, bool], ...] = ()
    jam: bool = False  # jam the enemy's wireless while he is in sight
    # Contacts he keeps away from (he evades them, told only to report), by his names for them in his
    # picture: those that brought him to action against his instructions (campaign.world.engagement),
    # and the names they take when he recognises them later (campaign.world.command); sorted.
    keep_away_from: tuple[str, ...] = ()
    # Not to be brought to action by a superior force (the Admiralty's order to Milne of 30 July 1914):
    # told only to report, he evades a contact he has recognised as outranking his own ships
    # (doctrine.superior), as well as those of ``keep_away_from``.
    avoid_superior: bool = False
    # A commander who decides his own moves (``mission: plan``; campaign/command/objective.py): his plan,
    # data/doctrine/<plan>.yaml; the objective messages have ordered him to (a name in the plan); the
    # waters he has been given leave to enter (by message).
    plan: str | None = None
    objective: str | None = None
    may_enter: tuple[str, ...] = ()

    def believes_may_fire(self, nation: str | None) -> bool:
        """Does he believe he may fire on ships of ``nation``? His word for that nation if he has one,
        else ``may_fire`` (also for a contact of unknown nation, ``None``)."""
        for n, may in self.fire_on:
            if n == nation:
                return may
        return self.may_fire

    def with_fire_on(self, changes: tuple[tuple[str, bool], ...]) -> tuple[tuple[str, bool], ...]:
        """His per-nation beliefs with ``changes`` merged in (a message changes the nations it names
        and keeps the others), sorted by nation."""
        merged = dict(self.fire_on)
        merged.update(dict(changes))
        return tuple(sorted(merged.items()))


@dataclass(frozen=True)
class CommandView:
    """Everything a force's commander decides on, at ``t_min``."""

    t_min: float
    node: str
    force: OwnForce
    standing: Standing
    light: str  # the light where he is: he can see it
    picture: tuple[Report, ...]
    estimates: tuple[Estimate, ...]
    mode: str  # what his doctrine has him doing: "script", "shadow Goeben", ...
    mode_since_min: float
    last_report_min: float | None  # when he last reported the contact he is on
    ports: tuple[Port, ...] = ()
    # Friendly forces in sight of him; gathered only when his doctrine looks at them
    # (``doctrine.needs_company``), else empty.
    company: tuple[OwnForce, ...] = field(default=())
    # How far his lookouts see a single ship here from now until his look after next (smoke or hull,
    # whichever is farther, in the worse of the light now and the light then, in this weather:
    # data/sighting.yaml): he judges it from what he sees and from his almanac. The world judges it only
    # while he has a contact in sight, when his doctrine reads it (NaN otherwise).
    sight_nm: float = 15.0
    # How far he sees each contact he has recognised, by the same rule for the ships he has named (their
    # size is in any naval annual), as (contact, nm) pairs; the rest at ``sight_nm``.
    sight_nm_of: tuple[tuple[str, float], ...] = ()
    # How long his wireless office takes to cipher a report (data/wireless.yaml): he does not send the
    # same contact again before the last report has gone.
    cipher_min: float = 12.0
    # The light where he is at his look after next (his almanac), while he has a contact in sight (None
    # otherwise): a shadower keeps the distance of the worse of it and ``light``.
    light_then: str | None = None
    # The scenario's start, UTC ISO-8601 (his calendar: t_min counts from it).
    start_utc: str = ""

    def sight_for(self, about: str) -> float:
        """How far, nm, his lookouts see the contact ``about`` here until his look after next: by its ships
        once he has recognised them, else ``sight_nm`` (a single ship of the reference size)."""
        for name, nm in self.sight_nm_of:
            if name == about:
                return nm
        return self.sight_nm

    def in_sight(self) -> tuple[Estimate, ...]:
        """Contacts seen in the last minutes and not lost."""
        return in_sight(self.estimates)


def in_sight(estimates: tuple[Estimate, ...]) -> tuple[Estimate, ...]:
    """Of ``estimates``, the contacts seen in the last minutes and not lost."""
    return tuple(e for e in estimates if e.report.level in ("smoke", "ships", "recognised") and e.age_h <= 0.1)
