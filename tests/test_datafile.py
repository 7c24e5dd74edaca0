"""Reading the project's YAML: the same objects as PyYAML's safe loader gives, and its errors."""

from __future__ import annotations

import pytest
import yaml

from campaign.datafile import YamlLimitError, load_strict_yaml, load_yaml
from campaign.paths import DATA_DIR, SCENARIO_DIR


@pytest.mark.parametrize("folder", [DATA_DIR, SCENARIO_DIR])
def test_every_bundled_file_reads_as_the_safe_loader_reads_it(folder) -> None:
    files = sorted(folder.rglob("*.yaml"))
    assert len(files) > 5
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert load_yaml(text) == yaml.safe_load(text), path.name


def test_what_the_safe_loader_refuses_is_refused() -> None:
    with pytest.raises(yaml.YAMLError):
        load_yaml("a: [1, 2\nb: 3")
    with pytest.raises(yaml.YAMLError):
        load_yaml("!!python/object:os.system {}")
    assert load_yaml("when: 1914-08-04 14:00\nn: 1e3") == yaml.safe_load("when: 1914-08-04 14:00\nn: 1e3")


@pytest.mark.parametrize("folder", [DATA_DIR, SCENARIO_DIR])
def test_every_bundled_file_reads_the_same_when_read_strictly(folder) -> None:
    # A user's file is read strictly (no key twice, limits on nesting and size); the bundled ones pass.
    for path in sorted(folder.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert load_strict_yaml(text) == load_yaml(text), path.name


def test_the_strict_reader_refuses_a_key_given_twice_but_not_a_merge() -> None:
    with pytest.raises(YamlLimitError, match="'a' is given twice in one mapping"):
        load_strict_yaml("a: 1\nb: 2\na: 3\n")
    assert load_strict_yaml("base: &b {x: 1, y: 2}\nc: {<<: *b, x: 3}\n")["c"] == {"x": 3, "y": 2}
