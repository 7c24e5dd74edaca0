"""What-if overlays: a small file that names its base scenario and changes only what differs.

An overlay file::

    variant: troubridge_engages          # its name (the --variant NAME)
    base: ../goeben_1914.yaml            # the base scenario, relative to this file
    title: Troubridge engages at dawn on 7 August
    summary: The 1st Cruiser Squadron holds on to cross Goeben's bows and fights.   # one line
    sources: ["seed 000, 'What If?'", ...]
    changes:
      forces:                            # lists of named things: add, remove, change
        change:
          1st Cruiser Squadron: {orders: [...]}      # merged into the force (lists replace)
        remove: [Italian Fleet]
        add: [{name: Moltke, ...}]
      messages: {remove: [troubridge_abandons]}      # messages and politics are named by their `id`
      command: {standing: {1st Cruiser Squadron: {on_contact: engage}}}
      ship_changes: {Goeben: {speed_kn: {design: 15.7}}}                 # mappings merge key by key

Lists of named things are keyed as in :data:`KEYED_LISTS`; every other field is merged as a JSON
merge patch (RFC 7386): mappings merge key by key, ``null`` deletes a key, anything else replaces. The
result is checked exactly as a scenario file is, and every fault names the overlay file and the field.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# The lists whose items an overlay addresses by a key field, and that field.
KEYED_LISTS = {"forces": "name", "messages": "id", "politics": "id", "neutral_notices": "port"}
# Lists inside ``command`` addressed the same way.
COMMAND_KEYED_LISTS = {"headquarters": "name"}
LIST_OPS = ("add", "remove", "change")

VARIANTS_DIR = "variants"  # overlays live in this folder beside their base scenario


class OverlayModel(BaseModel):
    """The form of an overlay file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    variant: str = Field(pattern=r"^[A-Za-z0-9_-]+$")
    base: str
    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    sources: list[str] = []
    changes: dict[str, Any] = Field(min_length=1)


@dataclass(frozen=True)
class Overlay:
    """A read overlay: its file, its base scenario's file and its changes."""

    path: Path
    base_path: Path
    variant: str
    title: str
    summary: str
    sources: tuple[str, ...]
    changes: dict[str, Any]


def is_overlay(raw: Any) -> bool:
    """Does this file's content look like an overlay (it names a base scenario)?"""
    return isinstance(raw, dict) and "base" in raw and "variant" in raw


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 merge patch: mappings merge key by key, ``None`` deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def _patch_list(items: list, ops: Any, key: str, where: str, faults: list[tuple[str, str]]) -> list:
    """Apply add/remove/change to a list of mappings named by ``key``; faults are (field, fault)."""
    if not isinstance(ops, dict) or not ops or set(ops) - set(LIST_OPS):
        faults.append((where, f"give a mapping of {', '.join(LIST_OPS)} (a list is changed item by item)"))
        return items
    out = [copy.deepcopy(x) for x in items]
    names = [x.get(key) if isinstance(x, dict) else None for x in out]
    for name in ops.get("remove") or []:
        if name not in names:
            faults.append((f"{where}.remove", f"no item with {key} '{name}' in the base scenario"))
            continue
        i = names.index(name)
        del out[i], names[i]
    change = ops.get("change") or {}
    if not isinstance(change, dict):
        faults.append((f"{where}.change", f"give a mapping of {key} to the fields that change"))
        change = {}
    for name, patch in change.items():
        if name not in names:
            faults.append((f"{where}.change.{name}", f"no item with {key} '{name}' in the base scenario"))
            continue
        if not isinstance(patch, dict):
            faults.append((f"{where}.change.{name}", "give a mapping of the fields that change"))
            continue
        i = names.index(name)
        out[i] = merge_patch(out[i], patch)
        names[i] = out[i].get(key)
    add = ops.get("add") or []
    if not isinstance(add, list):
        faults.append((f"{where}.add", "give a list of new items"))
        add = []
    for k, item in enumerate(add):
        name = item.get(key) if isinstance(item, dict) else None
        if name is None:
            faults.append((f"{where}.add[{k}]", f"a new item needs '{key}'"))
            continue
        if name in names:
            faults.append((f"{where}.add[{k}]", f"the base scenario already has an item with {key} '{name}'"))
            continue
        out.append(copy.deepcopy(item))
        names.append(name)
    return out


def apply_changes(base: dict[str, Any], changes: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The base scenario's content with the overlay's ``changes`` applied, and the faults found (each a
    (field, fault) pair with the field as a path under ``changes``)."""
    out = copy.deepcopy(base)
    faults: list[tuple[str, str]] = []
    for field, ch in changes.items():
        where = f"changes.{field}"
        if field in ("name", "base", "variant"):
            faults.append((where, "an overlay may not change this field"))
        elif field in KEYED_LISTS:
            out[field] = _patch_list(out.get(field) or [], ch, KEYED_LISTS[field], where, faults)
        elif field == "command" and isinstance(ch, dict):
            cmd = dict(out.get("command") or {})
            for sub, sub_ch in ch.items():
                if sub in COMMAND_KEYED_LISTS:
                    cmd[sub] = _patch_list(cmd.get(sub) or [], sub_ch, COMMAND_KEYED_LISTS[sub],
                                           f"{where}.{sub}", faults)
                else:
                    cmd[sub] = merge_patch(cmd.get(sub), sub_ch)
                    if cmd[sub] is None:
                        cmd.pop(sub)
            out["command"] = cmd
        else:
            merged = merge_patch(out.get(field), ch)
            out[field] = merged
    return out, faults


def variants_dir(scenario_path: Path) -> Path:
    """Where a scenario's overlays live: ``variants/`` beside it."""
    return scenario_path.parent / VARIANTS_DIR
