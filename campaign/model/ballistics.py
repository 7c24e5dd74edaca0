"""A shell's range at a given elevation, for carrying a published range to another elevation.

The sources give a gun's range at one elevation (often a later or a coast-defence mounting's) where the
1914 ship mounting elevated less, or give no range at all for a gun whose muzzle velocity and shell
are known. ``data/guns.yaml`` fills such gaps with labelled STAND-INs computed here: a point-mass
trajectory in a standard atmosphere, drag ``0.5 * rho * v**2 * area * cd(Mach) * form_factor``.

The drag law's shape is the classic G1 standard projectile's drag coefficient by Mach number (the
shape behind the range tables of the period; coefficients rounded). Its scale, the ``form_factor``,
is fitted for each gun to a published (elevation, range) pair of that gun, or borrowed from a similar
gun, so only the law's *shape* carries the conversion from one elevation to another. Check: fitted to
the French 240 mm Mle 1902's 23,812 m at 45 deg (coast mounting), it gives 14,090 m at 13 deg against
the 14,000 m the same page prints for the Danton's turrets (navweaps.com WNFR_94-50_m1902), 0.6 % off.

Units: metres, seconds, kilograms, degrees; ``*_yd`` yards (0.9144 m).
"""

from __future__ import annotations

import math

M_PER_YD = 0.9144
GRAVITY_MPS2 = 9.80665

#: G1 drag coefficient by Mach number (the standard projectile's, rounded), linear between points.
G1_CD: tuple[tuple[float, float], ...] = (
    (0.0, 0.263), (0.5, 0.203), (0.7, 0.198), (0.8, 0.203), (0.9, 0.234), (0.95, 0.265),
    (1.0, 0.313), (1.05, 0.369), (1.1, 0.401), (1.2, 0.406), (1.3, 0.407), (1.5, 0.395),
    (1.75, 0.378), (2.0, 0.358), (2.5, 0.329), (3.0, 0.308), (5.0, 0.280),
)
STEP_S = 0.02
"""Integration step (s): halving it moves a 20,000 m range by under 1 m."""


def drag_coefficient(mach: float) -> float:
    """The G1 drag coefficient at ``mach`` (linear between the table's points, its last beyond)."""
    for (m0, c0), (m1, c1) in zip(G1_CD, G1_CD[1:]):
        if mach <= m1:
            return c0 + (c1 - c0) * (mach - m0) / (m1 - m0)
    return G1_CD[-1][1]


def _air(height_m: float) -> tuple[float, float]:
    """(density kg/m3, speed of sound m/s) of the standard atmosphere at ``height_m``."""
    if height_m < 11000.0:
        temp_k = 288.15 - 0.0065 * height_m
        rho = 1.225 * (temp_k / 288.15) ** 4.256
    else:
        temp_k = 216.65
        rho = 0.3639 * math.exp(-(height_m - 11000.0) / 6341.0)
    return rho, math.sqrt(1.4 * 287.05 * temp_k)


def range_m(muzzle_velocity_mps: float, elevation_deg: float, shell_kg: float, calibre_mm: float,
            form_factor: float) -> float:
    """Range (m) over a flat sea of a shell fired at ``elevation_deg`` (module docstring)."""
    return impact(muzzle_velocity_mps, elevation_deg, shell_kg, calibre_mm, form_factor)[0]


