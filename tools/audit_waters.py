"""Audit runs for ships in neutral waters barred to them and for sightings across land, from their files.

Reads each run folder's ``events.jsonl`` and ``summary.json`` (as ``run_campaign.py`` writes them) and
prints every position of a ship inside waters barred to her nation at that minute
(``campaign.output.belt_audit``: neutral belts, closed straits; her track rebuilt minute by minute) and
every ``sighting`` record whose line of sight crosses land (``campaign.output.sightline_audit``).

Usage::

    python run_campaign.py scenarios/goeben_1914.yaml --seed 3 --out outputs/run3
    python tools/audit_waters.py outputs/run3 [more run folders ...] [--list]

Exits 1 when any violation or sighting across land is found.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from campaign.clock import parse_utc
from campaign.output.belt_audit import CAUGHT_INSIDE, IN_PORT, VIOLATION, audit_belts, count
from campaign.output.rebuild import _read_events, _read_meta
from campaign.output.sightline_audit import audit_sightlines


def audit_folder(folder: Path, listing: bool) -> int:
    """Print one run's figures (and, with ``listing``, every finding); the number of faults."""
    events = _read_events(folder / "events.jsonl")
    meta = _read_meta(folder / "summary.json")
    end_min = (parse_utc(meta["end"]) - parse_utc(meta["start"])).total_seconds() / 60.0
    found = audit_belts(events, meta["start"], end_min)
    ships, squadrons, minutes = count(found, VIOLATION)
    crossing = audit_sightlines(events)
    print(f"{folder}: {ships} ships' intrusions into barred waters ({squadrons} by squadron, {minutes:g} "
          f"ship-minutes); {count(found, CAUGHT_INSIDE)[0]} caught inside, {count(found, IN_PORT)[0]} in port; "
          f"{len(crossing)} of {sum(1 for r in events if r.get('type') == 'sighting')} sightings across land")
    if listing:
        for i in found:
            print("   ", i.line())
        for c in crossing:
            print("   ", c.line())
    return ships + len(crossing)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="run folders (events.jsonl, summary.json)")
    parser.add_argument("--list", action="store_true", help="print every finding, not only the counts")
    args = parser.parse_args()
    faults = sum(audit_folder(f, args.list) for f in args.folders)
    print(f"total faults: {faults}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
