"""``python run_campaign.py compare OUTDIR``: a run's records beside its scenario's historical record.

Reads ``events.jsonl`` and ``summary.json`` (and ``tracks.nc``, rebuilt from the records when missing),
prints the table and rewrites ``report.md`` and ``replay.html`` with it, both or neither.
"""

from __future__ import annotations

import json
from pathlib import Path

from campaign.output import files
from campaign.output.rebuild import RunFilesError, load_run
from campaign.output.replay import write_replay
from campaign.output.report import write_report
from campaign.record.check import RECORD_FILE, record_of
from campaign.record.match import score_run
from campaign.record.schema import RecordError, load_record, record_path
from campaign.record.tables import text_table


def compare_run(outdir: str | Path, record_file: str | Path | None = None) -> tuple[str, list[Path]]:
    """The comparison as text, and the files rewritten with it (``report.md``, ``replay.html``)."""
    out = Path(outdir)
    events, tracks, meta = load_run(out)
    if record_file is not None:
        record = load_record(record_file)
        meta = {**meta, RECORD_FILE: str(record.path)}
    else:
        record = record_of(meta)
        if record is None:
            raise RecordError(record_path(str(meta.get("name"))),
                              [("", f"no record of scenario '{meta.get('name')}' (give one with --record FILE)")])
    if record.file.scenario not in (meta.get("name"), meta.get("base_scenario")):
        fault = f"'{record.file.scenario}' is not the run's scenario '{meta.get('name')}'"
        raise RecordError(record.path, [("scenario", fault)])
    try:
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunFilesError(f"{out / 'summary.json'}: not JSON ({exc.msg})") from None
    score = score_run(record, events)
    written = files.write_all(out, {
        "report.md": lambda p: write_report(p, events, summary, meta),
        "replay.html": lambda p: write_replay(p, events, tracks, meta),
    })
    return text_table(record, score), written
