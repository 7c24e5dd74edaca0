"""A ship's bookkeeping in a Jane battle: her guns by mount, penetrations, speed losses, and the
mapping to and from the common ``Condition``.

Mapping (``from_combatant`` in, ``condition_of`` out):
  ``damage``        = penetrations of belt or deck counted / her sinking number (two per 1,000 tons,
                      seed 004 l.43); in: ``damage * sinking number`` penetrations already counted.
  ``gunnery``       = weight of shell of the barrels still working over that of all her barrels (a
                      lost 28 cm barrel weighs as much as six 15 cm); in: that fraction of each gun
                      group's barrels is put out of action (the last mounts of the group first).
                      Barrels put out for a few moves by an HE burst count as working.
  ``speed_lost_kn`` = what she came in without (the world has already taken it off
                      ``Combatant.max_speed_kn``) plus what this battle took: 3 knots per bow, funnel or
                      mast loss, half for one shot in the engines (nothing left after two), half again
                      if torpedoed and waterlogged here.
  ``waterlogged``, ``torpedoes_fired``, ``sunk`` carried through; ``fast_speed_lost`` set once she
                      loses speed here (she can no longer make a fast chase speed).
  ``rounds_left``   = her magazine per gun group (``campaign.tactics.ammunition``): in, what she carried
                      out of her last battle (her full outfit at first); out, less a round per strike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from campaign.model.guns import reach_yd
from campaign.model.penetration import Shell, shell_for
from campaign.model.ships import Gun, Ship
from campaign.tactics.ammunition import Magazine
from campaign.tactics.armament import (
    HALF_TURN_DEG,
    ArcRules,
    arc_counts,
    barrels_bearing,
    fold_bearing_deg,
    load_arcs,
)
from campaign.tactics.jane_rulebook import (
    armour_grade,
    coal_thickness_mm,
    fire_interval_moves,
    gun_class,
    is_armoured,
    is_quick_firing,
    shell_weight_lb,
    sinking_number,
    spares_armoured,
    squares_per_turn,
    strikes_per_move,
    target_class_of,
)
from campaign.tactics.jane_rules import PARTS, JaneRules
from campaign.tactics.protocol import Combatant, Condition, HelmOrder, ShipView
from campaign.tactics.tubes import TubeBank, above_water_count

BEAM_DEG = 90.0
BARRELS_PER_MOUNT = {"quadruple": 4, "triple": 3, "twin": 2}

#: The sectors of ``armament.barrels_bearing``, indices into ``GunGroup.barrels_by_sector``: within the
#: end-on arc ahead, within it astern, within the cross-deck arc about the beam, and the rest of the
#: broadside sector (where cross-deck barrels do not bear).
SECTOR_AHEAD, SECTOR_ASTERN, SECTOR_BEAM, SECTOR_QUARTER = range(4)

@dataclass
class Mount:
    """One gun mount (turret, casemate, open or shielded mount): barrels on it and still working;
    ``out_until_move`` the first move it may fire again after an HE burst."""

    barrels: int
    working: int
    out_until_move: int = 0

    def ready(self, move: int) -> int:
        return self.working if move >= self.out_until_move else 0


@dataclass
class GunGroup:
    """A gun group of the ship data with Jane's class, rate and the protection of its positions."""

    gun: Gun
    cls: str
    quick_firing: bool
    interval_moves: int
    strikes: int
    turret: bool
    casemate: bool
    grade: str
    max_range_yd: float
    broadside: int
    mounts: list[Mount]
    big_gun: bool
    shell_lb: float
    barrels_by_sector: tuple[int, int, int, int]
    next_fire_move: int = 0
    #: A light quick-firer of the anti-torpedo-boat battery: it holds its fire at armoured ships
    #: (``jane_rulebook.spares_armoured``).
    spares_armoured: bool = False
    #: Its place in ``Ship.guns`` (and in her ``Magazine``); the projectile its guns are loaded with (None
    #: until it first fires) and how often it has changed it (seed 004 l.27, ``jane_fire.change_projectile``).
    index: int = 0
    loaded: str | None = None
    projectile_changes: int = 0
    #: The plate protecting its positions (mm; None unprotected), whose ``grade`` is Jane's; and the
    #: armour-piercing and common shells it fires (``campaign.model.penetration.shell_for``; None if it
    #: has none of the kind, or no figures to fly it by).
    protection_mm: float | None = None
    ap_shell: Shell | None = None
    he_shell: Shell | None = None

    @property
    def count(self) -> int:
        return self.gun.count

    def working(self) -> int:
        return sum(m.working for m in self.mounts)

    def ready(self, move: int) -> int:
        """Barrels working on mounts not put out by an HE burst (``Mount.ready`` summed, unrolled: it
        runs for every group every move)."""
        total = 0
        for m in self.mounts:
            if move >= m.out_until_move:
                total += m.working
        return total

    def scaled(self, n_bearing: int, move: int) -> int:
        """Barrels of the ``n_bearing`` that bear which are ready now (in proportion, rounded)."""
        return scaled_barrels(n_bearing, self.ready(move), self.count)


