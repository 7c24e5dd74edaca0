"""Pydantic's validation errors in the project's own words.

A user who mistypes a field should read what is wanted ("must be a finite number, not nan"), not the
validator's wording ("Value error, ...", "Input should be less than or equal to 90" for a NaN). Every
scenario, overlay, duel and design file's form faults pass through :func:`plain`; :func:`merged` keeps
one fault per field where the members of a union each gave theirs.
"""

from __future__ import annotations

import math
from typing import Any

# Patterns of the schemas' name fields, and what they ask for in words.
PATTERNS = {
    r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$": "letters, digits, '_', '-' and '.', not starting with '.'",
    r"^[A-Za-z0-9_-]+$": "letters, digits, '_' and '-'",
}
# Errors saying only that the value is of another kind than one member of a union wanted: where another
# member's error says more about the same value, these are left out.
KIND_ERRORS = {"string_type", "float_type", "int_type", "bool_type", "dict_type", "list_type", "model_type",
               "model_attributes_type", "float_parsing", "int_parsing", "bool_parsing", "literal_error",
               "datetime_type", "is_instance_of"}


def _shown(value: Any) -> str:
    """A value as a user wrote it: text quoted, numbers as numbers, NaN and infinities by name."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):
        return repr(value) if len(value) <= 60 else repr(value[:57] + "...")
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e16 else f"{value:.3g}"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**6:
        return f"{value:,}"
    return str(value)


def plain(err: dict[str, Any]) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) in words."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    value = err.get("input")
    shown = _shown(value)
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "finite_number":
        return f"must be a finite number, not {shown}"
    if kind in ("float_type", "float_parsing"):
        return f"must be a number, not {shown}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be a whole number, not {shown}"
    if kind in ("bool_type", "bool_parsing"):
        return f"must be true or false, not {shown}"
    if kind == "string_type":
        return f"must be text, not {shown}"
    if kind == "list_type":
        return f"must be a list, not {shown}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"must be a mapping of fields, not {shown}"
    if kind == "greater_than":
        return f"must be more than {_shown(ctx.get('gt'))}, not {shown}"
    if kind == "greater_than_equal":
        return f"must be {_shown(ctx.get('ge'))} or more, not {shown}"
    if kind == "less_than":
        return f"must be less than {_shown(ctx.get('lt'))}, not {shown}"
    if kind == "less_than_equal":
        return f"must be {_shown(ctx.get('le'))} or less, not {shown}"
    if kind == "too_short":
        n = ctx.get("min_length")
        return f"needs at least {n} item{'s' if n != 1 else ''}"
    if kind == "too_long":
        n = ctx.get("max_length")
        return f"may have at most {n} item{'s' if n != 1 else ''}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        return f"may have at most {ctx.get('max_length')} characters"
    if kind == "string_pattern_mismatch":
        wanted = PATTERNS.get(ctx.get("pattern", ""), f"text matching {ctx.get('pattern')}")
        return f"{shown} is not allowed: use {wanted}"
    if kind == "literal_error":
        return f"must be {ctx.get('expected')}, not {shown}"
    if kind == "value_error":
        return str(ctx.get("error") or err["msg"]).removeprefix("Value error, ")
    if kind.startswith(("datetime", "date")):
        return f"{shown} is not a UTC time such as 1914-08-04T23:00Z"
    return str(err["msg"]).removeprefix("Value error, ").removeprefix("Input should be ")


def merged(faults: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(field, kind, fault) triples as (field, fault) pairs, one per field: where a union's members each
    gave a fault, a fault about the value (or one about a field inside it) wins over one saying only that
    the value is not of the member's kind; the rest are joined with '; or '."""
    fields = [f for f, _, _ in faults]
    by_field: dict[str, list[tuple[str, str]]] = {}
    for field, kind, fault in faults:
        by_field.setdefault(field, []).append((kind, fault))
    out = []
    for field, items in by_field.items():
        deeper = any(f != field and f.startswith((field + ".", field + "[")) for f in fields)
        telling = [fault for kind, fault in items if kind not in KIND_ERRORS]
        if deeper and not telling:
            continue  # a member that took the value found faults inside it: those are said
        chosen = telling or [fault for _, fault in items]
        out.append((field, "; or ".join(dict.fromkeys(chosen))))
    return out
