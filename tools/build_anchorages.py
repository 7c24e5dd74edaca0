"""Compute the positions in ``data/places.yaml`` that are derived from the GSHHG land data.

Usage::

    python tools/build_anchorages.py            # print what the file should hold, and the differences
    python tools/build_anchorages.py --write    # rewrite the `anchorage:` lines of data/places.yaml
    python tools/build_anchorages.py --check    # exit 1 if the file differs from the computation

Rules (also stated in the header of data/places.yaml):

* A place whose reference point is on land or within ``NEAR_SHORE_NM`` (0.2 nm) of the GSHHG
  shoreline gets ``anchorage: {lat, lon, source}`` = the nearest water at least ``CLEARANCE_NM``
  (0.3 nm) from the shoreline, ``default_land().nearest_sea_point(lat, lon, 0.3)``. Other places
  get no anchorage line (their reference point is their anchorage).
* "Off Pantelleria" = ``nearest_sea_point`` of the Pantelleria reference point with 6 nm clearance
  (Italy's neutrality limit); "Denusa anchorage" = ``nearest_sea_point`` of the Denusa reference
  point with 0.3 nm clearance; "Dardanelles entrance" = the geodesic midpoint of Cape Helles and
  Kum Kale. These three are printed for the maintainer to copy; ``--write`` touches only
  ``anchorage:`` lines.

* An anchorage whose source begins ``chosen:`` was placed by hand, for the reason that follows (the
  computed water lies in a basin the 1 km shoreline cuts off from the sea); it is left as it is.

Positions are rounded to 5 decimal places (about 1 m).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import yaml

from campaign.geo import earth
from campaign.geo.land import Land, default_land
from campaign.paths import DATA_DIR

PLACES_FILE = DATA_DIR / "places.yaml"
NEAR_SHORE_NM = 0.2
CLEARANCE_NM = 0.3
# Italy's neutrality limit, which the Admiralty ordered respected on 4 Aug 1914: "no ship within 6 miles of
# the Italian coast" (Churchill, The World Crisis vol.1 p.96)
NEUTRAL_LIMIT_NM = 6.0
ANCHORAGE_SOURCE = "computed: nearest water at least 0.3 nm from the GSHHG shore to the reference point"
DECIMALS = 5
# An anchorage whose source starts so was chosen by hand (its reason follows) and is not recomputed:
# used where the computed water is cut off from the sea in the 1 km shoreline.
CHOSEN = "chosen:"


def needs_anchorage(land: Land, lat: float, lon: float) -> bool:
    """True where a reference point is on land or closer than 0.2 nm to the GSHHG shore."""
    return bool(land.is_land(lat, lon)) or land.distance_to_land_nm(lat, lon) < NEAR_SHORE_NM


def anchorage_for(land: Land, lat: float, lon: float) -> tuple[float, float] | None:
    """The computed anchorage (lat, lon) of a reference point, or None if it needs none."""
    if not needs_anchorage(land, lat, lon):
        return None
    alat, alon = land.nearest_sea_point(lat, lon, CLEARANCE_NM)
    return round(alat, DECIMALS), round(alon, DECIMALS)


def derived_points(places: dict[str, dict], land: Land) -> dict[str, tuple[float, float]]:
    """Reference points that the file states as computed, recomputed from their inputs."""
    pan, den = places["Pantelleria"], places["Denusa"]
    helles, kum = places["Cape Helles"], places["Kum Kale"]
    out: dict[str, tuple[float, float]] = {}
    out["Off Pantelleria"] = land.nearest_sea_point(pan["lat"], pan["lon"], NEUTRAL_LIMIT_NM)
    out["Denusa anchorage"] = land.nearest_sea_point(den["lat"], den["lon"], CLEARANCE_NM)
    bearing, dist = earth.inverse(helles["lat"], helles["lon"], kum["lat"], kum["lon"])
    out["Dardanelles entrance"] = earth.forward(helles["lat"], helles["lon"], bearing, dist / 2.0)
    return {k: (round(float(v[0]), DECIMALS), round(float(v[1]), DECIMALS)) for k, v in out.items()}


def anchorage_line(lat: float, lon: float) -> str:
    point = f"lat: {lat:.{DECIMALS}f}, lon: {lon:.{DECIMALS}f}"
    return f'    anchorage: {{{point}, source: "{ANCHORAGE_SOURCE}"}}'


def rewrite(text: str, anchorages: dict[str, tuple[float, float] | None]) -> str:
    """The file text with each place's `anchorage:` line replaced, added or removed."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    name_re = re.compile(r"^  - name: (.+?)\s*$")
    while i < len(lines):
        m = name_re.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        name = yaml.safe_load(m.group(1))
        block = [lines[i]]
        i += 1
        while i < len(lines) and (lines[i].startswith("    ") or lines[i].startswith("      ")):
            block.append(lines[i])
            i += 1
        if name not in anchorages:  # a chosen anchorage: leave the block alone
            out.extend(block)
            continue
        block = [b for b in block if not b.startswith("    anchorage:")]
        point = anchorages.get(name)
        if point is not None:
            block.append(anchorage_line(*point))
        out.extend(block)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite the anchorage lines in place")
    group.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    args = parser.parse_args(argv)

    text = PLACES_FILE.read_text(encoding="utf-8")
    raw = yaml.safe_load(text)
    places = {p["name"]: p for p in raw["places"]}
    land = default_land()

    differ = False
    for name, (lat, lon) in derived_points(places, land).items():
        have = (places[name]["lat"], places[name]["lon"])
        flag = "" if (abs(have[0] - lat) < 1e-5 and abs(have[1] - lon) < 1e-5) else "   <-- DIFFERS"
        differ |= bool(flag)
        print(f"# {name}: lat: {lat:.{DECIMALS}f}  lon: {lon:.{DECIMALS}f}"
              f"   (file: {have[0]}, {have[1]}){flag}")

    anchorages: dict[str, tuple[float, float] | None] = {}
    for p in raw["places"]:
        if str((p.get("anchorage") or {}).get("source", "")).startswith(CHOSEN):
            continue  # chosen by hand, with its reason in the file: kept as it is
        point = anchorage_for(land, p["lat"], p["lon"])
        anchorages[p["name"]] = point
        have = p.get("anchorage")
        have_pt = None if have is None else (round(have["lat"], DECIMALS), round(have["lon"], DECIMALS))
        if have_pt != point:
            differ = True
            print(f"# {p['name']}: file {have_pt} computed {point}")
        if point is not None and not args.check:
            dist = earth.distance_nm(p["lat"], p["lon"], point[0], point[1])
            print(f"{p['name']}: {point[0]:.{DECIMALS}f}, {point[1]:.{DECIMALS}f}"
                  f"  ({dist:.2f} nm from reference)")

    if args.write:
        PLACES_FILE.write_text(rewrite(text, anchorages), encoding="utf-8")
        print(f"wrote {PLACES_FILE}")
        return 0
    return 1 if (args.check and differ) else 0


if __name__ == "__main__":
    raise SystemExit(main())