def scaled_barrels(n_bearing: int, ready: int, count: int) -> int:
    """Barrels of the ``n_bearing`` of a ``count``-barrel group that bear which are among the ``ready``
    ones (in proportion, rounded); ``GunGroup.scaled`` with the ready barrels counted once by the caller."""
    return math.floor(n_bearing * ready / count + 0.5) if count else 0


def arc_sector(rel_bearing_deg: float, arcs: ArcRules | None = None) -> int:
    """The sector (``SECTOR_*``) of a target ``rel_bearing_deg`` off the bow, by the same tests as
    ``armament.barrels_bearing`` makes, so that ``barrels_by_sector[arc_sector(rel)]`` is its count."""
    arcs = arcs or load_arcs()
    rel = fold_bearing_deg(rel_bearing_deg)
    if rel < arcs.end_on_half_arc_deg:
        return SECTOR_AHEAD
    if rel > HALF_TURN_DEG - arcs.end_on_half_arc_deg:
        return SECTOR_ASTERN
    if abs(rel - BEAM_DEG) <= arcs.cross_deck_half_arc_deg:
        return SECTOR_BEAM
    return SECTOR_QUARTER


def barrels_by_sector(gun: Gun, arcs: ArcRules | None = None) -> tuple[int, int, int, int]:
    """Barrels of ``gun`` bearing in each sector (``SECTOR_*`` order), none where the arcs give fewer
    than one (as ``armament.guns_bearing`` leaves such a group out). A gun's arcs never change, so a
    group reads these once instead of ``barrels_bearing`` at every target."""
    c = arc_counts(gun, arcs or load_arcs())
    counts = (c.ahead, c.astern, c.broadside, c.broadside - c.cross_deck)
    return tuple(max(0, n) for n in counts)  # type: ignore[return-value]


