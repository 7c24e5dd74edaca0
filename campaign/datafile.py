"""Reading YAML: the project's own files fast, a user's files strictly.

The bundled tables (ships, places, cables, weather, scoring, rules) are read at every start of a run
and of a batch worker; the C parser reads them several times faster than PyYAML's own (every file of
data/ together: 0.16 s against 1.38 s on a 2-core machine), into the same Python objects, as both build
them with PyYAML's safe constructor (:func:`load_yaml`).

A file a user gives (a scenario, an overlay, a duel, a design, a weather script) is read by
:func:`load_strict_yaml`: the same objects, but a key given twice in one mapping is refused (PyYAML
keeps the last silently, so a field written twice would be half-ignored), and so is a document nested
deeper than :data:`MAX_DEPTH` or holding more than :data:`MAX_NODES` values once its aliases are
expanded (a few lines of anchors can stand for billions of values). The limits are checked on the
parser's events, before any object is built, so a hostile file costs no more than its reading.
"""

from __future__ import annotations

from typing import Any

import yaml

_SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# No scenario needs more than a few levels (the historical one: 7); beyond this a file is a mistake or
# an attack on the parser, whose composer recurses once a level.
MAX_DEPTH = 64
# Values in a document with its aliases expanded: the historical scenario has about 6,000.
MAX_NODES = 1_000_000


def load_yaml(text: str) -> Any:
    """The document in ``text``, as ``yaml.safe_load`` gives it; raises ``yaml.YAMLError`` as it does."""
    return yaml.load(text, Loader=_SAFE_LOADER)  # a safe loader, C or Python


class YamlLimitError(ValueError):
    """A document refused by :func:`load_strict_yaml`: ``line`` (1-based, 0 when unknown) and what is wrong."""

    def __init__(self, line: int, fault: str) -> None:
        self.line = line
        self.fault = fault
        super().__init__(f"line {line}: {fault}" if line else fault)


class _StrictLoader(_SAFE_LOADER):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # '<<: *base' merges; its keys may be overridden
                continue
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            try:
                first = seen.get(key)
                seen.setdefault(key, line)
            except TypeError:  # an unhashable key: the constructor itself refuses it
                continue
            if first is not None:
                raise YamlLimitError(line, f"'{key}' is given twice in one mapping (first on line {first}): "
                                           "give it once")
        return super().construct_mapping(node, deep=deep)


def _check_shape(text: str) -> None:
    """YamlLimitError if the document nests deeper than MAX_DEPTH or expands to more than MAX_NODES."""
    depth = 0
    count = 0
    starts: list[tuple[int, str | None]] = []  # (count at the collection's start, its anchor)
    anchored: dict[str, int] = {}  # anchor -> values it stands for
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlLimitError(event.start_mark.line + 1,
                                     f"nested more than {MAX_DEPTH} levels deep: not a file of this project")
            count += 1
            starts.append((count, event.anchor))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            start, anchor = starts.pop()
            if anchor is not None:
                anchored[anchor] = count - start + 1
        elif isinstance(event, yaml.ScalarEvent):
            count += 1
            if event.anchor is not None:
                anchored[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            count += anchored.get(event.anchor, 1)
        if count > MAX_NODES:
            raise YamlLimitError(event.start_mark.line + 1,
                                 f"holds more than {MAX_NODES:,} values (aliases expanded): not a file of this project")


def load_strict_yaml(text: str) -> Any:
    """The document in ``text`` as :func:`load_yaml` gives it, or ``YamlLimitError`` for a key given twice,
    a document nested too deep or too large; ``yaml.YAMLError`` for text that is not YAML."""
    _check_shape(text)
    return yaml.load(text, Loader=_StrictLoader)
