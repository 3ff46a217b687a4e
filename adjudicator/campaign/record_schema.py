"""The JSON Schema of each kind of public record (``schemas/<kind>.schema.json``,
docs/dice.md §8): the fields each record must have, may have, and their types. ``verify``
checks every record against its kind's schema before it reads it, so that a record
with a field missing, misspelt or of the wrong type gets a clear verdict.

Each schema is checked by a function compiled from it once per process
(``fastjsonschema``, about ten times faster per record than ``jsonschema``'s
interpreter, and lighter to load); a record that fails is checked again by
``jsonschema``, whose message names the field and what it should be."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

SCHEMAS = Path(__file__).resolve().parent / "schemas"
KINDS = ("charter", "orders", "batch", "chain", "undo", "forfeit", "opening", "reveal")

#: The keywords the schemas use: each means the same in draft 2020-12 (the schemas' draft)
#: and draft 7 (the compiler's), but for ``dependentSchemas``, draft 7's ``dependencies``
#: with a schema. A schema using any other keyword is refused rather than compiled with it
#: ignored; ``$ref`` has no sibling keywords (draft 7 would ignore them). ``const: x`` is
#: compiled as its equal ``enum: [x]`` (the compiler's terse checks fail on ``const``).
SAME_IN_DRAFT_7 = frozenset({
    "$id", "$schema", "$defs", "$ref", "title", "description", "type", "enum", "const",
    "properties", "additionalProperties", "required", "minProperties", "propertyNames",
    "items", "minItems", "uniqueItems", "minLength", "pattern", "minimum", "maximum", "anyOf",
})
DRAFT_7_NAMES = {"dependentSchemas": "dependencies"}
NAMED_SCHEMAS = frozenset({"properties", "$defs", "dependentSchemas"})  # values: name -> schema


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a record kind's body (``"record"``: of the record line itself)."""
    return json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator  # loaded to explain a record that fails

    whole = schema(kind)
    return Draft202012Validator(_inlined(whole, whole.get("$defs", {})))


@lru_cache(maxsize=None)
def _compiled(kind: str) -> Callable[[Any], Any]:
    """The schema of ``kind`` compiled to a Python function that raises
    ``fastjsonschema.JsonSchemaValueException`` on a body that does not follow it."""
    import fastjsonschema  # loaded when a record is checked, not at start-up

    as_draft_7 = _as_draft_7(schema(kind), kind)
    as_draft_7["$schema"] = "http://json-schema.org/draft-07/schema#"
    # terse checks (jsonschema words the message): about a third of the time to compile
    return fastjsonschema.compile(as_draft_7, use_default=False, detailed_exceptions=False)


def _as_draft_7(node: Any, kind: str) -> Any:
    """A schema of draft 2020-12 written as the same schema in draft 7 (see SAME_IN_DRAFT_7)."""
    if isinstance(node, list):
        return [_as_draft_7(item, kind) for item in node]
    if not isinstance(node, dict):
        return node
    unknown = set(node) - SAME_IN_DRAFT_7 - set(DRAFT_7_NAMES)
    if unknown or ("$ref" in node and len(node) > 1) or {"const", "enum"} <= set(node):
        what = sorted(unknown) or "$ref with siblings, or const with enum,"
        raise ValueError(f"schemas/{kind}.schema.json: {what} has no checked equivalent in draft 7: "
                         "add it to record_schema.SAME_IN_DRAFT_7 only if it means the same there")
    if "const" in node:
        node = {("enum" if key == "const" else key): [value] if key == "const" else value
                for key, value in node.items()}
    return {DRAFT_7_NAMES.get(key, key):
            {name: _as_draft_7(one, kind) for name, one in value.items()} if key in NAMED_SCHEMAS
            else value if key == "enum"  # values, not schemas
            else _as_draft_7(value, kind)
            for key, value in node.items()}


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
    from fastjsonschema import JsonSchemaValueException

    try:
        _compiled(kind)(body)
        return None
    except JsonSchemaValueException as compiled_verdict:
        return _explained(kind, body) or compiled_verdict.message


def _explained(kind: str, body: Mapping[str, Any]) -> str | None:
    """``jsonschema``'s account of the first problem of ``body``, with where it is."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator(kind).iter_errors(body))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "the body"
    return f"{where}: {error.message}"