@dataclass
class ShipState:
    """Everything the engine keeps about one ship."""

    combatant: Combatant
    target_class: str
    sinking_number: int
    x_yd: float
    y_yd: float
    course_deg: float
    speed_kn: float
    groups: list[GunGroup]
    part_shares: tuple[tuple[str, float], ...]
    waterline_grade: str
    waterline_grade_coal: str
    deck_grade: str
    conning_tower_grade: str
    tubes_total: int
    tubes_fired: int
    above_water_loaded: int
    #: Squares of way per four-point turn by helm (``jane_rulebook.squares_per_turn``: her length fixes it).
    helm_squares_per_turn: float
    #: Her tubes one by one, loaded or empty (``campaign.tactics.tubes``): which bear on a target. Kept in
    #: step with ``tubes_fired`` and ``above_water_loaded`` (``jane_fire.torpedoes``).
    tubes: TubeBank | None = None
    #: The plates her grades are of (mm; None: no armour): the waterline (the belt, or the protective
    #: deck's slope counted double), the waterline by the machinery with the coal behind it, the deck and
    #: the conning tower. The penetration formula is asked of these (``jane_fire.resolve_hit``).
    waterline_mm: float | None = None
    waterline_coal_mm: float | None = None
    deck_mm: float | None = None
    conning_tower_mm: float | None = None
    penetrations: float = 0.0
    afloat: bool = True
    waterlogged_before: bool = False
    waterlogged_now: bool = False
    torpedo_hits: int = 0
    funnel_mast_losses: int = 0
    bow_lost: bool = False
    engine_hits: int = 0
    no_steer_until_move: int = -1
    engine_turning: bool = False
    last_order: HelmOrder | None = None
    flagship: bool = False
    #: An armoured ship (``jane_rulebook.is_armoured``): the light quick-firers hold their fire at her.
    armoured: bool = False
    #: Times the working barrels of her mounts have changed (``disable_mount``, ``from_combatant``), or a
    #: gun group has fired its last round (``jane_fire``).
    armament_changes: int = 0
    #: Her rounds per gun group (``campaign.tactics.ammunition``); None for a state built without one.
    magazine: Magazine | None = None
    #: Under ``damage: gwas`` (``campaign.tactics.jane_gwas``): the share of her speed the damage model's
    #: engine criticals leave her, and the factor its fire-control critical puts on her chance to hit.
    speed_factor: float = 1.0
    fire_factor: float = 1.0
    # Derived from ``combatant`` (which she keeps) and ``groups`` (whose mounts never change, only their
    # barrels), read at every turn of a battle: her name and side, the big-gun and quick-firer groups in
    # their order; and the last strength worked out.
    name: str = field(init=False, repr=False, compare=False)
    side: str = field(init=False, repr=False, compare=False)
    big_groups: tuple[GunGroup, ...] = field(init=False, repr=False, compare=False)
    quick_groups: tuple[GunGroup, ...] = field(init=False, repr=False, compare=False)
    strength_memo: tuple[tuple, float, float] | None = field(
        default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.name = self.combatant.name
        self.side = self.combatant.side
        self.big_groups = tuple(g for g in self.groups if g.big_gun)
        self.quick_groups = tuple(g for g in self.groups if not g.big_gun)

    @property
    def ship(self) -> Ship:
        return self.combatant.ship

    @property
    def waterlogged(self) -> bool:
        return self.waterlogged_before or self.waterlogged_now

    @property
    def length_yd(self) -> float:
        return self.ship.length_m / 0.9144

    def tubes_left(self) -> int:
        return max(0, self.tubes_total - self.tubes_fired)


# ----------------------------------------------------------------------------------------------------
# Building


def barrels_per_mount(gun: Gun) -> int:
    m = (gun.mounting or "").lower()
    for word, n in BARRELS_PER_MOUNT.items():
        if word in m:
            return n
    return 1


def _mounts(gun: Gun) -> list[Mount]:
    per = barrels_per_mount(gun)
    full, rest = divmod(gun.count, per)
    sizes = [per] * full + ([rest] if rest else [])
    return [Mount(n, n) for n in sizes]


def _group(rules: JaneRules, ship: Ship, gun: Gun, main_calibre_mm: float) -> GunGroup:
    m = (gun.mounting or "").lower()
    turret = "turret" in m
    casemate = "casemate" in m and not turret
    a = ship.armour
    protection_mm: float | None = None
    if turret:
        house = max((t for t in (a.turrets, a.barbettes) if t), default=None)
        factor = 1.0 if gun.calibre_mm >= main_calibre_mm else rules.secondary_protection_factor
        protection_mm = house * factor if house else None
    elif casemate:
        protection_mm = a.belt * rules.secondary_protection_factor if a.belt else None
    # open or shielded mounts: no plate, "any gun hit is disabled" (seed 004 l.79)
    grade = armour_grade(rules, protection_mm)
    cls = gun_class(rules, gun.calibre_mm)
    quick_firing = is_quick_firing(rules, gun)
    return GunGroup(gun=gun, cls=cls, quick_firing=quick_firing,
                    interval_moves=fire_interval_moves(rules, gun), strikes=strikes_per_move(rules, gun),
                    turret=turret, casemate=casemate, grade=grade,
                    max_range_yd=reach_yd(gun),
                    broadside=barrels_bearing(gun, BEAM_DEG), mounts=_mounts(gun),
                    big_gun=is_big_gun(rules, cls, quick_firing),
                    shell_lb=shell_weight_lb(rules, gun.calibre_mm), barrels_by_sector=barrels_by_sector(gun),
                    spares_armoured=spares_armoured(rules, cls), protection_mm=protection_mm,
                    ap_shell=shell_for(gun, "ap"), he_shell=shell_for(gun, "common"))


def is_big_gun(rules: JaneRules, cls: str, quick_firing: bool) -> bool:
    """Whether a group fires with the big guns, before the quick-firers (seed 004 l.115): every gun
    that is not quick-firing, and quick-firers of the big-gun classes."""
    return not quick_firing or cls in rules.big_gun_classes


def above_water_tubes(ship: Ship) -> int:
    """Tubes mounted above water (deck tubes may explode when their section is hit, seed 004 l.47): from
    her tube layout, or the stand-in layout rule where the data give none (``campaign.tactics.tubes``)."""
    return above_water_count(ship)


def _part_shares(rules: JaneRules, tclass: str, groups: list[GunGroup]) -> tuple[tuple[str, float], ...]:
    """The class's area shares, with a part the ship lacks given to the one that lies there instead:
    no turrets -> battery (else side); no secondary guns -> side."""
    shares = dict(rules.target_classes[tclass].part_shares)
    has_turret = any(g.turret for g in groups)
    has_battery = any(not g.turret for g in groups)
    if not has_turret:
        shares["battery" if has_battery else "side"] += shares["turret"]
        shares["turret"] = 0.0
    if not has_battery:
        shares["side"] += shares["battery"]
        shares["battery"] = 0.0
    return tuple((p, shares[p]) for p in PARTS)


def _remove_barrels(st: ShipState, group: GunGroup, n: int) -> None:
    for mount in reversed(group.mounts):
        take = min(n, mount.working)
        if take:
            mount.working -= take
            st.armament_changes += 1
        n -= take
        if n <= 0:
            return


def keep_barrels(st: ShipState, group: GunGroup, working: int) -> None:
    """Put out of action the barrels of ``group``, one of ``st``'s, beyond ``working`` (the last mounts
    of the group first); none are restored."""
    _remove_barrels(st, group, max(0, group.working() - max(0, working)))


def disable_mount(st: ShipState, mount: Mount) -> None:
    """Put every barrel of ``mount``, one of ``st``'s, out of action. Every change to a mount's working
    barrels goes through here or ``from_combatant``, which count it in ``armament_changes``."""
    mount.working = 0
    st.armament_changes += 1


def from_combatant(rules: JaneRules, c: Combatant) -> ShipState:
    """A ship's state at the start of a battle, carrying in her ``Condition`` (module docstring)."""
    ship = c.ship
    turret_calibres = [g.calibre_mm for g in ship.guns if "turret" in (g.mounting or "").lower()]
    main = max(turret_calibres, default=float("inf"))
    groups = [_group(rules, ship, g, main) for g in ship.guns]
    for i, g in enumerate(groups):
        g.index = i  # its place in ``ship.guns`` and her magazine
    a = ship.armour
    if a.belt:
        waterline_mm = a.belt
    elif a.deck:
        waterline_mm = a.deck * rules.deck_slope_factor  # "deck slopes count double" (seed 004 l.39)
    else:
        waterline_mm = None
    coal = rules.coal_grades if ship.coal_capacity_t > 0 else 0
    tclass = target_class_of(rules, ship)
    cond = c.condition
    tubes_total = ship.torpedo_tubes.count if ship.torpedo_tubes else 0
    tubes_fired = min(tubes_total, cond.torpedoes_fired)
    # Tubes fired in an earlier battle stay empty (Jane's game has no reload): STAND-IN, the first in
    # layout order (the condition carries only their number).
    tubes = TubeBank.of(ship)
    tubes.empty(tubes_fired)
    st = ShipState(
        combatant=c, target_class=tclass, sinking_number=sinking_number(rules, ship),
        x_yd=c.x_yd, y_yd=c.y_yd, course_deg=c.course_deg % 360.0,
        speed_kn=min(c.speed_kn, c.max_speed_kn), groups=groups,
        part_shares=_part_shares(rules, tclass, groups),
        waterline_grade=armour_grade(rules, waterline_mm),
        waterline_grade_coal=armour_grade(rules, waterline_mm, extra_grades=coal),
        deck_grade=armour_grade(rules, a.deck), conning_tower_grade=armour_grade(rules, a.conning_tower),
        waterline_mm=waterline_mm, waterline_coal_mm=coal_thickness_mm(rules, waterline_mm, coal),
        deck_mm=a.deck or None, conning_tower_mm=a.conning_tower or None,
        tubes_total=tubes_total, tubes_fired=tubes_fired, above_water_loaded=tubes.loaded_above_water(),
        tubes=tubes,
        flagship=c.flagship, waterlogged_before=cond.waterlogged, torpedo_hits=int(cond.waterlogged),
        armoured=is_armoured(rules, ship),
        helm_squares_per_turn=squares_per_turn(rules, ship.length_m),
        magazine=Magazine.of(ship, cond),
    )
    st.penetrations = max(0.0, cond.damage) * st.sinking_number
    if cond.sunk or cond.damage >= 1.0:
        st.afloat = False
        st.speed_kn = 0.0
    lost_fraction = min(1.0, max(0.0, 1.0 - cond.gunnery))
    for g in groups:
        _remove_barrels(st, g, math.floor(g.count * lost_fraction + 0.5))
    return st


# ----------------------------------------------------------------------------------------------------
# Reading


def max_speed_kn(rules: JaneRules, st: ShipState) -> float:
    """The most she can make now: her entry maximum less this battle's losses (seed 004 l.79)."""
    if not st.afloat or st.engine_hits >= 2:
        return 0.0
    v = st.combatant.max_speed_kn - rules.speed_loss_kn * (st.funnel_mast_losses + int(st.bow_lost))
    if st.engine_hits == 1:
        v *= 0.5
    if st.waterlogged_now:
        v *= rules.waterlogged_speed_factor
    v *= st.speed_factor
    return max(0.0, min(v, rules.max_squares * rules.knots_per_square))


def damage_fraction(st: ShipState) -> float:
    return 1.0 if not st.afloat else min(1.0, st.penetrations / st.sinking_number)


def gunnery_fraction(rules: JaneRules, st: ShipState) -> float:
    """Weight of shell of the working barrels over that of all barrels (1.0 for an unarmed ship)."""
    total = sum(g.count * shell_weight_lb(rules, g.gun.calibre_mm) for g in st.groups)
    if total <= 0:
        return st.combatant.condition.gunnery
    return sum(g.working() * shell_weight_lb(rules, g.gun.calibre_mm) for g in st.groups) / total


def can_use(st: ShipState, g: GunGroup) -> bool:
    """A waterlogged ship's main-deck casemates are awash (data file, torpedo.waterlogged)."""
    return not (g.casemate and st.waterlogged)


def has_rounds(st: ShipState, g: GunGroup) -> bool:
    """Whether the group has a round left (a state without a magazine counts none)."""
    return st.magazine is None or st.magazine.has(g.index)


def fighting_value(rules: JaneRules, st: ShipState) -> float:
    """Weight of fire per move (lb) of the working guns bearing on the broadside, times the fraction
    of her sinking number left."""
    if not st.afloat:
        return 0.0
    # ``g.shell_lb`` is ``shell_weight_lb(rules, g.gun.calibre_mm)``, taken once when the group was built.
    fire = sum(g.broadside * g.working() / g.count * g.shell_lb
               * g.strikes / g.interval_moves for g in st.groups if g.count and can_use(st, g)
               and has_rounds(st, g))
    return fire * (1.0 - damage_fraction(st))


def gun_range_yd(st: ShipState) -> float:
    return max((g.max_range_yd for g in st.groups if g.working() > 0 and can_use(st, g) and has_rounds(st, g)),
               default=0.0)


def strength(rules: JaneRules, st: ShipState) -> tuple[float, float]:
    """(``fighting_value``, ``gun_range_yd`` while afloat, else 0) of the ship.

    Both change only when she is damaged, so they are kept with what they were worked out from (the
    rules, penetrations, waterlogging and the count of changes to her mounts' working barrels) and
    worked out again only when one of those differs.
    """
    if not st.afloat:
        return 0.0, 0.0  # what ``fighting_value`` and ``view`` give a sunk ship
    key = (rules, st.armament_changes, st.penetrations, st.waterlogged_before, st.waterlogged_now)
    memo = st.strength_memo
    if memo is not None and memo[0] == key:
        return memo[1], memo[2]
    value_lb = fighting_value(rules, st)
    reach_yd = gun_range_yd(st)
    st.strength_memo = (key, value_lb, reach_yd)
    return value_lb, reach_yd


def view(rules: JaneRules, st: ShipState) -> ShipView:
    c = st.combatant
    value_lb, rng_yd = strength(rules, st)
    # ShipView's fields in their order, positionally: every ship, every move.
    return ShipView(st.name, st.side, c.unit, st.x_yd, st.y_yd, st.course_deg,
                    st.speed_kn if st.afloat else 0.0, max_speed_kn(rules, st), st.afloat,
                    st.afloat and rng_yd > 0.0, rng_yd, value_lb)


def condition_of(rules: JaneRules, st: ShipState) -> Condition:
    """Her damage in the common terms (module docstring)."""
    prior = st.combatant.condition
    lost_here = max(0.0, st.combatant.max_speed_kn - max_speed_kn(rules, st)) if st.afloat else 0.0
    return Condition(
        damage=damage_fraction(st),
        gunnery=0.0 if not st.afloat else gunnery_fraction(rules, st),
        speed_lost_kn=prior.speed_lost_kn + lost_here,
        fast_speed_lost=prior.fast_speed_lost or lost_here > 0.0,
        sunk=not st.afloat,
        waterlogged=st.waterlogged,
        torpedoes_fired=st.tubes_fired,
        rounds_left=st.magazine.rounds_left() if st.magazine is not None else prior.rounds_left,
    )
