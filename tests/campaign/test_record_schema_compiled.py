"""``verify`` checks each record with its kind's schema compiled to Python
(fastjsonschema, draft 7) and explains a failure with the same schema compiled with
detailed checks: they must accept and refuse the same records as ``jsonschema``
(draft 2020-12, the schemas' own draft), or the draft 7 copy would weaken the
schemas. Proved on every record of the worked examples and on copies of them spoilt
at sampled places (a field deleted, a value of each wrong type, an unknown field)."""

from __future__ import annotations

import copy
import json
import random
from functools import lru_cache
from pathlib import Path

import pytest

from adjudicator.campaign import record_schema
from adjudicator.campaign.examples import EXAMPLES
from adjudicator.campaign.record_schema import _as_draft_7, _compiled, schema_problem

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "examples"
SPOILT_VALUES = (None, True, 1.0, 2.5, -1, "", "x", [], {}, [1, 1])


def _places(node, at=()):
    """Every place in a JSON value: the path of keys and indexes to it."""
    yield at
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _places(value, at + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _places(value, at + (index,))


def _spoilt_copies(body, rng):
    places = [place for place in _places(body) if place]
    for place in rng.sample(places, min(3, len(places))):
        for value in rng.sample(SPOILT_VALUES, 3) + ["deleted", "extra field"]:
            spoilt = copy.deepcopy(body)
            parent = spoilt
            for step in place[:-1]:
                parent = parent[step]
            if value == "deleted":
                del parent[place[-1]]
            elif value == "extra field":
                if not isinstance(parent[place[-1]], dict):
                    continue
                parent[place[-1]]["not_in_the_schema"] = 1
            else:
                parent[place[-1]] = value
            yield spoilt


def _compiled_accepts(kind, body, detailed=False):
    from fastjsonschema import JsonSchemaValueException

    try:
        _compiled(kind, detailed)(body)
        return True
    except JsonSchemaValueException:
        return False


@lru_cache(maxsize=None)
def _validator(kind):
    """``jsonschema``'s validator of the schema as written, in draft 2020-12."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(record_schema.schema(kind))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_compiled_schemas_accept_and_refuse_exactly_what_jsonschema_does(name):
    rng = random.Random(name)
    refused = 0
    for line in (FOLDER / name).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for kind, body in (("record", record), (record["kind"], record["body"])):
            for candidate in [body, *_spoilt_copies(body, rng)]:
                expected = _validator(kind).is_valid(candidate)
                assert _compiled_accepts(kind, candidate) == expected, (kind, candidate)
                assert _compiled_accepts(kind, candidate, detailed=True) == expected, (kind, candidate)
                assert (schema_problem(kind, candidate) is None) == expected
                refused += not expected
    assert refused > 50  # the spoilt copies reach the schemas' checks, not only their edges


def test_a_refused_record_is_explained_with_the_place_of_its_problem():
    lines = (FOLDER / "port-arthur.jsonl").read_text(encoding="utf-8").splitlines()
    batch = next(json.loads(line)["body"] for line in lines if json.loads(line)["kind"] == "batch")
    batch["waiting"] = 7
    del batch["seed"]
    assert schema_problem("batch", batch).startswith("the body: 'seed' missing (required: batch, ")
    batch["seed"] = "ab" * 32
    assert schema_problem("batch", batch) == "waiting: cannot be validated by any definition"
    batch["entries"][0]["surplus"] = 1
    assert schema_problem("batch", batch) == "entries/0: must not contain {'surplus'} properties"


@pytest.mark.parametrize("fragment", [{"unevaluatedProperties": False},
                                      {"$ref": "#/$defs/x", "minLength": 1},
                                      {"prefixItems": [{"type": "string"}]},
                                      {"const": "a", "enum": ["a", "b"]}])
def test_a_schema_keyword_without_the_same_meaning_in_draft_7_is_refused_not_ignored(fragment):
    with pytest.raises(ValueError, match="draft 7"):
        _as_draft_7({"type": "object", "properties": {"a": fragment}}, "batch")


def test_dependent_schemas_become_draft_7_dependencies_and_const_its_one_value_enum():
    assert _as_draft_7({"properties": {"const": {"const": 3}}}, "batch") == {
        "properties": {"const": {"enum": [3]}}}
    assert _as_draft_7({"const": {"type": "x"}}, "batch") == {"enum": [{"type": "x"}]}  # a value, not a schema
    assert _as_draft_7({"dependentSchemas": {"a": {"required": ["b"]}}}, "batch") == {
        "dependencies": {"a": {"required": ["b"]}}}
    assert "dependentSchemas" not in json.dumps([_as_draft_7(record_schema.schema(kind), kind)
                                                 for kind in record_schema.KINDS])
