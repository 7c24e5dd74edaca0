"""The scenario's files as the driver read them when the batch began, sent to the workers with every task.

A batch's workers load its scenario from these files, not from the disk: a worker needs only this package,
not a checkout at the driver's path or a shared file system, and a file edited while the batch runs (or
a job's worker started later from another checkout) cannot put a second version of the scenario into one
Dataset. The files are the scenario file, the overlay of each of the batch's variants (in its
``variants/`` folder) and a scripted-weather file named by one of them that lies beside the scenario
(campaign/scenario/loader.py looks there before ``data/``, which ships with the package). Each file's
SHA-256 is part of the batch's identity (campaign/batch/plan.py), so that a batch resumed after an edit
is refused, naming the file, rather than mixed. The driver keeps the files in the batch's output folder
(:func:`keep`), so that any replicate reruns exactly from them after the scenario's own have changed.

The whole set for the historical scenario and its fourteen overlays is about 22 kB compressed: a task
carries it at no cost worth counting beside its replicates' seconds (the driver's cost per task did not
change measurably). A worker loads each (files, variant) once and keeps it (:func:`scenario_from`).
"""

from __future__ import annotations

import functools
import hashlib
import shutil
import tempfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from campaign.batch.software import changed
from campaign.paths import DATA_DIR
from campaign.scenario import overlay as ov
from campaign.scenario.loader import list_variants, load_scenario, read_yaml
from campaign.scenario.model import Scenario
from campaign.userfile import confined

# Loaded scenarios a worker keeps: a batch has the base and its variants (fifteen for the historical
# scenario); a long-lived cluster serving several batches forgets the oldest.
SCENARIOS_KEPT = 64
KEPT = "scenario"  # the folder of a batch's output that keeps the files it ran (:func:`keep`)


class FilesError(ValueError):
    """The scenario's files cannot be gathered for the workers (a weather file outside its folder)."""


@dataclass(frozen=True, eq=False)
class ScenarioFiles:
    """A scenario's files by path relative to its folder (POSIX form), each compressed, with their
    SHA-256s. Equal, and hashed, by content: a worker's cache of loaded scenarios is keyed by it."""

    scenario: str  # the scenario file's path relative to the folder (its name)
    packed: tuple[tuple[str, bytes], ...]  # (relative path, zlib-compressed content), sorted by path
    sha256: tuple[tuple[str, str], ...]  # (relative path, hex digest of the content), sorted by path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScenarioFiles) and (self.scenario, self.sha256) == (other.scenario, other.sha256)

    def __hash__(self) -> int:
        return hash((self.scenario, self.sha256))

    def write(self, folder: Path) -> Path:
        """Write the files under ``folder`` as they lay under the scenario's; the scenario file's path."""
        for rel, data in self.packed:
            target = folder.joinpath(*PurePosixPath(rel).parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zlib.decompress(data))
        return folder.joinpath(*PurePosixPath(self.scenario).parts)


def _weather_file(raw: Any) -> str | None:
    """The ``weather.script_file`` a scenario's raw YAML names, if any."""
    weather = raw.get("weather") if isinstance(raw, dict) else None
    name = weather.get("script_file") if isinstance(weather, dict) else None
    return name if isinstance(name, str) else None


def gather(scenario: str | Path, overlays: Sequence[str]) -> ScenarioFiles:
    """The files a worker needs to load ``scenario`` and its variants named ``overlays`` (names in its
    variants folder, checked before: campaign/batch/run.py ``make_plan``), read now. FilesError for a
    scripted-weather file named from the scenario's folder but lying outside it."""
    path = Path(scenario).resolve()
    folder = path.parent
    known = {o.variant: o for o in list_variants(path)}
    base_raw = read_yaml(path)
    chosen = [path]
    raws = [(path, base_raw)]
    for name in overlays:
        o = known[name]
        merged, _ = ov.apply_changes(base_raw if isinstance(base_raw, dict) else {}, o.changes)
        chosen.append(o.path)  # in the variants folder under the scenario's (list_variants)
        raws.append((o.path, merged))
    for origin, raw in raws:
        script = _weather_file(raw)
        if script is None:
            continue
        try:  # beside the scenario or in data/, as the loader reads it (campaign/userfile.py)
            found = confined(script, [folder, DATA_DIR])
        except ValueError as exc:
            raise FilesError(f"{origin}: weather.script_file: {exc}") from None
        if found is None or not found.is_relative_to(folder):
            continue  # none (the loader says so), or one in data/ (which comes with the package)
        chosen.append(found)
    contents = {p.relative_to(folder).as_posix(): p.read_bytes() for p in chosen}
    rels = sorted(contents)
    return ScenarioFiles(path.name, tuple((r, zlib.compress(contents[r], 9)) for r in rels),
                         tuple((r, hashlib.sha256(contents[r]).hexdigest()) for r in rels))


def changed_on_disk(scenario: str | Path, recorded: Mapping[str, str]) -> list[str]:
    """The files of ``recorded`` (``{path relative to the scenario's folder: SHA-256}``, as a batch stores
    them) that differ now in ``scenario``'s folder, or are gone from it, in order."""
    folder = Path(scenario).parent
    now = {}
    for rel in recorded:
        p = folder.joinpath(*PurePosixPath(rel).parts)
        if p.is_file():
            now[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return changed(recorded, now)


def kept_scenario(files: ScenarioFiles, out_dir: str | Path) -> Path:
    """Where :func:`keep` keeps the scenario file of ``files`` in ``out_dir``."""
    return Path(out_dir, KEPT).joinpath(*PurePosixPath(files.scenario).parts)


def keep(files: ScenarioFiles, out_dir: str | Path) -> Path:
    """Keep the files in ``out_dir``/:data:`KEPT`, once: written into a temporary folder beside it and
    renamed, so that the folder is whole or absent, and left as it is if it is there already (a resumed
    batch's, whose files are these: the batch's identity says so). The kept scenario file's path: any
    replicate reruns exactly from it, whatever becomes of the scenario's own files."""
    out = Path(out_dir)
    kept = out / KEPT
    if not kept.exists():
        tmp = Path(tempfile.mkdtemp(prefix=f".{KEPT}-", dir=out))
        try:
            files.write(tmp)
            tmp.rename(kept)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            if not kept.exists():  # (another driver's rename won the race: theirs are these files)
                raise
    return kept_scenario(files, out)


@functools.lru_cache(maxsize=SCENARIOS_KEPT)
def scenario_from(files: ScenarioFiles, variant: str | None) -> Scenario:
    """The loaded scenario of ``variant`` (None: the scenario itself) from ``files``, once a process.
    The files are written into a temporary folder for the loader and removed once it has read them
    (a loaded scenario holds what it read, not its files)."""
    with tempfile.TemporaryDirectory(prefix="campaign-scenario-") as tmp:
        path = files.write(Path(tmp))
        return load_scenario(path, variant=variant)
