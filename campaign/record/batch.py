"""A batch against the record: each event's share of runs within tolerance and median time difference, by
variant, from the replicates' records a batch kept (``batch --keep-records``: ``OUT/records/<variant>/``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from campaign.record.match import Score, score_run
from campaign.record.schema import record_for
from campaign.record.tables import batch_json, batch_text

RECORDS = "records"  # campaign/batch/replicate.py RECORDS
JSON_FILE = "record_check.json"


def _events(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def batch_against_record(out_dir: str | Path, scenario: str, variants: Sequence[str]) -> tuple[str, list[dict[str, Any]]]:
    """The batch's distribution per event of the scenario's record, as text and as JSON rows; ("", [])
    when the scenario has no record. Without kept records the text says how to keep them."""
    record = record_for(scenario)
    if record is None:
        return "", []
    root = Path(out_dir) / RECORDS
    by_variant: dict[str, list[Score]] = {}
    for v in variants:
        runs = sorted((root / v).glob("**/events.jsonl")) if (root / v).is_dir() else []
        if runs:
            by_variant[v] = [score_run(record, _events(p)) for p in runs]
    if not by_variant:
        return (f"Against the record ({record.path.name}): no replicate's records were kept; run the batch with "
                "--keep-records to score its runs against the record."), []
    return batch_text(record, by_variant), batch_json(by_variant, record)