def fit_form_factor(muzzle_velocity_mps: float, elevation_deg: float, range_at_m: float, shell_kg: float,
                    calibre_mm: float) -> float:
    """The form factor at which ``range_m`` gives ``range_at_m`` at ``elevation_deg`` (bisection)."""
    lo, hi = 0.05, 8.0
    if not range_m(muzzle_velocity_mps, elevation_deg, shell_kg, calibre_mm, hi) < range_at_m \
            < range_m(muzzle_velocity_mps, elevation_deg, shell_kg, calibre_mm, lo):
        raise ValueError(f"no form factor in [{lo}, {hi}] gives {range_at_m:.0f} m at {elevation_deg} deg")
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if range_m(muzzle_velocity_mps, elevation_deg, shell_kg, calibre_mm, mid) > range_at_m:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def converted_range_yd(muzzle_velocity_mps: float, shell_kg: float, calibre_mm: float,
                       from_elevation_deg: float, from_range_yd: float, to_elevation_deg: float) -> float:
    """A gun's range (yd) at ``to_elevation_deg``, from its published range at another elevation."""
    ff = fit_form_factor(muzzle_velocity_mps, from_elevation_deg, from_range_yd * M_PER_YD, shell_kg,
                         calibre_mm)
    return range_m(muzzle_velocity_mps, to_elevation_deg, shell_kg, calibre_mm, ff) / M_PER_YD


def impact(muzzle_velocity_mps: float, elevation_deg: float, shell_kg: float, calibre_mm: float,
           form_factor: float) -> tuple[float, float, float]:
    """(range m, striking velocity m/s, angle of fall deg below the horizontal) of a shell fired at
    ``elevation_deg``: ``range_m``'s trajectory, read where it meets the sea (the step crossing it
    interpolated), for the striking velocity and angle that armour penetration wants."""
    if not (muzzle_velocity_mps > 0 and 0 < elevation_deg < 90 and shell_kg > 0 and calibre_mm > 0
            and form_factor > 0):
        raise ValueError("a trajectory needs a positive velocity, shell, calibre and form factor and an "
                         "elevation between 0 and 90 degrees")
    area_m2 = math.pi * (calibre_mm / 2000.0) ** 2
    x = y = 0.0
    vx = muzzle_velocity_mps * math.cos(math.radians(elevation_deg))
    vy = muzzle_velocity_mps * math.sin(math.radians(elevation_deg))
    while True:
        rho, sound = _air(y)
        v = math.hypot(vx, vy)
        k = 0.5 * rho * v * area_m2 * drag_coefficient(v / sound) * form_factor / shell_kg
        nx, ny = x + vx * STEP_S, y + vy * STEP_S
        if ny < 0.0 and vy < 0.0:
            return (x + vx * STEP_S * (y / (y - ny)), math.hypot(vx, vy),
                    math.degrees(math.atan2(-vy, vx)))
        x, y = nx, ny
        vx -= k * vx * STEP_S
        vy -= (GRAVITY_MPS2 + k * vy) * STEP_S


def elevation_for_range_deg(muzzle_velocity_mps: float, range_at_m: float, shell_kg: float,
                            calibre_mm: float, form_factor: float, max_elevation_deg: float = 45.0) -> float:
    """The (lower) elevation at which ``range_m`` reaches ``range_at_m`` (bisection); ValueError beyond the
    range at ``max_elevation_deg``."""
    lo, hi = 1e-4, max_elevation_deg
    if range_m(muzzle_velocity_mps, hi, shell_kg, calibre_mm, form_factor) < range_at_m:
        raise ValueError(f"{range_at_m:.0f} m is beyond the reach at {max_elevation_deg} deg")
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if range_m(muzzle_velocity_mps, mid, shell_kg, calibre_mm, form_factor) < range_at_m:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def striking(muzzle_velocity_mps: float, range_at_m: float, shell_kg: float, calibre_mm: float,
             form_factor: float, max_elevation_deg: float = 45.0) -> tuple[float, float]:
    """(striking velocity m/s, angle of fall deg) at ``range_at_m``: the elevation that reaches it
    (``elevation_for_range_deg``), then the velocity and descent angle where that trajectory meets the sea.
    At zero range the muzzle velocity, falling at 0 deg."""
    if range_at_m <= 0.0:
        return muzzle_velocity_mps, 0.0
    elev = elevation_for_range_deg(muzzle_velocity_mps, range_at_m, shell_kg, calibre_mm, form_factor,
                                   max_elevation_deg)
    _, v, fall = impact(muzzle_velocity_mps, elev, shell_kg, calibre_mm, form_factor)
    return v, fall
