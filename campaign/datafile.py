"""Reading the project's YAML files, with libyaml's parser when PyYAML was built with it.

The bundled tables (ships, places, cables, weather, scoring, rules) are read at every start of a run
and of a batch worker; the C parser reads them several times faster than PyYAML's own (every file of
data/ together: 0.16 s against 1.38 s on a 2-core machine), into the same Python objects, as both build
them with PyYAML's safe constructor.
"""

from __future__ import annotations

from typing import Any

import yaml

_SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """The document in ``text``, as ``yaml.safe_load`` gives it; raises ``yaml.YAMLError`` as it does."""
    return yaml.load(text, Loader=_SAFE_LOADER)  # a safe loader, C or Python
