"""The JSON Schema of each kind of public record (``schemas/<kind>.schema.json``,
docs/dice.md §8): the fields each record must have, may have, and their types. ``verify``
checks every record against its kind's schema before it reads it, so that a record
with a field missing, misspelt or of the wrong type gets a clear verdict."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

SCHEMAS = Path(__file__).resolve().parent / "schemas"
KINDS = ("charter", "orders", "batch", "chain", "undo", "forfeit", "opening", "reveal")


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a record kind's body (``"record"``: of the record line itself)."""
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator  # loaded when a record is checked, not at start-up

    whole = schema(kind)
    return Draft202012Validator(_inlined(whole, whole.get("$defs", {})))


def _inlined(node: Any, defs: Mapping[str, Any]) -> Any:
    """The schema with each local ``{"$ref": "#/$defs/name"}`` replaced by what it names
    (the schemas have no cycles): the same schema, checked without a lookup per use."""
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        if ref.startswith("#/$defs/") and len(node) == 1:
            return _inlined(defs[ref.removeprefix("#/$defs/")], defs)
        return {key: _inlined(value, defs) for key, value in node.items() if key != "$defs"}
    if isinstance(node, list):
        return [_inlined(item, defs) for item in node]
    return node


def schema_problem(kind: str, body: Mapping[str, Any]) -> str | None:
    """Why ``body`` does not follow the schema of ``kind`` (the first problem, with where
    it is), or None when it does; an unknown kind has no schema (None)."""
    if kind not in KINDS and kind != "record":
        return None
    validator = _validator(kind)
    if validator.is_valid(body):
        return None
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(body))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "the body"
    return f"{where}: {error.message}"
