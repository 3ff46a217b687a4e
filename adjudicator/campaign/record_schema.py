"""The JSON Schema of each kind of public record (``schemas/<kind>.schema.json``,
docs/dice.md §8): the fields each record must have, may have, and their types. ``verify``
checks every record against its kind's schema before it reads it, so that a record
with a field missing, misspelt or of the wrong type gets a clear verdict.

Each schema is checked by a function compiled from it once per process
(``fastjsonschema``, about ten times faster per record than ``jsonschema``'s
interpreter, and lighter to load), with terse checks; a record that fails is checked
again by the same schema compiled with detailed checks, whose message names the field
and what it should be."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

SCHEMAS = Path(__file__).resolve().parent / "schemas"
KINDS = ("charter", "orders", "batch", "chain", "undo", "forfeit", "opening", "reveal", "pause", "press",
         "replace")

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
def _compiled(kind: str, detailed: bool = False) -> Callable[[Any], Any]:
    """The schema of ``kind`` compiled to a Python function that raises
    ``fastjsonschema.JsonSchemaValueException`` on a body that does not follow it: with
    terse checks (about a third of the time to compile) or, to explain a body that
    failed them, ``detailed`` ones whose exception names the place and the rule."""
    import fastjsonschema  # loaded when a record is checked, not at start-up

    as_draft_7 = _as_draft_7(schema(kind), kind)
    as_draft_7["$schema"] = "http://json-schema.org/draft-07/schema#"
    return fastjsonschema.compile(as_draft_7, use_default=False, detailed_exceptions=detailed)


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


def schema_problem(kind: str, body: Mapping[str, Any]) -> str | None:
    """Why ``body`` does not follow the schema of ``kind`` (the first problem, with where
    it is), or None when it does; an unknown kind has no schema (None)."""
    if kind not in KINDS and kind != "record":
        return None
    from fastjsonschema import JsonSchemaValueException

    try:
        _compiled(kind)(body)
        return None
    except JsonSchemaValueException as terse:
        try:
            _compiled(kind, detailed=True)(body)
        except JsonSchemaValueException as error:
            where = "/".join(str(part) for part in error.path[1:]) or "the body"  # path[0]: the body's name
            if error.rule == "required":  # the compiler's message lists every required field
                missing = ", ".join(repr(name) for name in error.rule_definition if name not in error.value)
                return f"{where}: {missing} missing (required: {', '.join(error.rule_definition)})"
            return f"{where}: {error.message.removeprefix(error.name).strip()}"
        return terse.message
